package lab

import (
	"fmt"

	"github.com/instrlab/instrlab/internal/labvocab"
)

// Bounds of -tools and -tool-name-length: far past any client's limit
// measured, and small enough that a tools/list stays under a few MiB.
const (
	maxTools          = 4096
	maxToolNameLength = 1024
)

// manyToolName is the name of the i-th tool (from 1) of a lab serving
// many (-tools): the lab's own three, then tool_0004, tool_0005, ...
func manyToolName(i int) string {
	if i >= 1 && i <= len(labvocab.OwnTools) {
		return labvocab.OwnTools[i-1]
	}
	return fmt.Sprintf("tool_%04d", i)
}

// manyWhat is what a generated tool of -tools says of itself, before its
// codeword (about 350 characters with it, the length of a typical tool's
// description), so that a client that counts the tokens of the tools it
// defers meets its threshold at a count an author can compare with.
const manyWhat = "A generated tool, one of the many this server lists: it looks nothing up and answers with its codeword. " +
	"It exists so that a client meets a server with many tools, each described at the length of a typical tool description, " +
	"and shows at which count it starts to defer them behind its tool search, or to drop them."

// manyTools are the generated tools that make the lab serve n tools in
// all (-tools): none when n is at most the lab's own three.
func manyTools(seed string, n int) []SurfaceTool {
	var out []SurfaceTool
	for i := len(labvocab.OwnTools) + 1; i <= n; i++ {
		out = append(out, nameTool(seed, manyToolName(i), "one of many", manyWhat))
	}
	return out
}

// longNameTool is -tool-name-length n's tool.
func longNameTool(seed string, n int) SurfaceTool {
	return nameTool(seed, labvocab.LongToolName(n), fmt.Sprintf("a name of %d characters", n), fmt.Sprintf("A tool whose name is %d characters long.", n))
}

// checkCounts reports a -tools or -tool-name-length out of its bounds.
func (c SurfaceConfig) checkCounts() error {
	switch {
	case c.Count != 0 && (c.Count < len(labvocab.OwnTools) || c.Count > maxTools):
		return fmt.Errorf("-tools %d: want %d to %d (the lab's own %d, then generated ones), or 0 for its own", c.Count, len(labvocab.OwnTools), maxTools, len(labvocab.OwnTools))
	case c.NameLength < 0 || c.NameLength > maxToolNameLength:
		return fmt.Errorf("-tool-name-length %d: want 1 to %d, or 0 for none", c.NameLength, maxToolNameLength)
	}
	return nil
}
