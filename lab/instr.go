package lab

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// An Instructions says what the server puts in the instructions field.
// The zero value sends no field at all.
type Instructions struct {
	Language Language // the kind of a generated text; "" with none or a file
	Length   int      // characters of a generated text
	File     string   // a user's own text, served unchanged
	Seed     string   // mixed into a generated text's codewords (-seed)
	text     string   // the file's contents
}

// ParseInstructions parses the -instr flag: "none" or "KIND:N", KIND a
// Language (ascii, japanese, emoji, cjkb, combining, lines) and N code points.
func ParseInstructions(s string) (Instructions, error) {
	if s == "none" {
		return Instructions{}, nil
	}
	lang, num, ok := strings.Cut(s, ":")
	if _, _, known := filler(Language(lang)); !ok || !known {
		return Instructions{}, fmt.Errorf("instructions %q: want none or KIND:N, KIND one of %s", s, languageList())
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return Instructions{}, fmt.Errorf("instructions %q: %q is not a number of characters", s, num)
	}
	if n < MinLength {
		return Instructions{}, fmt.Errorf("instructions %q: a generated text needs at least %d characters for its two codeword sentences", s, MinLength)
	}
	return Instructions{Language: Language(lang), Length: n}, nil
}

// instructionsFile reads a user's own instructions text from path; the text
// is served unchanged in both eras.
func instructionsFile(path string) (Instructions, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Instructions{}, fmt.Errorf("reading instructions: %w", err)
	}
	return Instructions{File: path, text: string(data)}, nil
}

// Present reports whether the server sends the instructions field.
func (in Instructions) Present() bool { return in.Language != "" || in.File != "" }

// String returns the flag form of in.
func (in Instructions) String() string {
	switch {
	case in.File != "":
		return "file:" + in.File
	case in.Language != "":
		return fmt.Sprintf("%s:%d", in.Language, in.Length)
	}
	return "none"
}

// ForSession returns the text of the lab's n-th initialize when each
// session gets a text of its own (Config.SessionTexts): the first's is
// For's, and each later one the generated text with the session's number
// mixed into its codewords, so that a request shows which session's text
// it holds. A user's file is the same in every session.
func (in Instructions) ForSession(r Reply, n int) (Text, error) {
	if n > 1 && in.Language != "" {
		in.Seed += fmt.Sprintf("/session %d", n)
	}
	return in.For(r)
}

// For returns the text served in reply r. A user's file is the same in
// both replies.
func (in Instructions) For(r Reply) (Text, error) {
	switch {
	case in.File != "":
		return Text{Text: in.text, Reply: r}, nil
	case in.Language != "":
		return generateSeeded(in.Seed, in.Language, in.Length, r)
	}
	return Text{Reply: r}, nil
}
