package analyze

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/instrlab/instrlab/internal/fakeapi"
)

// A prefix is the part of one model request that a prompt cache can
// reuse from the request before: the system text, the tool definitions
// and the messages, each as its JSON in the body (compacted, its keys in
// the body's order), with what carries no text for the model left out:
// Anthropic's cache_control markers, which a client moves to the newest
// message on every turn and which the API does not read as prompt.
type prefix struct {
	api    string
	system []byte
	// tools are the tool definitions in order; a wrapper that holds a
	// list of tools (Gemini's functionDeclarations, a namespace of the
	// OpenAI Responses API) is itself an entry, without its list, before
	// its members.
	tools [][]byte
	msgs  [][]byte
	// texts are the texts a model reads of each message (withTexts), to
	// tell a message rewritten in another form from one whose text
	// changed; nil when not known.
	texts []string
}

// withTexts sets p's texts from the request's context.
func (p prefix) withTexts(ctx fakeapi.Context) prefix {
	p.texts = make([]string, len(p.msgs))
	for _, s := range ctx {
		if s.Kind == fakeapi.KindToolDefinition || s.Kind == fakeapi.KindSystem || s.Message < 0 || s.Message >= len(p.texts) {
			continue
		}
		p.texts[s.Message] += s.Text + "\n"
	}
	return p
}

// The fields of each API's request that hold the prefix's parts; an
// empty name is a part the API has not (OpenAI Chat keeps its system
// text among the messages).
var prefixFields = map[string]struct{ system, tools, msgs string }{
	"anthropic-messages": {"system", "tools", "messages"},
	"openai-responses":   {"instructions", "tools", "input"},
	"openai-chat":        {"", "tools", "messages"},
	"gemini":             {"systemInstruction", "tools", "contents"},
}

// nestedTools are the keys of a tools entry that lists more tools.
var nestedTools = []string{"functionDeclarations", "function_declarations", "tools"}

// parsePrefix reads the prefix of a request body of api.
func parsePrefix(api string, body []byte) (prefix, error) {
	f, ok := prefixFields[api]
	if !ok {
		return prefix{}, fmt.Errorf("no prefix for API %q", api)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return prefix{}, fmt.Errorf("decoding the request: %w", err)
	}
	p := prefix{api: api}
	var err error
	if f.system != "" {
		raw := top[f.system]
		if len(raw) == 0 && api == "gemini" {
			raw = top["system_instruction"]
		}
		if p.system, err = canonical(raw, nil); err != nil {
			return prefix{}, fmt.Errorf("%s: %w", f.system, err)
		}
	}
	tools, err := elements(top[f.tools])
	if err != nil {
		return prefix{}, fmt.Errorf("%s: %w", f.tools, err)
	}
	for _, t := range tools {
		var obj map[string]json.RawMessage
		_ = json.Unmarshal(t, &obj)
		nested := ""
		for _, k := range nestedTools {
			if v := bytes.TrimSpace(obj[k]); len(v) > 0 && v[0] == '[' {
				nested = k
				break
			}
		}
		c, err := canonical(t, []string{nested})
		if err != nil {
			return prefix{}, fmt.Errorf("%s: %w", f.tools, err)
		}
		p.tools = append(p.tools, c)
		if nested == "" {
			continue
		}
		members, err := elements(obj[nested])
		if err != nil {
			return prefix{}, fmt.Errorf("%s: %w", f.tools, err)
		}
		for _, m := range members {
			c, err := canonical(m, nil)
			if err != nil {
				return prefix{}, fmt.Errorf("%s: %w", f.tools, err)
			}
			p.tools = append(p.tools, c)
		}
	}
	msgs, err := elements(top[f.msgs])
	if err != nil {
		// The Responses API's input may be one string.
		msgs = []json.RawMessage{top[f.msgs]}
	}
	for _, m := range msgs {
		c, err := canonical(m, nil)
		if err != nil {
			return prefix{}, fmt.Errorf("%s: %w", f.msgs, err)
		}
		p.msgs = append(p.msgs, c)
	}
	return p, nil
}

