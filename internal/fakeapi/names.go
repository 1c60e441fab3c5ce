package fakeapi

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names are what is known of the names of the server whose tool is
// looked for among a request's definitions: the server's, as the client's
// config gives it, and all its tools'; either may be empty. The more is
// known, the fewer definitions are taken for a tool that are not its own:
//
//   - With Server, a definition behind the server's prefix or in its
//     namespace (mcp__server-filesystem__read_file, Codex's
//     mcp__server_filesystem) is the server's tool before one of the bare
//     name, which may be the client's own (Gemini CLI defines its own
//     read_file and list_directory beside mcp_server-filesystem_read_file).
//   - With Tools, a definition is the tool's only when no other of the
//     server's tools names it better: list_directory_with_sizes is not
//     list_directory's, mcp__lab__list_directory not directory's, get_env
//     not get-env's when the server has both.
type Names struct {
	Server string
	Tools  []string
}

// How well a definition's name names a tool, worst first.
const (
	nameNone     = iota
	nameRenamed  // renamed (Renamed), behind any prefix or none
	namePrefixed // the tool's name behind a prefix that is not the server's (or the server is not known)
	nameBare     // the tool's name alone, in no namespace or any
	// nameServer: the tool's name, renamed (nameServerRenamed) or not,
	// behind the server's prefix or in its namespace.
	nameServerRenamed
	nameServer
	heldByKey // named at any level, and holds the key
)

// naming is how well a definition names a tool, and how much of the name
// its form of the tool covers (of two tools that name it at one level,
// the longer is its tool).
type naming struct{ level, covered int }

func (n naming) better(o naming) bool {
	return n.level > o.level || n.level == o.level && n.covered > o.covered
}

// naming is how well s names tool.
func (sv Names) naming(s Segment, tool string) naming {
	best := naming{}
	for i, form := range append([]string{tool}, renamings(tool)...) {
		if i > 0 && form == tool {
			continue
		}
		n := naming{covered: utf8.RuneCountInString(form)}
		switch {
		case s.Name == form && s.Namespace != "" && sv.Server != "":
			if !sv.ours(s.Namespace) {
				continue
			}
			n.level = serverLevel(i)
		case s.Name == form && i == 0:
			n.level = nameBare
		case s.Name == form:
			n.level = nameRenamed
		case ToolNamed(s.Name, form):
			switch {
			case sv.Server != "" && sv.ours(s.Name[:len(s.Name)-len(form)]):
				n.level = serverLevel(i)
			case i == 0:
				n.level = namePrefixed
			default:
				n.level = nameRenamed
			}
		case cutBeforeSuffix(s.Name, form, min(len(form), minCut)):
			n.level = nameRenamed
		default:
			continue
		}
		if n.better(best) {
			best = n
		}
	}
	return best
}

// serverLevel is the level of a name behind the server's prefix: of the
// tool's name (form 0), or renamed.
func serverLevel(form int) int {
	if form == 0 {
		return nameServer
	}
	return nameServerRenamed
}

// ours reports whether prefix, what a client put before a tool's name or
// the namespace it defined it in, ends with the server's name or the
// server's name renamed (Namespaces), after its separators.
func (sv Names) ours(prefix string) bool {
	p := strings.TrimRight(prefix, "_-./")
	for _, name := range append([]string{sv.Server}, renamings(sv.Server)...) {
		if p == name || ToolNamed(p, name) {
			return true
		}
	}
	return false
}

// names is how well s names tool, none when another of the server's
// tools names it better.
func (sv Names) names(s Segment, tool string) naming {
	n := sv.naming(s, tool)
	if n.level == nameNone {
		return n
	}
	for _, o := range sv.Tools {
		if o != tool && sv.naming(s, o).better(n) {
			return naming{}
		}
	}
	return n
}

