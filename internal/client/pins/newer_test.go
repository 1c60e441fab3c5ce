package pins

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/instrlab/instrlab/internal/client/npm"
	"golang.org/x/tools/txtar"
)

// recorded is the versions npm listed of @kilocode/cli-linux-x64, read
// from its recorded answer (internal/client/npm/testdata/view).
func recorded(t *testing.T) []string {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("..", "npm", "testdata", "view", "kilocode-cli-linux-x64.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range a.Files {
		if f.Name == "stdout" {
			vs, err := npm.ParseVersions("@kilocode/cli-linux-x64", f.Data, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			return vs
		}
	}
	t.Fatal("no stdout in the record")
	return nil
}

// TestListNewer: from npm's recorded list of Kilo Code CLI's versions,
// the releases after a pin, oldest first, without prereleases; a client
// at its newest release is left out; one whose list fails is kept with
// the error, and the others are still listed, but none after a registry
// that could not be reached.
func TestListNewer(t *testing.T) {
	kilo := recorded(t)
	gone := fmt.Errorf("listing the versions of @factory/cli-linux-x64: %w", npm.ErrNoPackage)
	offline := fmt.Errorf("listing the versions of opencode-ai: %w (ENOTFOUND)", npm.ErrOffline)
	var asked []string
	list := func(_ context.Context, client string) ([]string, error) {
		asked = append(asked, client)
		switch client {
		case "kilo":
			return kilo, nil
		case "droid":
			return nil, gone
		case "opencode":
			return nil, offline
		}
		return []string{"1.0.0", "1.1.0-rc.1", "0.9.0"}, nil
	}
	pins := map[string]string{"kilo": "7.7.2", "droid": "0.225.2", "other": "1.0.0", "opencode": "1.18.33", "qwen": "0.24.4"}
	got, err := ListNewer(context.Background(), pins, list)
	if !errors.Is(err, npm.ErrOffline) || !errors.Is(err, npm.ErrNoPackage) {
		t.Errorf("ListNewer error = %v, want both listing errors", err)
	}
	want := []Newer{
		{Client: "droid", Pin: "0.225.2", Err: gone},
		{Client: "kilo", Pin: "7.7.2", Releases: []string{"7.7.7", "7.7.9"}},
		{Client: "opencode", Pin: "1.18.33", Err: offline},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateErrors()); diff != "" {
		t.Errorf("ListNewer mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"droid", "kilo", "opencode"}, asked); diff != "" {
		t.Errorf("clients asked mismatch (-want +got):\n%s", diff)
	}
	if got := want[1].Target(); got != "kilo@>=7.7.2" {
		t.Errorf("Target = %q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ListNewer(ctx, pins, list); !errors.Is(err, context.Canceled) {
		t.Errorf("ListNewer after cancel = %v", err)
	}
}

// TestSummary: the job summary names each client's pin, its newer
// releases (the newest six, the rest counted) and its sweep target, and
// quotes npm's error escaped.
func TestSummary(t *testing.T) {
	var many []string
	for i := range 8 {
		many = append(many, fmt.Sprintf("2.%d.0", i))
	}
	ns := []Newer{
		{Client: "droid", Pin: "0.225.2", Err: errors.New("listing the versions of x: npm printed \"|<img src=x>\"")},
		{Client: "kilo", Pin: "7.7.7", Releases: []string{"7.7.8", "7.8.1"}},
		{Client: "qwen", Pin: "1.9.0", Releases: many},
	}
	var b strings.Builder
	if err := Summary(&b, ns, 10); err != nil {
		t.Fatal(err)
	}
	want := "### Client releases newer than their pins\n\n" +
		"| client | pin | newer releases | sweep |\n|---|---|---|---|\n" +
		"| droid | 0.225.2 | not listed: listing the versions of x: npm printed \"\\|\\<img src=x\\>\" | |\n" +
		"| kilo | 7.7.7 | 7.7.8, 7.8.1 | `kilo@>=7.7.7` |\n" +
		"| qwen | 1.9.0 | 2.2.0, 2.3.0, 2.4.0, 2.5.0, 2.6.0, 2.7.0 (and 2 older) | `qwen@>=1.9.0` |\n" +
		"\nThe sweep runs these releases; its merge job then bumps each pin to the newest release the atlas ran (TestPinsFollowTheAtlas -update) and opens a pull request.\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("Summary mismatch (-want +got):\n%s", diff)
	}
	b.Reset()
	if err := Summary(&b, nil, 10); err != nil {
		t.Fatal(err)
	}
	if want := "Every pin (10 clients, " + File + ") is its client's newest release.\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("Summary of nothing newer = %q", b.String())
	}
}
