package clients

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/version"
)

// registry is a fake registry's listing: each client's published
// versions, in npm's order, prereleases among them.
var registry = map[string][]string{
	"claude-code": {"2.1.332", "2.1.340", "2.1.341-beta.1", "2.1.39"},
	"codex":       {"0.171.0", "0.172.0-alpha.3", "0.172.0"},
}

func listFake(_ context.Context, name string) ([]string, error) {
	vs, ok := registry[name]
	if !ok {
		return nil, npm.ErrOffline
	}
	return vs, nil
}

// TestResolve: NAME@newest is the newest release the registry lists (not
// a prerelease, not the last listed, numeric order); NAME@pinned is the
// name alone (its pin); other specs pass through in order; what each
// newest resolved to is said.
func TestResolve(t *testing.T) {
	got, rs, err := Resolve(context.Background(), []string{"codex@newest", "gemini", "claude-code@newest", "qwen@pinned", "all", "codex@0.160.0"}, listFake)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"codex@0.172.0", "gemini", "claude-code@2.1.340", "qwen", "all", "codex@0.160.0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Resolve mismatch (-want +got):\n%s", diff)
	}
	wantRs := []Resolution{{"codex@newest", "0.172.0"}, {"claude-code@newest", "2.1.340"}}
	if diff := cmp.Diff(wantRs, rs); diff != "" {
		t.Errorf("resolutions mismatch (-want +got):\n%s", diff)
	}
	if s := rs[0].String(); s != "codex@newest is codex@0.172.0" {
		t.Errorf("Resolution.String() = %q", s)
	}
}

// TestResolveNewestAlone: newest alone is every pinned client at its
// newest release; the first whose versions cannot be listed stops it,
// named, with the registry's error.
func TestResolveNewestAlone(t *testing.T) {
	var asked atomic.Int32
	list := func(ctx context.Context, name string) ([]string, error) {
		asked.Add(1)
		return []string{"1.0.0", "1.2.0", "1.10.0-rc.1"}, nil
	}
	got, rs, err := Resolve(context.Background(), []string{"newest"}, list)
	if err != nil {
		t.Fatal(err)
	}
	ps := pinned()
	if len(got) != len(ps) || len(rs) != len(ps) || int(asked.Load()) != len(ps) {
		t.Fatalf("newest gave %d specs, %d resolutions, asked %d times; want %d each", len(got), len(rs), asked.Load(), len(ps))
	}
	for i, c := range ps {
		if want := c.Spec().Name + "@1.2.0"; got[i] != want {
			t.Errorf("newest[%d] = %s, want %s", i, got[i], want)
		}
	}
	_, _, err = Resolve(context.Background(), []string{"newest"}, listFake)
	if !errors.Is(err, npm.ErrOffline) || !strings.HasPrefix(err.Error(), "adk@newest: ") {
		t.Errorf("newest with a registry that lists two clients: %v, want adk@newest (the first by name): ... ErrOffline", err)
	}
}

// TestResolveErrors: an unknown client is refused before the registry is
// asked; a listing with no release names the client and the count.
func TestResolveErrors(t *testing.T) {
	var asked atomic.Int32
	list := func(ctx context.Context, name string) ([]string, error) {
		asked.Add(1)
		return []string{"0.1.0-beta.1", "0.1.0-beta.2"}, nil
	}
	if _, _, err := Resolve(context.Background(), []string{"nosuch@newest"}, list); err == nil || !strings.Contains(err.Error(), "unknown") || asked.Load() != 0 {
		t.Errorf("nosuch@newest: %v after %d listings, want unknown before any", err, asked.Load())
	}
	_, _, err := Resolve(context.Background(), []string{"codex@newest"}, list)
	if err == nil || err.Error() != "codex@newest: the registry lists 2 versions and no release" {
		t.Errorf("codex@newest with prereleases only: %v", err)
	}
}

// TestNewestFromNpm (INSTRLAB_E2E=1): codex@newest through the real npm
// registry is a release no older than the pin, the one version.Newest
// picks from what npm lists, and NewList says so on its progress.
func TestNewestFromNpm(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") == "" {
		t.Skip("set INSTRLAB_E2E=1 to ask the npm registry")
	}
	var progress strings.Builder
	cs, err := NewList(context.Background(), []string{"codex@newest"}, &progress)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := Versions(context.Background(), "codex")
	if err != nil {
		t.Fatal(err)
	}
	got := cs[0].Spec().Version
	if got != version.Newest(vs) || version.Compare(got, "0.171.0") < 0 || version.Prerelease(got) != "" {
		t.Errorf("codex@newest = %s, want version.Newest of npm's %d versions (%s), no older than the pin", got, len(vs), version.Newest(vs))
	}
	if !strings.Contains(progress.String(), "codex@newest is codex@"+got) {
		t.Errorf("progress %q does not say what newest resolved to", progress.String())
	}
}

// TestResolveStopsTheOthers: the first listing that fails cancels those
// still waiting (a registry out of reach would fail each after npm's
// retries), and its error, not a cancellation, is the one returned.
func TestResolveStopsTheOthers(t *testing.T) {
	list := func(ctx context.Context, name string) ([]string, error) {
		if name == "codex" {
			return nil, npm.ErrOffline
		}
		<-ctx.Done() // a registry that does not answer
		return nil, ctx.Err()
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := Resolve(context.Background(), []string{"claude-code@newest", "gemini@newest", "codex@newest"}, list)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, npm.ErrOffline) || !strings.HasPrefix(err.Error(), "codex@newest: ") {
			t.Errorf("Resolve: %v, want codex's ErrOffline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Resolve waited on the other listings after one failed")
	}
}
