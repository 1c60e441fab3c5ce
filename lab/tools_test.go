package lab

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolsAwaited holds the adding of the tools back: initialize is
// answered meanwhile, while tools/list and tools/call wait for the tools
// and then answer as usual.
func TestToolsAwaited(t *testing.T) {
	release := make(chan struct{})
	addLabTools = func(s *mcp.Server, desc string, meta map[string]any) {
		<-release
		addTools(s, desc, meta)
	}
	t.Cleanup(func() { addLabTools = addTools })
	p := startPipeServer(t, Config{})
	io.WriteString(p.in, initialize+"\n")
	if got := p.next(5 * time.Second); !strings.Contains(got, `"id":1,"result"`) {
		t.Fatalf("initialize while the tools are being added: got %q", got)
	}
	io.WriteString(p.in, initialized+"\n"+toolsList+"\n")
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lab_ping","arguments":{}}}`+"\n")
	if got := p.next(200 * time.Millisecond); got != "" {
		t.Fatalf("a reply before the tools were added: %q", got)
	}
	close(release)
	got := map[string]string{}
	for range 2 {
		line := p.next(5 * time.Second)
		switch {
		case strings.Contains(line, `"id":2`):
			got["list"] = line
		case strings.Contains(line, `"id":3`):
			got["call"] = line
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	for _, name := range []string{"lookup_part", "list_bins", "lab_ping"} {
		if !strings.Contains(got["list"], `"name":"`+name+`"`) {
			t.Errorf("tools/list lacks %s: %s", name, got["list"])
		}
	}
	if !strings.Contains(got["call"], `"reply":"pong"`) || strings.Contains(got["call"], `"isError":true`) {
		t.Errorf("tools/call lab_ping: %s", got["call"])
	}
}
