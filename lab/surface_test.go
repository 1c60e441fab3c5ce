package lab

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/labvocab"
)

func TestParseSurface(t *testing.T) {
	tests := []struct {
		in      string
		want    []SurfaceGroup
		wantErr string
	}{
		{"", nil, ""},
		{"hang,results", []SurfaceGroup{SurfaceResults, SurfaceHang}, ""},
		{"names, names", []SurfaceGroup{SurfaceNames}, ""},
		{"all", []SurfaceGroup{SurfaceResults, SurfaceSize, SurfaceSchemas, SurfaceNames, SurfaceTwin, SurfaceMeta, SurfacePrompts, SurfaceBad}, ""},
		{"all,hang,reserved,protocol", SurfaceGroups, ""},
		{"all,reserved", []SurfaceGroup{SurfaceResults, SurfaceSize, SurfaceSchemas, SurfaceNames, SurfaceReserved, SurfaceTwin, SurfaceMeta, SurfacePrompts, SurfaceBad}, ""},
		{"results,nope", nil, `unknown surface group "nope"`},
	}
	for _, tt := range tests {
		got, err := ParseSurface(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseSurface(%q) = %v, want error %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSurface(%q): %v", tt.in, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseSurface(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
	if _, err := (Args{Surface: "bogus"}).Config(); err == nil || !strings.HasPrefix(err.Error(), "-surface: ") {
		t.Errorf("Config with a bad -surface: %v", err)
	}
	if _, err := (Args{Surface: "size", ResultSize: "none"}).Config(); err == nil || !strings.HasPrefix(err.Error(), "-result-size: ") {
		t.Errorf("Config with -result-size none: %v", err)
	}
}

// surfaceLab starts a lab of every surface group (hang and protocol too) with a short
// result size, handshaken, logging to a file it returns the path of.
func surfaceLab(t *testing.T) (*pipeServer, string) {
	t.Helper()
	p, path, got := loggedLab(t, Args{Instr: "none", Surface: "all,hang,reserved,protocol", ResultSize: "ascii:2000", Seed: "s1"})
	if !strings.Contains(got, `"prompts":{}`) || !strings.Contains(got, `"resources":{"subscribe":true}`) {
		t.Fatalf("initialize of a lab with prompts: %s", got)
	}
	return p, path
}

// loggedLab starts the lab of a over a pipe, logging to a file (its
// path), and initializes it: the initialize result is its third value.
func loggedLab(t *testing.T, a Args) (*pipeServer, string, string) {
	t.Helper()
	cfg, err := a.Config()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lab.jsonl")
	if cfg.Log, err = OpenMessageLog(path); err != nil {
		t.Fatal(err)
	}
	p := startPipeServer(t, cfg)
	io.WriteString(p.in, initialize+"\n"+initialized+"\n")
	return p, path, p.next(5 * time.Second)
}

// TestSurfaceToolsList: tools/list of every group is the snapshot in
// testdata/surface-tools.json (go test ./lab -run SurfaceToolsList
// -update rewrites it), and every surface tool is listed.
func TestSurfaceToolsList(t *testing.T) {
	p, _ := surfaceLab(t)
	io.WriteString(p.in, toolsList+"\n")
	line := p.next(5 * time.Second)
	var reply struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &reply); err != nil {
		t.Fatalf("tools/list: %v: %.200s", err, line)
	}
	var snap bytes.Buffer
	for _, tool := range reply.Result.Tools {
		var b bytes.Buffer
		json.Indent(&b, tool, "", "  ")
		snap.Write(b.Bytes())
		snap.WriteByte('\n')
	}
	golden := filepath.Join("testdata", "surface-tools.json")
	if *update {
		if err := os.WriteFile(golden, snap.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), snap.String()); diff != "" {
		t.Errorf("tools/list mismatch (-want +got):\n%s", diff)
	}
	cfg := SurfaceConfig{Groups: SurfaceGroups, Seed: "s1", ResultSize: Instructions{Language: English, Length: 2000}}
	tools, err := cfg.Tools()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range tools {
		name, _ := json.Marshal(st.Tool.Name)
		if !strings.Contains(snap.String(), `"name": `+string(name)) {
			t.Errorf("tools/list lacks %s", st.Tool.Name)
		}
		if !strings.Contains(st.Tool.Description, st.Key) {
			t.Errorf("%s: description %q lacks its key %s", st.Tool.Name, st.Tool.Description, st.Key)
		}
	}
	if len(labvocab.NameLong) != 60 || len(labvocab.NameMax) != 128 {
		t.Errorf("labvocab.NameLong is %d bytes, labvocab.NameMax %d: want 60 and 128", len(labvocab.NameLong), len(labvocab.NameMax))
	}
}

// TestSurfaceCalls: each result tool answers with its codeword in the part
// it is about, the raw tools with what the SDK's types cannot say, and
// the message log keeps each call and its reply whole.
func TestSurfaceCalls(t *testing.T) {
	p, path := surfaceLab(t)
	code := func(item, part string) string { return SurfaceCodeword("s1", item, part) }
	png := base64.StdEncoding.EncodeToString(surfacePNG("s1", "result_image"))
	tests := []struct {
		tool string
		want []string // substrings of the reply line
	}{
		{"result_text", []string{`"content":[{"type":"text","text":"result_text content text codeword: ` + code("result_text", "content text") + `."}]`}},
		{"result_structured", []string{`"content":[]`, `"structuredContent":{"note":"result_structured structuredContent codeword: ` + code("result_structured", "structuredContent")}},
		{"result_both", []string{code("result_both", "content text"), `"structuredContent":{"note":"result_both structuredContent`}},
		{"result_error", []string{`"isError":true`, code("result_error", "error text")}},
		{"result_image", []string{`"type":"image"`, `"mimeType":"image/png"`, `"data":"` + png + `"`}},
		{"result_link", []string{`"type":"resource_link"`, `"uri":"lab://surface/link/` + code("result_link", "uri")}},
		{"result_resource", []string{`"type":"resource"`, code("result_resource", "embedded resource text")}},
		{"result_meta", []string{`"_meta":{"lab/note":"result_meta _meta codeword: ` + code("result_meta", "_meta")}},
		{"result_audience", []string{`"audience":["user"]`, `"audience":["assistant"]`}},
		{"result_outschema", []string{code("result_outschema", "structuredContent")}},
		{"result_size", []string{"BEGIN codeword: ", "[at 2", "END codeword: "}},
		{"bad_no_content", []string{`"result":{"structuredContent":{"note":"bad_no_content structuredContent`}},
		{"bad_content_type", []string{`"result":{"content":"bad_content_type content string codeword: `}},
		{"bad_structured", []string{`"structuredContent":{"count":"bad_structured structuredContent`}},
		{"bad_protocol_error", []string{`"error":{"code":-32603,"message":"bad_protocol_error error message codeword: ` + code("bad_protocol_error", "error message")}},
		{labvocab.NameUnicode, []string{code(labvocab.NameUnicode, "content text")}},
		{labvocab.NameMax, []string{code(labvocab.NameMax, "content text")}},
	}
	for i, tt := range tests {
		name, _ := json.Marshal(tt.tool)
		fmt.Fprintf(p.in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%s,"arguments":{}}}`+"\n", 10+i, name)
		got := p.next(5 * time.Second)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: reply lacks %s:\n%.400s", tt.tool, w, got)
			}
		}
	}
	// bad_hang never answers; a ping after it still does.
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":90,"method":"tools/call","params":{"name":"bad_hang","arguments":{}}}`+"\n"+`{"jsonrpc":"2.0","id":91,"method":"ping"}`+"\n")
	if got := p.next(5 * time.Second); !strings.Contains(got, `"id":91`) {
		t.Errorf("after bad_hang, got %q, want the ping's reply", got)
	}
	if got := p.next(300 * time.Millisecond); got != "" {
		t.Errorf("bad_hang answered: %.200s", got)
	}
	// bad_huge: 10 MiB of text, answered whole, and not kept in the log.
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":92,"method":"tools/call","params":{"name":"bad_huge","arguments":{}}}`+"\n")
	if got := p.next(20 * time.Second); len(got) < hugeResultChars || !strings.Contains(got, `"id":92`) {
		t.Errorf("bad_huge: a reply of %d bytes, want more than %d", len(got), hugeResultChars)
	}
	p.in.Close()
	p.cancel()
	p.done <- <-p.done // the cleanup waits for it too
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string]int{}
	var huge Entry
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatal(err)
		}
		if e.Method == "tools/call" && len(e.Body) > 0 {
			kept[e.Dir+" "+e.Kind]++
		}
		if e.Method == "tools/call" && e.Dir == Send && e.Bytes > hugeResultChars {
			huge = e
		}
	}
	// Every call is kept; every reply but bad_huge's (over maxKeptBody),
	// bad_protocol_error's being an error.
	if want := (map[string]int{"recv request": len(tests) + 2, "send response": len(tests) - 1, "send error": 1}); !cmp.Equal(want, kept) {
		t.Errorf("kept tools/call bodies: %v, want %v", kept, want)
	}
	if huge.Bytes == 0 || huge.Body != nil {
		t.Errorf("bad_huge's reply in the log: %d bytes, body kept %v", huge.Bytes, huge.Body != nil)
	}
}

