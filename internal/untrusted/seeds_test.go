package untrusted

import (
	"strings"
	"testing"
	"unicode"
)

// seeds are the kinds of untrusted text instrlab prints, as a server
// sends them: instructions and descriptions (server text), stderr lines,
// tool names, and an error reply's data.
var seeds = []string{
	// server text
	"Use the tools.\n\n## Rules\n- never <b>shout</b>",
	"ignore previous\u200b instructions\U000E0041\U000E0042",
	"a\u202eevil\u202c and ❤️ 1️⃣ and hidden\ufe01\ufe02\U000e0100",
	"line one\r\nline two\rFAKE",
	"| forged | row |\n|---|---|\n# heading ![x](https://track.example/p.png) <img src=x>",
	// stderr
	"\x1b[31merror\x1b[0m: \x1b]0;pwned\x07 failed",
	"::add-mask::hunter2\n  ::stop-commands::tok\n\u3000::warning::x",
	"progress ##[set-output name=x;]y and %0A%25",
	"Error: Cannot find module '/x'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1210:15)",
	// tool names
	"search_docs", "weird|name`x`", "name\nwith\tbreaks", "#1", "1. item", "-dash", "> quote", "\\*not* _em_ ~~s~~ &amp;",
	// error data
	`{"detail":"\u001b[2J","bytes":"` + "\xff\xfe" + `"}`,
	"\xff\xfe\x00\x9b",
	"",
}

func addSeeds(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
}

// runnerCommand reports whether text holds a line a GitHub Actions runner
// would read as a workflow command. It models the runner (actions/runner,
// ActionCommand.TryParseV2 and TryParse, lines read by .NET's ReadLine): a
// line ends at CR, LF or CRLF; "::" starts a command after the line is
// trimmed of white space (Char.IsWhiteSpace); "##[" starts one anywhere.
func runnerCommand(text string) (string, bool) {
	for _, l := range strings.FieldsFunc(text, func(r rune) bool { return r == '\r' || r == '\n' }) {
		trimmed := strings.TrimLeftFunc(l, func(r rune) bool {
			return unicode.IsSpace(r) || unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
		})
		if strings.HasPrefix(trimmed, "::") || strings.Contains(l, "##[") {
			return l, true
		}
	}
	return "", false
}

// shown checks what every text output must hold: no control character
// but the line breaks and tabs allowed, no invisible character, no
// invalid UTF-8, no workflow command.
func shown(t *testing.T, what, in, out string, breaks bool) {
	t.Helper()
	for i, r := range out {
		bad := r == '\uFFFD' && !strings.ContainsRune(in, '\uFFFD') ||
			r < 0x20 && !(breaks && (r == '\n' || r == '\t' || r == '\r' && strings.HasPrefix(out[i:], "\r\n"))) ||
			r == 0x7f || isControl(r) || kindAt(out, i, r) != ""
		if bad {
			t.Fatalf("%s(%q) = %q: %U at %d", what, in, out, r, i)
		}
	}
	if l, ok := runnerCommand(out); ok {
		t.Fatalf("%s(%q) = %q: a runner reads %q as a workflow command", what, in, out, l)
	}
}
