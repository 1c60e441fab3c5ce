package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
)

// stub is a client whose Provision records its name and fails if told to.
type stub struct {
	client.Client
	name string
	err  error
	log  *[]string
}

func (s stub) Provision(ctx context.Context, progress io.Writer) error {
	*s.log = append(*s.log, s.name)
	return s.err
}

// TestProvisionTriesEveryClient: every client is provisioned in order, a
// failure (an unknown name, a failed install) does not stop the others,
// and the error names each failure.
func TestProvisionTriesEveryClient(t *testing.T) {
	var log []string
	newClient := func(spec string) (client.Client, error) {
		switch spec {
		case "unknown":
			return nil, fmt.Errorf("client %q: unknown", spec)
		case "broken":
			return stub{name: spec, err: errors.New("npm failed"), log: &log}, nil
		}
		return stub{name: spec, log: &log}, nil
	}
	var progress strings.Builder
	err := provision(context.Background(), []string{"a", "unknown", "broken", "b"}, newClient, &progress)
	if diff := cmp.Diff([]string{"a", "broken", "b"}, log); diff != "" {
		t.Errorf("provisioned mismatch (-want +got):\n%s", diff)
	}
	if err == nil || !strings.Contains(err.Error(), "2 of 4") || !strings.Contains(err.Error(), `unknown: client "unknown": unknown`) || !strings.Contains(err.Error(), "broken: npm failed") {
		t.Errorf("error %v, want both failures named", err)
	}
	if !strings.Contains(progress.String(), "a ready") || !strings.Contains(progress.String(), "b ready") || strings.Contains(progress.String(), "broken ready") {
		t.Errorf("progress %q", progress.String())
	}
	if err := provision(context.Background(), []string{"a"}, newClient, io.Discard); err != nil {
		t.Errorf("one good client: %v", err)
	}
}
