package jsonl

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxFile is the most read of one evidence file: a run's request log with
// the lab's 10 MiB result in several requests is tens of MiB.
const MaxFile = 512 << 20

// ErrTooLong ends the reading of an evidence file past MaxFile bytes.
var ErrTooLong = fmt.Errorf("longer than %d MiB, the most read of an evidence file: the rest is not read", MaxFile>>20)

// Open opens an evidence file of a run to read it, the one way every
// reader of a run's files does: a regular file only (a FIFO or a device
// in an evidence directory would block the reader, or never end), and
// read to MaxFile bytes at most, past which the reader fails with
// ErrTooLong (Lines reports it as the warning of the line it cut).
func Open(path string) (io.ReadCloser, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("not a regular file")}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &bounded{f: f, left: MaxFile}, nil
}

type bounded struct {
	f    *os.File
	left int64
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, ErrTooLong
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.f.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *bounded) Close() error { return b.f.Close() }
