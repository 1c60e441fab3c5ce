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
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, fmt.Errorf("listing the versions of %s: %w", name, ErrNoNPM)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, ViewTimeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, npm, "view", name, "versions", "--json")
	stdout, stderr := &capped{max: maxView}, &capped{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 2 * time.Second // npm's children may hold the pipes after it is killed
	runErr := cmd.Run()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("listing the versions of %s: npm gave no answer in time (is its registry reachable?): %w", name, err)
	}
	if stdout.over {
		return nil, fmt.Errorf("listing the versions of %s: npm printed more than %d MiB", name, maxView>>20)
	}
	return ParseVersions(name, stdout.b, stderr.b, runErr)
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
			return nil, fmt.Errorf("listing the versions of %s: %w", name, ErrNoPackage)
		case slices.Contains(offlineCodes, code):
			return nil, fmt.Errorf("listing the versions of %s: %w (%s)", name, ErrOffline, code)
		}
		return nil, fmt.Errorf("listing the versions of %s with npm: %w\n%s", name, runErr, lastLines(string(stderr), 5))
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
