package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/lab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The benchmarks below serve pipelined tools/list in process, over OS pipes,
// so that a CPU profile shows where a server's time goes:
//
//	go test -run NONE -bench ToolsList -cpuprofile cpu.out ./internal/bench
//
// lab is the lab's own stdio transport with the message log on (as
// instrlab serve lab -log), nolog the same without the log, and sdk the
// lab's server on the SDK's own transport: their differences are the cost
// of the lab's transport and of its log.

func BenchmarkToolsList(b *testing.B) {
	b.Run("lab", func(b *testing.B) {
		log, err := lab.OpenMessageLog(filepath.Join(b.TempDir(), "log.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		defer log.Close()
		l := newLab(b, log)
		benchToolsList(b, l.ServeStdio)
	})
	b.Run("nolog", func(b *testing.B) {
		benchToolsList(b, newLab(b, nil).ServeStdio)
	})
	b.Run("sdk", func(b *testing.B) {
		s := newLab(b, nil).Server()
		benchToolsList(b, func(ctx context.Context, r io.Reader, w io.Writer) error {
			return s.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(r), Writer: nopWriteCloser{w}})
		})
	})
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func newLab(b *testing.B, log *lab.MessageLog) *lab.Lab {
	in, err := lab.ParseInstructions("ascii:1000")
	if err != nil {
		b.Fatal(err)
	}
	l, err := lab.New(lab.Config{Instructions: in, Log: log})
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// benchToolsList serves one connection with serve and times b.N pipelined
// tools/list requests after the handshake.
func benchToolsList(b *testing.B, serve func(ctx context.Context, r io.Reader, w io.Writer) error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, inR, outW); outW.Close() }()
	defer func() {
		inW.Close()
		cancel()
		<-done
		inR.Close()
		outR.Close()
	}()
	out := bufio.NewReaderSize(outR, 1<<20)
	io.WriteString(inW, initialize+initialized)
	if _, err := out.ReadSlice('\n'); err != nil {
		b.Fatal(err)
	}
	var reqs bytes.Buffer
	for i := range b.N {
		fmt.Fprintf(&reqs, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", i+2)
	}
	b.ResetTimer()
	go inW.Write(reqs.Bytes())
	for range b.N {
		line, err := out.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Contains(line, []byte(`"result"`)) {
			b.Fatalf("not a result: %.200s", line)
		}
	}
	b.StopTimer()
}
