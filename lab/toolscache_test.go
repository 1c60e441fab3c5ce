package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestToolsListFastPath checks that the lab's tools/list reply, with schemas
// marshalled once, is byte for byte the SDK's, in every era and for both
// the legacy and the 2026-07-28 form of the request.
func TestToolsListFastPath(t *testing.T) {
	toolsList2 := strings.Replace(toolsListModern, `"id":2`, `"id":3`, 1)
	tests := []struct {
		era    Mode
		client []string
	}{
		{ModeLegacy, []string{initialize, initialized, toolsList, strings.Replace(toolsList, `"id":2`, `"id":3`, 1)}},
		{ModeBoth, []string{probe, toolsListModern, toolsList2}},
		{ModeBoth, []string{initialize, initialized, toolsList}},
		{ModeModern, []string{probe, toolsListModern, toolsList2}},
	}
	for _, tt := range tests {
		t.Run(string(tt.era), func(t *testing.T) {
			input := strings.Join(tt.client, "\n") + "\n"
			fast, l := serveLines(t, tt.era, input, true)
			sdk, _ := serveLines(t, tt.era, input, false)
			if diff := cmp.Diff(sdk, fast); diff != "" {
				t.Errorf("tools/list reply mismatch (-sdk +fast path):\n%s", diff)
			}
			lists := 0
			for _, line := range fast {
				if strings.Contains(line, `"tools":[`) {
					lists++
				}
			}
			if want := strings.Count(input, `"tools/list"`); lists != want {
				t.Errorf("got %d tools/list replies, want %d:\n%s", lists, want, strings.Join(fast, "\n"))
			}
			if n := len(l.tools.tools); n != 3 || len(l.tools.of) != 3 || l.tools.array == nil {
				t.Errorf("fast path cached %d tools and an array of %d, want 3 (was it used?)", n, len(l.tools.of))
			}
		})
	}
}

// serveLines serves input on a lab of the given era, with or without the
// tools/list fast path, and returns its output lines sorted (the SDK answers
// requests concurrently, so their order may vary).
func serveLines(t *testing.T, era Mode, input string, fast bool) ([]string, *Lab) {
	t.Helper()
	l, err := New(Config{Instructions: Instructions{Language: English, Length: 300}, Eras: era})
	if err != nil {
		t.Fatal(err)
	}
	if !fast {
		l.tools = nil
	}
	var out bytes.Buffer
	if err := l.ServeStdio(context.Background(), strings.NewReader(input), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	slices.Sort(lines)
	return lines, l
}

func TestToolsCacheSchemasAreRaw(t *testing.T) {
	l, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := l.ServeStdio(context.Background(), strings.NewReader(initialize+"\n"+initialized+"\n"+toolsList+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	for sdkTool, ct := range l.tools.tools {
		if _, ok := ct.InputSchema.(json.RawMessage); !ok {
			t.Errorf("%s: cached input schema is %T, want json.RawMessage", ct.Name, ct.InputSchema)
		}
		if _, ok := ct.OutputSchema.(json.RawMessage); !ok {
			t.Errorf("%s: cached output schema is %T, want json.RawMessage", ct.Name, ct.OutputSchema)
		}
		if _, ok := sdkTool.InputSchema.(json.RawMessage); ok {
			t.Errorf("%s: the SDK's own tool was changed", ct.Name)
		}
	}
}

const toolsListModern = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
