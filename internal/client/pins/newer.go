package pins

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/untrusted"
	"github.com/instrlab/instrlab/internal/version"
)

// Newer is what a pinned client's registry serves after its pin: the
// releases (not prereleases) newer than it, oldest first, or why they
// could not be listed.
type Newer struct {
	Client, Pin string
	Releases    []string
	Err         error
}

// Target is the sweep's -client value for n: the pin and every release
// after it, so the timeline starts at the version the pin stands for.
func (n Newer) Target() string { return n.Client + "@>=" + n.Pin }

// ListNewer asks list for the versions each client in pins publishes, in
// name order, and returns the clients with releases newer than their pin,
// and those whose versions could not be listed (with Err), each once. The
// error returned joins the listing errors; the other clients are still
// there, but for those after a registry that could not be reached
// (npm.ErrOffline), which are not asked.
func ListNewer(ctx context.Context, pins map[string]string, list func(ctx context.Context, client string) ([]string, error)) ([]Newer, error) {
	var out []Newer
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(pins)) {
		if err := ctx.Err(); err != nil {
			return out, errors.Join(append(errs, err)...)
		}
		n := Newer{Client: name, Pin: pins[name]}
		vs, err := list(ctx, name)
		if err != nil {
			n.Err = err
			errs = append(errs, err)
			out = append(out, n)
			if errors.Is(err, npm.ErrOffline) {
				break // each of the others would wait as long to fail the same way
			}
			continue
		}
		for _, v := range version.Sort(vs) {
			if version.Prerelease(v) == "" && version.Compare(v, n.Pin) > 0 {
				n.Releases = append(n.Releases, v)
			}
		}
		if len(n.Releases) > 0 {
			out = append(out, n)
		}
	}
	return out, errors.Join(errs...)
}

// shownReleases is how many of a client's newer releases the summary
// names, the newest ones; the rest are counted.
const shownReleases = 6

// Summary writes the Markdown of a proposal (a GitHub job summary): a
// table of the clients with newer releases than their pins, or that could
// not be listed, and what happens next. checked is how many pins were
// looked at. What npm said is escaped (untrusted.Markdown).
func Summary(w io.Writer, ns []Newer, checked int) error {
	var b strings.Builder
	b.WriteString("### Client releases newer than their pins\n\n")
	if len(ns) == 0 {
		fmt.Fprintf(&b, "Every pin (%d clients, %s) is its client's newest release.\n", checked, File)
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("| client | pin | newer releases | sweep |\n|---|---|---|---|\n")
	for _, n := range ns {
		if n.Err != nil {
			fmt.Fprintf(&b, "| %s | %s | not listed: %s | |\n", n.Client, n.Pin, untrusted.Markdown(n.Err.Error()))
			continue
		}
		shown := n.Releases[max(0, len(n.Releases)-shownReleases):]
		list := strings.Join(shown, ", ")
		if more := len(n.Releases) - len(shown); more > 0 {
			list = fmt.Sprintf("%s (and %d older)", list, more)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | `%s` |\n", n.Client, n.Pin, untrusted.Markdown(list), n.Target())
	}
	fmt.Fprintf(&b, "\nThe sweep runs these releases; its merge job then bumps each pin to the newest release the atlas ran (%s) and opens a pull request.\n", "TestPinsFollowTheAtlas -update")
	_, err := io.WriteString(w, b.String())
	return err
}
