package claudecode

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/jsonl"
)

// A Transcript is what a session transcript
// (~/.claude/projects/<dir>/<session>.jsonl) says about instructions.
type Transcript struct {
	// Instructions are the blocks of mcp_instructions_delta attachments,
	// one per added server, in order.
	Instructions []client.InstructionsBlock
	// PromptSnapshots counts prompt_snapshot attachments;
	// SystemPromptChars is the size of the first one's system prompt.
	PromptSnapshots   int
	SystemPromptChars int
	Records           int
}

type transcriptRecord struct {
	Type         string `json:"type"`
	RenderedRole string `json:"renderedRole"`
	Attachment   *struct {
		Type         string   `json:"type"`
		AddedNames   []string `json:"addedNames"`
		AddedBlocks  []string `json:"addedBlocks"`
		SystemPrompt []string `json:"systemPrompt"`
	} `json:"attachment"`
}

// ParseTranscript reads a transcript. A line that does not parse is
// reported as "name:line: message" and skipped.
func ParseTranscript(r io.Reader, name string) (Transcript, []string) {
	var t Transcript
	count, w := jsonl.Each(r, name, func(n int, rec transcriptRecord) {
		a := rec.Attachment
		if rec.Type != "attachment" || a == nil {
			return
		}
		switch a.Type {
		case "mcp_instructions_delta":
			for i, b := range a.AddedBlocks {
				server := ""
				if i < len(a.AddedNames) {
					server = a.AddedNames[i]
				}
				t.Instructions = append(t.Instructions, client.InstructionsBlock{Server: server, Text: b,
					Role: rec.RenderedRole, Where: fmt.Sprintf("%s:%d", name, n)})
			}
		case "prompt_snapshot":
			t.PromptSnapshots++
			if t.PromptSnapshots == 1 {
				for _, s := range a.SystemPrompt {
					t.SystemPromptChars += utf8.RuneCountInString(s)
				}
			}
		}
	})
	t.Records = count
	return t, w
}
