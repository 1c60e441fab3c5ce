package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/lab"
)

// texts are the texts of a lab of the instructions instr in era, for the
// tests that check what reached a client or a model.
func texts(t *testing.T, instr, era string) (initialize, discover lab.Text) {
	in, err := lab.ParseInstructions(instr)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lab.New(lab.Config{Instructions: in, Eras: lab.Mode(era)})
	if err != nil {
		t.Fatal(err)
	}
	return l.Texts()
}

// initLine is a client's initialize request, as a line of stdio.
const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestServeLabUsageErrors: every mistake on the command line of instrlab
// serve lab, as a user or a client's config types it, is a usage error of
// instrlab (exit 2) that names it. The lab's transports, its log and -print
// are tested beside their code, in lab and internal/serve.
func TestServeLabUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "lab", "-instr", "ascii:10"}, "two codeword sentences"},
		{[]string{"serve", "lab", "-instr", "klingon:100"}, "want none or KIND:N, KIND one of ascii, japanese, emoji, cjkb, combining or lines"},
		{[]string{"serve", "lab", "-eras", "future"}, "unknown eras"},
		{[]string{"serve", "lab", "-on-unknown", "explode"}, "unknown -on-unknown"},
		{[]string{"serve", "lab", "-instr", "none", "-instr-file", "x"}, "exclusive"},
		{[]string{"serve", "lab", "-nope"}, "flag provided but not defined"},
		{[]string{"serve", "lab", "extra"}, "unexpected argument"},
		{[]string{"serve", "other"}, "unknown server"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"serve", "lab", "-instr-file", "/does/not/exist"}, "no such file"},
		{[]string{"serve", "lab", "-http", "0.0.0.0:0"}, "add -allow-remote"},
		{[]string{"serve", "lab", "-http", "[::]:0"}, "add -allow-remote"},
		{[]string{"serve", "lab", "-http", "example.com:0"}, "add -allow-remote"},
		{[]string{"serve", "lab", "-http", "nocolon"}, "not a loopback address"},
		{[]string{"serve", "lab", "-allow-remote"}, "-http only"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), tc.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error()+stderr.String(), tc.want) {
			t.Errorf("run(%q) = %v (stderr %q), want an error containing %q", tc.args, err, stderr.String(), tc.want)
			continue
		}
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("run(%q): %v is not a usage error (exit 2)", tc.args, err)
		}
	}
}
