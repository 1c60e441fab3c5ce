package cli

import (
	"context"
	"fmt"
	"io"
	"os"
)

// MaxConfig is the most ReadFile reads of a config a user names (-config,
// .mcp.json, ~/.claude.json, which holds every project's history): 64 MiB.
const MaxConfig = 64 << 20

// ReadFile reads the file a user named, as os.ReadFile does, but bounded
// and cancellable: a file longer than max bytes (/dev/zero) is an error
// naming the limit, and a file that blocks (a FIFO nobody writes) gives up
// when ctx is done (a signal), with ctx's error. A read still blocked is
// left to end with the process.
func ReadFile(ctx context.Context, path string, max int64) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			done <- result{nil, err}
			return
		}
		defer f.Close()
		data, err := ReadAtMost(f, path, max)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("reading %s: %w", path, ctx.Err())
	}
}

// ReadAtMost reads r, the file named path, to its end, or fails naming
// the limit when it holds more than max bytes.
func ReadAtMost(r io.Reader, path string, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err == nil && int64(len(data)) > max {
		return nil, fmt.Errorf("%s is longer than %d bytes, the most read of it", path, max)
	}
	return data, err
}
