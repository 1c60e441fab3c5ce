package labvocab

// The _meta keys of a tool that Claude Code reads and other clients copy
// (SPEC-NOTES: "More that reaches the model").
const (
	MetaAlwaysLoad         = "anthropic/alwaysLoad"         // load the tool even when tools are deferred
	MetaSearchHint         = "anthropic/searchHint"         // the text a deferred tool is found by
	MetaMaxResultSizeChars = "anthropic/maxResultSizeChars" // room for a long result
	// MetaLabNote is a key of the lab's own, which no client knows.
	MetaLabNote = "lab/note"
)

// The prompt and resources of lab.SurfacePrompts.
const (
	SurfacePrompt      = "lab_prompt"
	SurfaceResourceURI = "lab://surface/readme"
	SurfaceTemplateURI = "lab://surface/parts/{number}"
)