// Find returns the definition of ctx that is the server's tool named tool
// (its name and namespace are the client's): of those whose text holds
// key (a codeword or the start of the tool's description), the one that
// names the tool; else the one that names it best (the server's prefix
// or namespace, then the bare name, then another prefix, then renamed),
// where one not behind the server's prefix counts only if it holds key
// or no key is given; else the one that holds key and names none of the
// server's other tools (a tool the client renamed beyond recognition).
// Two that name it equally well (a name in two namespaces: Codex's
// mcp__lab and mcp__lab2) find none.
func (sv Names) Find(ctx Context, tool, key string) (Segment, bool) {
	var named, keyed []int
	best := naming{}
	for i, s := range ctx {
		if s.Kind != KindToolDefinition {
			continue
		}
		holds := key != "" && strings.Contains(s.Text, key)
		n := sv.names(s, tool)
		switch {
		case n.level != nameNone && n.level < nameServerRenamed && key != "" && !holds:
			// Not behind the server's prefix, and without the tool's
			// description: the client's own tool of that name (Claude
			// Code's Read beside a deferred mcp__lab__Read).
			continue
		case n.level == nameNone:
			if holds && !sv.namesAnother(s, tool) {
				keyed = append(keyed, i)
			}
			continue
		case holds:
			if best.level != heldByKey {
				named, best = named[:0], naming{level: heldByKey}
			}
			named = append(named, i)
		case best.level == heldByKey:
		case n.better(best):
			named, best = append(named[:0], i), n
		case n == best:
			named = append(named, i)
		}
	}
	switch {
	case len(named) == 1:
		return ctx[named[0]], true
	case len(named) == 0 && len(keyed) == 1:
		return ctx[keyed[0]], true
	}
	return Segment{}, false
}

// Named reports whether definition s names the server's tool tool (at
// any level Find knows, none of the server's other tools naming it
// better); a definition Find returns without naming it only holds the
// tool's description: the client's own tool that lists the server's
// (opencode's and Qwen Code's code mode: execute, exec), or the tool
// renamed beyond recognition.
func (sv Names) Named(s Segment, tool string) bool {
	return sv.names(s, tool).level != nameNone
}

// namesAnother reports whether s names one of the server's tools other
// than tool.
func (sv Names) namesAnother(s Segment, tool string) bool {
	for _, o := range sv.Tools {
		if o != tool && sv.naming(s, o).level != nameNone {
			return true
		}
	}
	return false
}

// DescriptionKey is what finds a tool's definition by its description
// (Names.Find's key): its first 60 characters after any leading space
// (which a client may trim), as inside a JSON string; "" for a
// description of fewer than 20, which may be another tool's too.
func DescriptionKey(description string) string {
	d := strings.TrimLeftFunc(description, unicode.IsSpace)
	if utf8.RuneCountInString(d) < 20 {
		return ""
	}
	if i := runeOffset(d, 60); i < len(d) {
		d = d[:i]
	}
	return JSONEscape(d)
}

// JSONEscape is s as inside a JSON string, without the quotes, as a
// request that serializes a text carries it (HTML characters unescaped).
func JSONEscape(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	q := strings.TrimSuffix(b.String(), "\n")
	return q[1 : len(q)-1]
}

// runeOffset is the byte offset of s's n-th rune, len(s) when it has no
// more.
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// Listed reports whether a text of ctx (not a definition, not the
// model's own turn) names the server's tool behind the server's prefix
// or in its namespace: a client that defers tools lists their names (Droid
// 0.225.2's lab___bash beside lab___Bash), so a tool no request defines
// but a text lists was offered, not hidden. Without Server, never.
func (sv Names) Listed(ctx Context, tool string) bool {
	if sv.Server == "" {
		return false
	}
	for _, s := range ctx {
		if s.Kind == KindToolDefinition || s.Kind == KindAssistantTurn {
			continue
		}
		for _, tok := range nameTokens(s.Text) {
			if sv.names(Segment{Name: tok}, tool).level >= nameServerRenamed {
				return true
			}
		}
	}
	return false
}
