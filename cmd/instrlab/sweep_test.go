package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestSweepUsageErrors(t *testing.T) {
	out := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "-out", out}, "-client is required"},
		{[]string{"sweep", "-client", "fake@all"}, "-out is required"},
		{[]string{"sweep", "-client", "nosuch@all", "-out", out}, "unknown"},
		{[]string{"sweep", "-client", "fake@2.0..1.0", "-out", out}, "is not a version"},
		{[]string{"sweep", "-client", "fake@all", "-out", out, "-shard", "3/2"}, "k must be from 1 to n"},
		{[]string{"sweep", "-client", "fake@all", "-out", out, "-cache-limit", "lots"}, "-cache-limit"},
		{[]string{"sweep", "-client", "fake@all", "-out", out, "-format", "csv"}, "want md or json"},
		{[]string{"sweep", "-client", "fake@all", "-out", out, "-grid", "-1"}, "-grid"},
		{[]string{"sweep", "-client", "fake@all", "-out", out, "-repeat-sensitive", "-2"}, "-repeat-sensitive must not be negative"},
		{[]string{"sweep", "-client", "fake@all", "-out", out, "-budget", "patience"}, `-budget "patience"`},
	} {
		var stderr bytes.Buffer
		err := run(context.Background(), tt.args, new(bytes.Buffer), &stderr)
		if code := exitCode(err, new(bytes.Buffer)); code != exitUsage || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: exit %d, %v; want exit %d saying %q", tt.args[1:], code, err, exitUsage, tt.want)
		}
	}
}
