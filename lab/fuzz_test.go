package lab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

var fuzzSeeds = []string{
	probe, initialize, initialized, toolsList,
	"{not json", "[]", "[1]", "42", "null", "  ", "\xff\xfe", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":"r","result":{}}`, `{"jsonrpc":"2.0","id":{},"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
}

// FuzzClassify checks the invariants of classify on any line.
func FuzzClassify(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m := classify(line)
		switch m.kind {
		case KindEmpty:
			if len(bytes.TrimSpace(line)) != 0 {
				t.Fatalf("non-blank line %q classified empty", line)
			}
		case KindInvalid:
			if m.code != -32700 && m.code != -32600 {
				t.Fatalf("invalid line answered with code %d", m.code)
			}
			if !json.Valid(m.replyID) || !validID(m.replyID) {
				t.Fatalf("reply id %q is not a valid id", m.replyID)
			}
		case KindRequest:
			if m.method == "" || m.id == nil || string(m.id) == "null" || !validID(m.id) {
				t.Fatalf("request with method %q id %q", m.method, m.id)
			}
		case KindNotification:
			if m.method == "" || m.id != nil {
				t.Fatalf("notification with method %q id %q", m.method, m.id)
			}
		case KindResponse, KindError:
			if !validID(m.id) {
				t.Fatalf("response with id %q", m.id)
			}
		default:
			t.Fatalf("unknown kind %q", m.kind)
		}
		reply := errorResponse(m.replyID, -32600, "x")
		if !json.Valid(reply) {
			t.Fatalf("error response %q is not JSON", reply)
		}
	})
}

// FuzzStdio feeds any input to the whole stdio path: the server must never
// panic, must stop at the end of input, must answer only with JSON-RPC
// lines, and must log every input line.
func FuzzStdio(f *testing.F) {
	f.Add([]byte(strings.Join(fuzzSeeds, "\n")))
	f.Add([]byte(initialize + "\n" + toolsList + "\n" + "{\"jsonrpc\":\"2.0\",\"id\":2,\"meth"))
	f.Add([]byte("\n\n\r\n" + probe))
	f.Fuzz(func(t *testing.T, input []byte) {
		var out, logBuf bytes.Buffer
		l, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, Log: NewMessageLog(&logBuf), Stderr: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := l.ServeStdio(ctx, bytes.NewReader(input), &out); err != nil && ctx.Err() != nil {
			t.Fatalf("server did not stop at the end of input: %v", err)
		}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var msg struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg.JSONRPC != "2.0" {
				t.Fatalf("server wrote a line that is not JSON-RPC: %q", sc.Bytes())
			}
		}
		lines := bytes.Count(input, []byte("\n")) // every line, empty ones too
		if len(input) > 0 && input[len(input)-1] != '\n' {
			lines++
		}
		recv := bytes.Count(logBuf.Bytes(), []byte(`"dir":"recv"`))
		if recv != lines {
			t.Fatalf("%d input lines, %d logged as received", lines, recv)
		}
	})
}