// elements splits a JSON array into its elements; none for an absent or
// null value.
func elements(raw json.RawMessage) ([]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// bytes is the prefix as one byte string, in the order its API's cache
// reads it: Anthropic's tools, system, messages; the others' system,
// tools, messages.
func (p prefix) bytes() []byte {
	var parts [][]byte
	if p.api == "anthropic-messages" {
		parts = append(append(parts, p.tools...), p.system)
	} else {
		parts = append(append(parts, p.system), p.tools...)
	}
	return bytes.Join(append(parts, p.msgs...), nil)
}

// A PrefixChange is how a later request of a conversation repeats the
// request before it.
type PrefixChange struct {
	// Same is how many bytes of the earlier request's prefix (system,
	// tools, messages: see docs/sessions.md) the later one repeats from
	// the start; Of is the earlier prefix's length.
	Same int `json:"same_bytes"`
	Of   int `json:"of_bytes"`
	// Stable reports that the earlier request's system, tools and
	// messages are a byte prefix of the later one's: the same system
	// text, the same tools in the same order, and every earlier message
	// unchanged in its place.
	Stable bool `json:"stable"`
	// Changed says what differs, in this order: system, tools (a tool
	// added, dropped or changed), tool order (the same tools in another
	// order), messages[N] (the first earlier message that changed, "(same
	// text, another form)" when what the model reads of it did not, or
	// "messages" when the later request has fewer).
	Changed []string `json:"changed,omitempty"`
}

// comparePrefix compares an earlier request's prefix with a later one's.
func comparePrefix(a, b prefix) PrefixChange {
	ab, bb := a.bytes(), b.bytes()
	c := PrefixChange{Of: len(ab), Same: commonBytes(ab, bb)}
	if !bytes.Equal(a.system, b.system) {
		c.Changed = append(c.Changed, "system")
	}
	switch {
	case slices.EqualFunc(a.tools, b.tools, bytes.Equal):
	case sameSet(a.tools, b.tools):
		c.Changed = append(c.Changed, "tool order")
	default:
		c.Changed = append(c.Changed, "tools")
	}
	if len(b.msgs) < len(a.msgs) {
		c.Changed = append(c.Changed, "messages")
	} else {
		for i := range a.msgs {
			if !bytes.Equal(a.msgs[i], b.msgs[i]) {
				what := fmt.Sprintf("messages[%d]", i)
				if i < len(a.texts) && i < len(b.texts) && a.texts[i] == b.texts[i] {
					what += " (same text, another form)"
				}
				c.Changed = append(c.Changed, what)
				break
			}
		}
	}
	c.Stable = len(c.Changed) == 0
	return c
}

func commonBytes(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// sameSet reports whether a and b hold the same byte strings, as many
// times each, in any order.
func sameSet(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, x := range a {
		count[string(x)]++
	}
	for _, x := range b {
		if count[string(x)]--; count[string(x)] < 0 {
			return false
		}
	}
	return true
}

// canonical is raw compacted, its keys in their order, without the keys
// of drop and without cache_control at any depth; nil for an absent
// value.
func canonical(raw json.RawMessage, drop []string) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var buf bytes.Buffer
	if err := reemit(dec, &buf, drop, 0); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after a JSON value")
	}
	return buf.Bytes(), nil
}

// maxDepth bounds the nesting canonical follows.
const maxDepth = 200

func reemit(dec *json.Decoder, buf *bytes.Buffer, drop []string, depth int) error {
	if depth > maxDepth {
		return errors.New("JSON nested too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		open, close := byte(t), byte('}')
		if t == '[' {
			close = ']'
		}
		buf.WriteByte(open)
		first := true
		for dec.More() {
			if open == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				if key == "cache_control" || (depth == 0 && slices.Contains(drop, key)) {
					var skip json.RawMessage
					if err := dec.Decode(&skip); err != nil {
						return err
					}
					continue
				}
				if !first {
					buf.WriteByte(',')
				}
				writeString(buf, key)
				buf.WriteByte(':')
			} else if !first {
				buf.WriteByte(',')
			}
			first = false
			if err := reemit(dec, buf, drop, depth+1); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		buf.WriteByte(close)
	case string:
		writeString(buf, t)
	case json.Number:
		buf.WriteString(t.String())
	case bool:
		fmt.Fprint(buf, t)
	case nil:
		buf.WriteString("null")
	}
	return nil
}

func writeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	buf.Truncate(buf.Len() - 1) // Encode's newline
}
