package lab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"
)

func parseLog(t *testing.T, data []byte) []Entry {
	t.Helper()
	var entries []Entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("log line %d: %v: %s", n, err, sc.Bytes())
		}
		entries = append(entries, e)
	}
	return entries
}

// fullDisk accepts room bytes, then writes part of a line and fails, as a
// file on a full disk does; it can truncate, as a file can.
type fullDisk struct {
	bytes.Buffer
	room int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if d.Len()+len(p) <= d.room {
		return d.Buffer.Write(p)
	}
	n := d.room - d.Len()
	d.Buffer.Write(p[:n])
	return n, syscall.ENOSPC
}

func (d *fullDisk) Truncate(size int64) error { d.Buffer.Truncate(int(size)); return nil }

// TestLogWriteErrorStopsServer: when the log cannot be written, the server
// stops with that error, and the log holds only whole lines.
func TestLogWriteErrorStopsServer(t *testing.T) {
	disk := &fullDisk{room: 700}
	l, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, Log: NewMessageLog(disk), Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	// A client that keeps sending: the server must stop on its own.
	in, w := io.Pipe()
	go func() {
		io.WriteString(w, initialize+"\n"+initialized+"\n")
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", 10+i); err != nil {
				return
			}
		}
	}()
	err = l.ServeStdio(context.Background(), in, io.Discard)
	in.Close()
	if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "writing message log") {
		t.Fatalf("ServeStdio = %v, want it stopped by the log's ENOSPC", err)
	}
	data := disk.Bytes()
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("log ends with a torn line: %.80q", data[max(0, len(data)-80):])
	}
	parseLog(t, data)
	if err := l.Log().Close(); err == nil {
		t.Error("Close reports no error after a failed write")
	}
}

// A kept body is written as json.Marshal writes it, whether it is copied
// (already compact, nothing to escape) or marshalled.
func TestLogBodyAsMarshal(t *testing.T) {
	bodies := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
		`{"a":"two words","b":"a \"quoted\" \\ word","c":[1,2.5,true,null]}`,
		`{"a": 1, "b" :[ 2 ,3 ]}`,
		"{\n\t\"a\":\r\n1}",
		`{"a":"<b>&</b>"}`,
		"{\"a\":\"line\u2028sep\u2029end\"}",
		"{\"a\":\"\u00e9\u20ac\"}", // € starts with E2 but is not escaped
		`{"a":"\\"}`,
		`["x",{"y":"\" "}]`,
		`null`,
	}
	at := time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)
	for _, body := range bodies {
		var buf bytes.Buffer
		l := NewMessageLog(&buf)
		l.now = func() time.Time { return at }
		e := Entry{Dir: Send, Transport: "stdio", Kind: KindResponse, Method: "tools/list", ID: json.RawMessage(`7`), Bytes: len(body), Body: json.RawMessage(body)}
		l.Log(e)
		e.Time = at
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		if got := buf.String(); got != string(want)+"\n" {
			t.Errorf("body %q logged as\n%s\nwant\n%s", body, got, want)
		}
		if err := l.Err(); err != nil {
			t.Errorf("body %q: %v", body, err)
		}
	}
}
