package npm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"sync"
	"time"
)

// ErrOffline reports that npm could not reach its registry: no route, no
// name resolution, or a registry that refused or dropped the connection.
var ErrOffline = errors.New("npm cannot reach its registry")

// ErrNoPackage reports that the registry serves no package of that name.
var ErrNoPackage = errors.New("npm serves no such package")

// ErrNoPublishRecord reports a registry whose "time" of a package is not
// npm's record of when each version was published: it lacks the
// "created" time that npm's registry always gives. The registry this
// project is built beside is such a one: its times contradict the
// version order (Claude Code 0.2.9 "published" 2026-07-23, 0.2.14
// 2026-05-15; 116 of 473 versions dated before the one they follow), so
// they say when it fetched a version, not when the version came out.
var ErrNoPublishRecord = errors.New(`the registry gives no "created" time: its times are not npm's record of when each version was published`)

// ViewTimeout bounds one npm view whose context has no deadline of its own:
// offline, npm retries its registry for about a minute before it gives up.
const ViewTimeout = 3 * time.Minute

// maxView bounds what is read of one npm view answer: the version list of
// the client with the longest history here (Claude Code, 473 versions) is
// under 10 KB.
const maxView = 4 << 20

// offlineCodes are the error codes npm gives when its registry cannot be
// reached, as npm 11 prints them ("npm error code ENOTFOUND").
var offlineCodes = []string{"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH", "EHOSTUNREACH", "ENETDOWN"}

// Versions lists the versions npm serves of package name, in npm's order
// (npm view NAME versions --json), within ViewTimeout unless ctx says
// otherwise. Its errors are ErrNoNPM, ErrNoPackage and ErrOffline where
// they apply.
func Versions(ctx context.Context, name string) ([]string, error) {
	stdout, stderr, runErr, err := view(ctx, name, "versions", "listing the versions of")
	if err != nil {
		return nil, err
	}
	return ParseVersions(name, stdout, stderr, runErr)
}

// Released is the day npm says each version of package name was published
// (npm view NAME time --json), as YYYY-MM-DD in UTC, within ViewTimeout
// unless ctx says otherwise; its errors are those of Versions.
func Released(ctx context.Context, name string) (map[string]string, error) {
	stdout, stderr, runErr, err := view(ctx, name, "time", "listing the release dates of")
	if err != nil {
		return nil, err
	}
	return ParseReleased(name, stdout, stderr, runErr)
}

// view runs npm view NAME FIELD --json, its answer read within maxView;
// doing names the listing in its errors.
func view(ctx context.Context, name, field, doing string) (stdout, stderr []byte, runErr, err error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s %s: %w", doing, name, ErrNoNPM)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, ViewTimeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, npm, "view", name, field, "--json")
	out, errOut := &capped{max: maxView}, &capped{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, errOut
	cmd.WaitDelay = 2 * time.Second // npm's children may hold the pipes after it is killed
	runErr = cmd.Run()
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, fmt.Errorf("%s %s: npm gave no answer in time (is its registry reachable?): %w", doing, name, err)
	}
	if out.over {
		return nil, nil, nil, fmt.Errorf("%s %s: npm printed more than %d MiB", doing, name, maxView>>20)
	}
	return out.b, errOut.b, runErr, nil
}

var codeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^npm (?:error|ERR!) code (\S+)`)
})

// ParseVersions reads what npm view NAME versions --json printed (stdout,
// stderr) and how it exited (runErr): the list of versions, or the reason
// there is none. npm prints a package of one version as a string, and a
// failure as a JSON error object on stdout and "npm error code CODE" on
// stderr.
func ParseVersions(name string, stdout, stderr []byte, runErr error) ([]string, error) {
	if runErr != nil {
		return nil, viewFailed("listing the versions of "+name, stdout, stderr, runErr)
	}
	var vs []string
	if err := json.Unmarshal(stdout, &vs); err != nil {
		var one string // a package with one version prints a string
		if json.Unmarshal(stdout, &one) != nil {
			return nil, fmt.Errorf("listing the versions of %s: npm printed %q", name, lastLines(string(stdout), 3))
		}
		vs = []string{one}
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("listing the versions of %s: npm listed none", name)
	}
	return vs, nil
}

// ParseReleased reads what npm view NAME time --json printed: an object
// of each version's publish time, with the package's "created" and
// "modified", which are not versions. An answer without "created" is not
// npm's publish record (ErrNoPublishRecord), and a time that is not RFC
// 3339 an error that quotes it.
func ParseReleased(name string, stdout, stderr []byte, runErr error) (map[string]string, error) {
	if runErr != nil {
		return nil, viewFailed("listing the release dates of "+name, stdout, stderr, runErr)
	}
	var times map[string]string
	if err := json.Unmarshal(stdout, &times); err != nil || times == nil {
		return nil, fmt.Errorf("listing the release dates of %s: npm printed %q", name, lastLines(string(stdout), 3))
	}
	if _, ok := times["created"]; !ok {
		return nil, fmt.Errorf("listing the release dates of %s: %w", name, ErrNoPublishRecord)
	}
	out := make(map[string]string, len(times))
	for v, at := range times {
		if v == "created" || v == "modified" {
			continue
		}
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			return nil, fmt.Errorf("listing the release dates of %s: npm gave %s the time %q", name, v, at)
		}
		out[v] = t.UTC().Format(time.DateOnly)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("listing the release dates of %s: npm listed none", name)
	}
	return out, nil
}

// viewFailed is why npm view failed, doing what: ErrNoPackage or
// ErrOffline where npm's error code says so, else npm's last lines.
func viewFailed(doing string, stdout, stderr []byte, runErr error) error {
	var e struct {
		Error struct{ Code, Summary string } `json:"error"`
	}
	code := ""
	if json.Unmarshal(stdout, &e) == nil {
		code = e.Error.Code
	}
	if m := codeRE().FindSubmatch(stderr); code == "" && m != nil {
		code = string(m[1])
	}
	switch {
	case code == "E404":
		return fmt.Errorf("%s: %w", doing, ErrNoPackage)
	case slices.Contains(offlineCodes, code):
		return fmt.Errorf("%s: %w (%s)", doing, ErrOffline, code)
	}
	return fmt.Errorf("%s with npm: %w\n%s", doing, runErr, lastLines(string(stderr), 5))
}

// capped keeps the first max bytes written to it and then fails, noting
// that it did, so that a process writing without end is read within a
// bound: os/exec closes the pipe on the failed write, and the process gets
// EPIPE (or SIGPIPE) on its next one.
type capped struct {
	b    []byte
	max  int
	over bool
}

var errCapped = errors.New("output over its bound")

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - len(c.b); len(p) > room {
		c.b = append(c.b, p[:max(room, 0)]...)
		c.over = true
		return max(room, 0), errCapped
	}
	c.b = append(c.b, p...)
	return len(p), nil
}
