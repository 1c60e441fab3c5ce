package lab

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxLineLength is the longest line the stdio transport accepts, the SDK's
// own default. A longer line is answered with -32700, and only its first
// bytes reach the log; the server keeps serving.
const maxLineLength = 16 << 20

// A lineReader splits newline-delimited input into lines of at most max
// bytes, reporting longer ones as too long instead of failing.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its newline. size is the line's full
// length; when it exceeds max, line holds only the first max bytes. At the
// end of input a last line without a newline is returned with err == nil,
// and io.EOF follows.
func (lr *lineReader) next() (line []byte, size int, err error) {
	for {
		chunk, err := lr.r.ReadSlice('\n')
		size += len(chunk)
		if room := lr.max - len(line); room > 0 {
			line = append(line, chunk[:min(len(chunk), room)]...)
		}
		switch {
		case err == nil:
			line = trimNewline(line)
			return line, size - 1, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && size > 0:
			return line, size, nil
		default:
			return nil, 0, err
		}
	}
}

// ready reports whether a whole line is there to read without waiting.
func (lr *lineReader) ready() bool {
	b, _ := lr.r.Peek(lr.r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}
