package runner

import (
	"context"
	"fmt"
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

// tlsAddr is where, inside the jail, a client reaches its vendor's host
// (resolved to 127.0.0.1) in the direct arm: the HTTPS port.
const tlsAddr = "127.0.0.1:443"

// jail makes c run in a loopback-only network namespace that reaches the
// fake through a Unix socket, with a logging resolver. The socket lives in
// a short temporary directory (socket paths are limited to about 100
// bytes); cleanup removes it. In the direct arm the client is given no
// base URL: its vendor's hosts resolve to the fake, which serves them over
// TLS with a certificate authority made for this run (its certificate in
// the run's evidence, for the client to trust; its keys in memory only).
func (r *Runner) jail(c client.Client, fake *fakeapi.Server, run *client.Run) (client.Client, func(), error) {
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
	files := evidence.RunDir(run.Dir)
	jd := files.Jail()
	if err := os.MkdirAll(jd, 0o755); err != nil {
		cleanup()
		return nil, nil, err
	}
	o := netjail.Options{Self: r.Lab, Forwards: []netjail.Forward{{Addr: strings.TrimPrefix(fake.URL, "http://"), Socket: sock}},
		Log: files.DNSLog(), Dir: jd}
	if run.Arm.Direct {
		if err := direct(c, fake, run, filepath.Join(tmp, "tls.sock"), &o); err != nil {
			cleanup()
			return nil, nil, err
		}
	}
	return jailed{Client: c, opts: o}, cleanup, nil
}

// direct sets a jailed run up for the direct arm: the run's CA, the fake
// over TLS on sock, reached at the vendor's hosts.
func direct(c client.Client, fake *fakeapi.Server, run *client.Run, sock string, o *netjail.Options) error {
	arm, ok := client.DirectArm(c)
	if !ok {
		return fmt.Errorf("%s cannot run in the direct arm", c.Spec())
	}
	ca, err := netjail.NewCA(arm.Hosts)
	if err != nil {
		return err
	}
	caFile := evidence.RunDir(run.Dir).CA()
	if err := os.WriteFile(caFile, ca.PEM(), 0o644); err != nil {
		return fmt.Errorf("writing the run's CA: %w", err)
	}
	var answers []fakeapi.VendorAnswer
	for _, a := range arm.Answers {
		answers = append(answers, fakeapi.VendorAnswer{Host: a.Host, Method: a.Method, Path: a.Path, Body: []byte(a.Body), What: a.What})
	}
	fake.SetVendorAnswers(answers)
	if err := fake.ServeTLS(sock, ca.ServerConfig()); err != nil {
		return err
	}
	o.Forwards = append(o.Forwards, netjail.Forward{Addr: tlsAddr, Socket: sock})
	o.Hosts = arm.Hosts
	run.APIURL, run.Trust = "", client.TrustEnv(c, caFile)
	return nil
}
