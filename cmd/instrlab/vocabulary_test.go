package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVocabulary holds docs/glossary.md: a word it lists as replaced
// appears in no usage text and no column header, and a flag it lists as
// renamed is in no command's flags, nor an old value in the list of a
// flag's values (after ": ", ", " or "or ").
func TestVocabulary(t *testing.T) {
	replaced := glossaryReplaced(t)
	usages := usageTexts(t)
	headers := columnNames(t)
	for _, r := range replaced {
		if !strings.HasPrefix(r, "`") {
			word := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(r) + `\b`)
			for name, text := range usages {
				if loc := word.FindStringIndex(text); loc != nil {
					t.Errorf("the usage of %s says %q, which docs/glossary.md replaced: %q", name, r, line(text, loc[0]))
				}
			}
			for _, h := range headers {
				if word.MatchString(h.name) {
					t.Errorf("%s: a column or fact named %q says %q, which docs/glossary.md replaced", h.where, h.name, r)
				}
			}
			continue
		}
		// The command is every word before the flag: "check", "serve lab".
		spec := strings.Fields(strings.Trim(r, "`"))
		i := 0
		for i < len(spec) && !strings.HasPrefix(spec[i], "-") {
			i++
		}
		if i == len(spec) {
			t.Fatalf("docs/glossary.md replaces %s: no flag in it", r)
		}
		command, spec := strings.Join(spec[:i], " "), spec[i:]
		for name, text := range usages {
			if command != "" && name != command {
				continue
			}
			block, ok := flagBlock(text, strings.TrimPrefix(spec[0], "-"))
			switch {
			case len(spec) == 1 && ok:
				t.Errorf("%s has the flag %s, which docs/glossary.md renamed", name, spec[0])
			case len(spec) == 2 && ok && regexp.MustCompile(`(?:[:,]|\bor)\s+`+regexp.QuoteMeta(spec[1])+`\b`).MatchString(block):
				t.Errorf("%s's %s offers %s, which docs/glossary.md renamed:\n%s", name, spec[0], spec[1], block)
			}
		}
	}
}

// TestVocabularyReads holds TestVocabulary's own reading: it finds the
// glossary's replaced words and flags, every command's flags, and the
// column headers, and would see a replaced word come back.
func TestVocabularyReads(t *testing.T) {
	replaced := glossaryReplaced(t)
	for _, want := range []string{"configuration", "`-repeat`", "`budget -profile`", "`-format summary`", "`serve lab -era`"} {
		if !strings.Contains(strings.Join(replaced, "\n"), want) {
			t.Errorf("the glossary's replaced words %q lack %q", replaced, want)
		}
	}
	usages := usageTexts(t)
	if _, ok := flagBlock(usages["check"], "repeats"); !ok {
		t.Errorf("check's usage has no -repeats:\n%s", usages["check"])
	}
	if block, ok := flagBlock(usages["run"], "format"); !ok || !strings.Contains(block, "text") {
		t.Errorf("run's -format does not offer text: %q", block)
	}
	if _, ok := flagBlock(usages["serve lab"], "eras"); !ok {
		t.Errorf("the usage of serve lab was not read: %q", usages["serve lab"])
	}
	found := false
	for _, h := range columnNames(t) {
		found = found || h.name == "row"
	}
	if !found {
		t.Error(`no column named "row" among the column headers read`)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil || !bytes.Contains(readme, []byte("docs/glossary.md")) {
		t.Errorf("the README does not link docs/glossary.md (%v)", err)
	}
}

// glossaryReplaced is the last column of docs/glossary.md's tables, an
// item a word, a phrase, or in backquotes a flag (`-name`, `command
// -name`) or a flag's value (`-name value`).
func glossaryReplaced(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../docs/glossary.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		cells := strings.Split(l, "|")
		if len(cells) != 6 || strings.TrimSpace(cells[1]) == "word" || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		for _, item := range strings.Split(cells[4], ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	if len(out) < 8 {
		t.Fatalf("docs/glossary.md: %d replaced words read; its tables changed shape", len(out))
	}
	return out
}

// usageTexts is what each command prints for -h, and the program's help.
func usageTexts(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	var help bytes.Buffer
	if err := run(context.Background(), []string{"help"}, &help, &help); err != nil {
		t.Fatal(err)
	}
	out["help"] = help.String()
	commands := [][]string{{"serve", "lab"}, {"serve", "proxy"}}
	for _, c := range program.Commands {
		if c.Name != "serve" && c.Name != "version" {
			commands = append(commands, []string{c.Name})
		}
	}
	for _, c := range commands {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), append(c, "-h"), &stdout, &stderr); err != nil && !errors.Is(err, errHelp) && !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%s -h: %v", c, err)
		}
		out[strings.Join(c, " ")] = stdout.String() + stderr.String()
	}
	return out
}

// flagBlock is the lines of text (a usage) that describe the flag name,
// and whether there is one.
func flagBlock(text, name string) (string, bool) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if f := strings.Fields(l); strings.HasPrefix(l, "  -") && len(f) > 0 && f[0] == "-"+name {
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(lines[j], "  -") && strings.HasPrefix(lines[j], "    ") {
				j++
			}
			return strings.Join(lines[i:j], "\n"), true
		}
	}
	return "", false
}

type header struct{ where, name string }

// columnNames is every column name and fact name written as a literal in
// the tree's Go (a Name: or name: field, an HTML table header): the words
// a table's reader sees.
func columnNames(t *testing.T) []header {
	t.Helper()
	field := regexp.MustCompile(`\b[Nn]ame:\s*"([^"]+)"|<th[^>]*>([^<]+)</th>`)
	var out []header
	for _, root := range []string{"../../internal", "."} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_gen.go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range field.FindAllStringSubmatch(string(b), -1) {
				out = append(out, header{path, m[1] + m[2]})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// line is the line of text around offset i.
func line(text string, i int) string {
	start := strings.LastIndexByte(text[:i], '\n') + 1
	end := strings.IndexByte(text[i:], '\n')
	if end < 0 {
		return text[start:]
	}
	return text[start : i+end]
}
