package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/netjail"
)

// jailed is a client whose command runs in a netjail.
type jailed struct {
	client.Client
	opts netjail.Options
}

// Command implements client.Client.
func (j jailed) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	cmd, err := j.Client.Command(ctx, r)
	if err != nil {
		return nil, err
	}
	return netjail.Wrap(ctx, cmd, j.opts)
}

// jail makes c run in a loopback-only network namespace that reaches the
// fake through a Unix socket, with a logging resolver. The socket lives in
// a short temporary directory (socket paths are limited to about 100
// bytes); cleanup removes it.
func (r *Runner) jail(c client.Client, fake *fakeapi.Server, dir string) (client.Client, func(), error) {
	tmp, err := TempDir(TempJail)
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	sock := filepath.Join(tmp, "api.sock")
	if err := fake.ServeUnix(sock); err != nil {
		cleanup()
		return nil, nil, err
	}
	files := evidence.RunDir(dir)
	jd := files.Jail()
	if err := os.MkdirAll(jd, 0o755); err != nil {
		cleanup()
		return nil, nil, err
	}
	o := netjail.Options{Self: r.Lab, API: strings.TrimPrefix(fake.URL, "http://"), Socket: sock,
		Log: files.DNSLog(), Dir: jd}
	return jailed{Client: c, opts: o}, cleanup, nil
}
