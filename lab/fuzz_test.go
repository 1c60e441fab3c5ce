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

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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

// sdkRequestSeeds are lines on the edges of what sdkRequest takes on itself.
var sdkRequestSeeds = []string{
	`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":"a b","method":"tools/list","params":{"cursor":"x","_meta":{"k":[1,{"v":"}"}]}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	` { "params" : { } , "method" : "ping" , "id" : -3 , "jsonrpc" : "2.0" } `,
	`{"JSONRPC":"2.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"Method":"ping"}`,
	`{"jsonrpc":"2.0","ID":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","Params":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","error":5}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}`,
	`{"jsonrpc":"2.0","id":1,"m\u0065thod":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"p\u0069ng"}`,
	`{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`,
	`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","x":{"method":"y","id":{"params":1}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"\"method\":\"x\""}}`,
}

// FuzzSDKRequest holds sdkRequest to the SDK: whatever line it takes on
// itself, jsonrpc.DecodeMessage reads as the same request.
func FuzzSDKRequest(f *testing.F) {
	for _, s := range append(sdkRequestSeeds, fuzzSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m := classify(line)
		got, ok := sdkRequest(bytes.TrimSpace(line), m)
		if !ok {
			return
		}
		msg, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			t.Fatalf("sdkRequest took %q, which the SDK refuses: %v", line, err)
		}
		want, isReq := msg.(*jsonrpc.Request)
		if !isReq {
			t.Fatalf("sdkRequest took %q, which the SDK reads as %T", line, msg)
		}
		if got.Method != want.Method || !bytes.Equal(got.Params, want.Params) || got.ID != want.ID || got.ID.IsValid() != (m.kind == KindRequest) {
			t.Fatalf("line %q: sdkRequest made %+v, the SDK %+v", line, *got, *want)
		}
	})
}

// TestSDKRequestTakesTheCommonLines: the lines a client sends every day
// take the fast path, and the odd ones are left to the SDK.
func TestSDKRequestTakesTheCommonLines(t *testing.T) {
	take := map[string]bool{}
	for i, s := range sdkRequestSeeds {
		take[s] = i < 4
	}
	take[`{"jsonrpc":"2.0","id":1,"method":"ping","x":{"method":"y","id":{"params":1}}}`] = true
	take[`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"\"method\":\"x\""}}`] = true
	for _, s := range []string{initialize, initialized, toolsList} {
		take[strings.TrimSpace(s)] = true
	}
	for s, want := range take {
		if _, got := sdkRequest(bytes.TrimSpace([]byte(s)), classify([]byte(s))); got != want {
			t.Errorf("sdkRequest(%s) took it: %v, want %v", s, got, want)
		}
	}
}