// TestSurfacePrompts: with the prompts group the lab lists its prompt,
// resource and template with their codewords; without it, -32601.
func TestSurfacePrompts(t *testing.T) {
	p, _ := surfaceLab(t)
	for i, m := range []string{"prompts/list", "resources/list", "resources/templates/list"} {
		fmt.Fprintf(p.in, `{"jsonrpc":"2.0","id":%d,"method":%q}`+"\n", 20+i, m)
	}
	fmt.Fprintf(p.in, `{"jsonrpc":"2.0","id":30,"method":"resources/read","params":{"uri":%q}}`+"\n", labvocab.SurfaceResourceURI)
	var replies string // the SDK answers in any order
	for range 4 {
		replies += p.next(5*time.Second) + "\n"
	}
	for _, w := range []string{
		`"id":20,"result":{"ttlMs":0,"cacheScope":"public","prompts":[{"arguments":[{"name":"part","description":"lab_prompt argument description codeword: ` + SurfaceCodeword("s1", labvocab.SurfacePrompt, "argument description"),
		SurfaceCodeword("s1", labvocab.SurfacePrompt, "description"),
		`"id":21,"result":{"ttlMs":0,"cacheScope":"public","resources":[{"description":"protocol_status description codeword: ` + SurfaceCodeword("s1", labvocab.ProtocolResource, "description"),
		`{"description":"lab_readme description codeword: ` + SurfaceCodeword("s1", "lab_readme", "description"),
		`"id":22,"result":{"ttlMs":0,"cacheScope":"public","resourceTemplates":[{"description":"lab_part description codeword: ` + SurfaceCodeword("s1", "lab_part", "description"),
		`"id":30,"result":{"ttlMs":0,"cacheScope":"public","contents":[{"uri":"lab://surface/readme","mimeType":"text/plain","text":"lab_readme text codeword: ` + SurfaceCodeword("s1", "lab_readme", "text"),
	} {
		if !strings.Contains(replies, w) {
			t.Errorf("replies lack %s:\n%s", w, replies)
		}
	}
	plain := startPipeServer(t, Config{})
	io.WriteString(plain.in, initialize+"\n"+initialized+"\n"+`{"jsonrpc":"2.0","id":2,"method":"prompts/list"}`+"\n")
	plain.next(5 * time.Second)
	if got := plain.next(5 * time.Second); !strings.Contains(got, `"code":-32601`) {
		t.Errorf("prompts/list of a lab without prompts: %s", got)
	}
}

