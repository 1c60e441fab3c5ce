package matrix

import (
	"context"
	_ "embed"
)

//go:embed cross.json
var crossJSON []byte

// CrossJSON is the built-in cross-client matrix in the matrix file format.
func CrossJSON() []byte { return append([]byte(nil), crossJSON...) }

// Cross returns the built-in cross-client matrix: no instructions; English
// 1,000, 6,000 and 20,000 characters; Japanese 3,000; the texts that tell
// a cap's unit apart (emoji, CJK Extension B, combining accents); dual-era 1,000;
// initialize held 3 s and 8 s; and rows for one client's own knobs
// (Claude Code's cap variable, Gemini CLI's trust flag, Copilot CLI's flag
// that lets every server's instructions in); and the lab over
// Streamable HTTP in each era, with a short ttlMs and at 6,000
// characters (the http rows: docs/clients.md, "HTTP per client"). It
// runs once per row and client; -repeats changes that.
func Cross() *Matrix {
	m, err := Parse(crossJSON, "cross.json")
	if err != nil {
		panic("built-in matrix: " + err.Error())
	}
	return m
}

//go:embed atlas.json
var atlasJSON []byte

// Atlas returns the built-in probe matrix of instrlab sweep: one run each
// of English 1,000 and 6,000 characters, dual-era 1,000 and initialize held
// 3 s, enough to read every property a sweep compares (internal/atlas).
func Atlas() *Matrix {
	m, err := Parse(atlasJSON, "atlas.json")
	if err != nil {
		panic("built-in matrix: " + err.Error())
	}
	return m
}

// Builtin returns the built-in matrix named name ("seed", "cross",
// "atlas", "surface", "sessions" or "protocol").
func Builtin(name string) (*Matrix, bool) {
	switch name {
	case "seed":
		return Seed(), true
	case "cross":
		return Cross(), true
	case "atlas":
		return Atlas(), true
	case "surface":
		return Surface(), true
	case "sessions":
		return Sessions(), true
	case "protocol":
		return Protocol(), true
	}
	return nil, false
}

// Named returns the matrix a -matrix flag names: a built-in matrix
// (Builtin), else the matrix file at name; def when name is "".
func Named(ctx context.Context, name string, def *Matrix) (*Matrix, error) {
	if m, ok := Builtin(name); ok {
		return m, nil
	}
	if name == "" {
		return def, nil
	}
	return Load(ctx, name)
}
