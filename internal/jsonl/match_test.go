package jsonl

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMatching(t *testing.T) {
	long := "[ERROR] mcp " + strings.Repeat("x", 400)
	in := "[INFO] mcp ok\n[ERROR] mcp: lab closed\n\n[WARN] other\n" + long + "\n"
	got := Matching(strings.NewReader(in), "log.txt", regexp.MustCompile(`\[(WARN|ERROR)\].*mcp`))
	want := []string{"log.txt:2: [ERROR] mcp: lab closed", "log.txt:5: " + long[:300]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Matching mismatch (-want +got):\n%s", diff)
	}
}