// TestHangFor: with -hang-for, bad_hang answers after that long with its
// own codeword; a call the client cancels first gets no answer, and the
// log keeps the cancel whole (its requestId and reason).
func TestHangFor(t *testing.T) {
	p, path, _ := loggedLab(t, Args{Instr: "none", Surface: "hang", Seed: "s1", HangFor: 300 * time.Millisecond})
	start := time.Now()
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"bad_hang","arguments":{}}}`+"\n")
	got := p.next(5 * time.Second)
	if took := time.Since(start); !strings.Contains(got, `"id":7`) || !strings.Contains(got, SurfaceCodeword("s1", HangTool, "result")) || took < 300*time.Millisecond {
		t.Errorf("bad_hang with -hang-for 300ms: after %s got %.300s, want its result with its codeword after 300ms", took, got)
	}
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"bad_hang","arguments":{}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8,"reason":"timed out"}}`+"\n")
	// The go-sdk answers a cancelled call with an error (code 0,
	// "context canceled"), never with the tool's result.
	if got := p.next(time.Second); strings.Contains(got, `"result"`) {
		t.Errorf("a cancelled bad_hang answered with a result: %.300s", got)
	}
	p.in.Close()
	p.cancel()
	p.done <- <-p.done
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"body":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8,"reason":"timed out"}}`) {
		t.Errorf("the log keeps no cancel whole:\n%s", data)
	}
	if _, err := (Args{Surface: "hang", HangFor: -time.Second}).Config(); err == nil {
		t.Error("a negative -hang-for: no error")
	}
}
