package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/netjail"
	"github.com/instrlab/instrlab/lab"
)

// directRun runs the row en-1000 once in the direct arm of a fake client
// that trusts the run's CA through trust (nil: it does not), with env.
func directRun(t *testing.T, trust []string, env map[string]string) (*Runner, error) {
	t.Helper()
	m := testMatrix(matrix.Row{Name: "en-1000", Label: "1,000", Args: lab.Args{Instr: "ascii:1000"}, Env: env})
	m.Repeats = 1
	c := fakeclient.Direct{Client: fakeClient("1", nil), Trust: trust}
	r := newRunner(t, m, c)
	arms, err := m.PickArms([]client.Client{c}, []string{client.DirectArmName})
	if err != nil {
		t.Fatal(err)
	}
	r.Arms, r.Netns = arms, true
	_, _, err = r.Run(context.Background())
	return r, err
}

// readResult reads the result.json of the run in dir.
func readResult(t *testing.T, dir evidence.RunDir) analyze.Result {
	t.Helper()
	b, err := os.ReadFile(dir.Result())
	if err != nil {
		t.Fatal(err)
	}
	var res analyze.Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRunnerDirect: in the direct arm the client is given no base URL; it
// posts to its vendor's host, which the jail resolves to the fake, over
// TLS with the run's CA, and every request is recorded with that host.
func TestRunnerDirect(t *testing.T) {
	if err := netjail.Supported(); err != nil {
		t.Skip(err)
	}
	r, err := directRun(t, []string{"SSL_CERT_FILE"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := evidence.OutDir(r.Out).Run(evidence.ArmClient("fake@1", client.DirectArmName, false), "en-1000", 1)
	res := readResult(t, dir)
	if res.Status != "ok" || res.First == nil || res.First.Best().Kept != 1000 {
		t.Fatalf("direct run: %s %q, first %+v", res.Status, res.Reason, res.First)
	}
	if res.Arm.How != "vendor host api.anthropic.com, no base URL" {
		t.Errorf("arm how %q", res.Arm.How)
	}
	rec, err := analyze.ReadRecord(string(dir))
	if err != nil {
		t.Fatal(err)
	}
	// The fake client's base URL is https://api.anthropic.com in this arm;
	// the trust variable is set, and only names are recorded.
	if !slices.Contains(rec.EnvKeys, "SSL_CERT_FILE") || !slices.IsSorted(rec.EnvKeys) || slices.ContainsFunc(rec.EnvKeys, func(k string) bool { return strings.Contains(k, "=") }) {
		t.Errorf("env keys %v: want sorted names with SSL_CERT_FILE", rec.EnvKeys)
	}
	reqs, _, err := fakeapi.ReadRequests(dir.Requests())
	if err != nil || len(reqs) != 1 || reqs[0].Host != fakeclient.DirectHost {
		t.Errorf("requests %+v, %v: want one, to %s", reqs, err, fakeclient.DirectHost)
	}
	hs, _, err := fakeapi.ReadHandshakes(dir.TLSLog())
	if err != nil || len(hs) == 0 || hs[0].SNI != fakeclient.DirectHost || hs[0].Error != "" {
		t.Errorf("handshakes %+v, %v", hs, err)
	}
	if b, err := os.ReadFile(dir.CA()); err != nil || strings.Contains(string(b), "PRIVATE KEY") || !strings.Contains(string(b), "BEGIN CERTIFICATE") {
		t.Errorf("the run's CA file: %v, want a certificate and no key:\n%s", err, b)
	}
}

// TestRunnerDirectFails: a client that refuses the run's certificate, and
// one that posts to a host the jail does not know, fail with the reason;
// the unknown host is named, and the request never reaches the fake.
func TestRunnerDirectFails(t *testing.T) {
	if err := netjail.Supported(); err != nil {
		t.Skip(err)
	}
	for _, tt := range []struct {
		name  string
		trust []string
		env   map[string]string
		want  string
	}{
		{"refused", nil, nil, "the client refused the run's certificate for api.anthropic.com (remote error: tls: bad certificate)"},
		{"unknown host", []string{"SSL_CERT_FILE"}, map[string]string{"FAKE_HOST": "api.unknown-vendor.example"},
			"it asked for names the jail does not know (answered no such host): api.unknown-vendor.example"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := directRun(t, tt.trust, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			dir := evidence.OutDir(r.Out).Run(evidence.ArmClient("fake@1", client.DirectArmName, false), "en-1000", 1)
			res := readResult(t, dir)
			if res.Status != "failed" || !strings.Contains(res.Reason, tt.want) {
				t.Errorf("status %s, reason %q; want failed, saying %q", res.Status, res.Reason, tt.want)
			}
			if len(res.Requests) != 0 {
				t.Errorf("%d model requests reached the fake", len(res.Requests))
			}
		})
	}
}

// TestRunnerDirectNotJailed: without the jail the direct arm is not run,
// and run says so; with nothing else to run, the run fails with
// ErrDirectNotRun.
func TestRunnerDirectNotJailed(t *testing.T) {
	m := testMatrix(matrix.Row{Name: "en-1000", Label: "1,000", Args: lab.Args{Instr: "ascii:1000"}})
	m.Repeats = 1
	c := fakeclient.Direct{Client: fakeClient("1", nil), Trust: []string{"SSL_CERT_FILE"}}
	for _, sel := range [][]string{{client.DirectArmName}, {"all"}} {
		r := newRunner(t, m, c)
		arms, err := m.PickArms([]client.Client{c}, sel)
		if err != nil {
			t.Fatal(err)
		}
		r.Arms = arms
		results, _, err := r.Run(context.Background())
		note := r.Progress.(*strings.Builder).String()
		if !strings.Contains(note, "run: the direct arm was not run for fake@1: it needs the network jail (") {
			t.Errorf("-arms %v: progress %q, want the note", sel, note)
		}
		var who []string
		for _, res := range results {
			who = append(who, res.Who())
		}
		switch sel[0] {
		case client.DirectArmName:
			if !errors.Is(err, ErrDirectNotRun) || len(results) != 0 {
				t.Errorf("-arms direct: %v, %v; want ErrDirectNotRun and no runs", err, who)
			}
		default:
			if diff := cmp.Diff([]string{"fake@1"}, who); err != nil || diff != "" {
				t.Errorf("-arms all: %v; runs mismatch (-want +got):\n%s", err, diff)
			}
		}
	}
}
