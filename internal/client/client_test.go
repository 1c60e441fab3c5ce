package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in      string
		want    Spec
		wantErr bool
	}{
		{"claude-code@2.1.328", Spec{"claude-code", "2.1.328"}, false},
		{"claude-code", Spec{"claude-code", ""}, false},
		{"codex@0.169.0-alpha.1", Spec{"codex", "0.169.0-alpha.1"}, false},
		{"@2.1.328", Spec{}, true},
		{"claude-code@", Spec{}, true},
		{"claude code", Spec{}, true},
	}
	for _, tt := range tests {
		got, err := ParseSpec(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseSpec(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseSpec(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestWriteConfig(t *testing.T) {
	dir := t.TempDir()
	r := &Run{Dir: dir, Home: filepath.Join(dir, "home")}
	if err := os.MkdirAll(r.ClientDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(r.Home, ".tool", "config.json")
	if err := r.WriteConfig(path, "config.json", []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, filepath.Join(r.ClientDir(), "config.json")} {
		if b, err := os.ReadFile(p); err != nil || string(b) != "{}\n" {
			t.Errorf("%s: %q, %v", p, b, err)
		}
	}
	// A file where the folder should be is an error naming the path.
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteConfig(filepath.Join(dir, "file", "x.json"), "x.json", nil); err == nil || !strings.Contains(err.Error(), "x.json") {
		t.Errorf("WriteConfig under a file: %v", err)
	}
}

func TestFloorRefusesOlderVersionsSayingWhy(t *testing.T) {
	f := Floor{Client: "qwen", Min: "0.5.0", Lack: "stream-json output", Evidence: "atlas/qwen@0.1.4"}
	for _, v := range []string{"0.5.0", "0.5.1", "1.0.0", "0.6.0-preview.1", "nightly"} {
		if err := f.Check(v); err != nil {
			t.Errorf("Check(%q) = %v, want nil", v, err)
		}
	}
	for _, v := range []string{"0.1.3", "0.4.99", "0.5.0-preview.2"} {
		err := f.Check(v)
		want := "qwen@" + v + " cannot be driven: versions before 0.5.0 have no stream-json output (atlas/qwen@0.1.4)"
		if err == nil || err.Error() != want {
			t.Errorf("Check(%q) = %v, want %q", v, err, want)
		}
	}
}

// TestStdioEntry: a stdio server's entry has its command, an empty args
// list when it has none (some clients refuse a missing one), and env only
// when it has one, beside what the client's own entry holds.
func TestStdioEntry(t *testing.T) {
	e := StdioEntry(map[string]any{"type": "stdio"}, Server{Name: "lab", Command: "/bin/lab"})
	b, err := EncodeConfig(e, "x")
	if err != nil || string(b) != "{\n  \"args\": [],\n  \"command\": \"/bin/lab\",\n  \"type\": \"stdio\"\n}\n" {
		t.Errorf("no args, no env: %q, %v", b, err)
	}
	e = StdioEntry(map[string]any{}, Server{Command: "node", Args: []string{"s.js"}, Env: map[string]string{"K": "v"}})
	if b, _ := EncodeConfig(e, "x"); !strings.Contains(string(b), `"args": [`+"\n    \"s.js\"") || !strings.Contains(string(b), `"K": "v"`) {
		t.Errorf("args and env: %s", b)
	}
	if _, err := EncodeConfig(map[string]any{"c": make(chan int)}, "cline mcp settings"); err == nil || !strings.Contains(err.Error(), "encoding cline mcp settings") {
		t.Errorf("an unencodable config: %v", err)
	}
}
