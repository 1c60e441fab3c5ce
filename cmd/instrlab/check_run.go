package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/instrlab/instrlab/schema"
	"io"
	"strings"
	"sync"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/redact"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// maxParallel bounds the servers checked at once; each runs its two eras
// at once, so twice as many processes.
const maxParallel = 4

// probeAll checks the targets concurrently, at most maxParallel at once,
// and returns their results in order, as measured: the report is redacted
// when it is printed (assess.Report.Redacted). A progress line for each
// goes to stderr, redacted and escaped.
func probeAll(ctx context.Context, ts []probe.Target, o probe.Options, stderr io.Writer) []probe.Result {
	results := make([]probe.Result, len(ts))
	sem := make(chan struct{}, maxParallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, t := range ts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			shown := t.Redacted(t.Redactor())
			mu.Lock()
			fmt.Fprintf(stderr, "instrlab: checking %s (%s)\n", untrusted.EscapeLine(shown.Name), untrusted.EscapeLine(shown.String()))
			if t.NameFrom != "" {
				fmt.Fprintf(stderr, "instrlab: %s is named after %s; -name names it otherwise\n", untrusted.EscapeLine(shown.Name), untrusted.EscapeLine(t.NameFrom))
			}
			mu.Unlock()
			results[i] = probeServer(ctx, t, o)
		}()
	}
	wg.Wait()
	return results
}

// jsonFlag reports whether args ask for JSON, for errors found before the
// flags could be parsed.
func jsonFlag(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-json", "--json", "-json=true", "--json=true", "-json=1", "--json=1":
			return true
		}
	}
	return false
}

// writeJSONError prints the error object check's -json gives instead of a
// report: {"$schema": schema.Check, "error": {"exit_code": 2, "kind":
// "usage", "message": "..."}}.
func writeJSONError(w io.Writer, code int, err error) {
	kind := map[int]string{exitUsage: "usage", exitFailure: "failure", exitNoConnect: "unreachable"}[code]
	data, _ := json.MarshalIndent(map[string]any{"$schema": schema.Check, "error": map[string]any{
		"exit_code": code, "kind": kind, "message": err.Error(),
	}}, "", "  ")
	w.Write(append(data, '\n'))
}

// cleanError returns err with its message redacted and escaped for a
// terminal, keeping what exitCode reads of it.
func cleanError(err error) error {
	clean := func(s string) string { return untrusted.EscapeLine(redact.String(s)) }
	var ue usageError
	var ee exitError
	switch {
	case errors.As(err, &ue):
		return usageError{Msg: clean(ue.Msg)}
	case errors.As(err, &ee):
		return exitError{ee.code, errors.New(clean(ee.err.Error()))}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	msg := clean(err.Error())
	if msg == err.Error() {
		return err
	}
	return errors.New(strings.TrimSpace(msg))
}
