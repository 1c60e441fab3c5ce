package surface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// The forms a part is sent or found in.
const (
	FormText  = "text"  // plain text
	FormJSON  = "json"  // serialized JSON (a structuredContent, a content block)
	FormImage = "image" // an image block or part
	FormLink  = "link"  // a resource_link
)

// A Part is one part of a tool's reply, to be looked for in the request
// that follows the call: Needle is what identifies it there (its text, the
// longest string in a JSON value, an image's base64 data, a link's URI).
type Part struct {
	Name   string `json:"name"` // as in "content[0] text", "structuredContent", "_meta"
	Form   string `json:"form"` // as sent
	Needle string `json:"-"`
	Sent   int    `json:"sent"` // characters of Needle
}

// minNeedle is the shortest string leaf of a JSON value that identifies it;
// a value with none is looked for whole, compact.
const minNeedle = 12

// Parts reads a tools/call reply, the JSON-RPC message as the server's log
// kept it, into its parts; isError reports the result's isError flag.
// A result of the wrong shape (content that is not a list) still yields
// what it holds.
func Parts(reply json.RawMessage) (parts []Part, isError bool, err error) {
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(reply, &msg); err != nil {
		return nil, false, fmt.Errorf("reading a tools/call reply: %w", err)
	}
	if msg.Error != nil {
		return []Part{part("error message", FormText, msg.Error.Message)}, true, nil
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal(msg.Result, &res); err != nil {
		return nil, false, fmt.Errorf("reading a tools/call result: %w", err)
	}
	json.Unmarshal(res["isError"], &isError)
	if c, ok := res["content"]; ok {
		var blocks []json.RawMessage
		var s string
		switch {
		case json.Unmarshal(c, &blocks) == nil:
			for i, b := range blocks {
				parts = append(parts, contentPart(i, b))
			}
		case json.Unmarshal(c, &s) == nil:
			parts = append(parts, part("content (a string)", FormText, s))
		default:
			parts = append(parts, jsonPart("content", c))
		}
	}
	for _, k := range []string{"structuredContent", "_meta"} {
		if v, ok := res[k]; ok && string(v) != "null" {
			parts = append(parts, jsonPart(k, v))
		}
	}
	return parts, isError, nil
}

func part(name, form, needle string) Part {
	return Part{Name: name, Form: form, Needle: needle, Sent: utf8.RuneCountInString(needle)}
}

// contentPart is the i-th block of a result's content.
func contentPart(i int, raw json.RawMessage) Part {
	var b struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     string `json:"data"`
		URI      string `json:"uri"`
		Resource struct {
			Text string `json:"text"`
			Blob string `json:"blob"`
		} `json:"resource"`
	}
	json.Unmarshal(raw, &b)
	name := fmt.Sprintf("content[%d] %s", i, b.Type)
	switch b.Type {
	case "text":
		return part(name, FormText, b.Text)
	case "image", "audio":
		return part(name, FormImage, b.Data)
	case "resource_link":
		return part(name, FormLink, b.URI)
	case "resource":
		if b.Resource.Text != "" {
			return part(name, FormText, b.Resource.Text)
		}
		return part(name, FormImage, b.Resource.Blob)
	}
	return jsonPart(name, raw)
}

// jsonPart is a JSON value, identified by its longest string, or when
// that is too short, by the value compact in the server's own order of
// keys, as a client that passes it on serialized keeps it (JavaScript's
// JSON.stringify does): server-everything's get-structured-content
// ({"temperature":33,"conditions":"Cloudy","humidity":82}) was looked for
// with its keys sorted and never found.
func jsonPart(name string, raw json.RawMessage) Part {
	var v any
	json.Unmarshal(raw, &v)
	needle := longestString(v)
	if utf8.RuneCountInString(needle) < minNeedle {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			m, _ := json.Marshal(v)
			b.Reset()
			b.Write(m)
		}
		needle = b.String()
	}
	return part(name, FormJSON, needle)
}

// markSame names, on each part whose needle is another part's too (a
// content text that is the structuredContent serialized, as the
// specification asks a server to send beside it), the other part: where
// the text arrived cannot tell the two apart.
func markSame(fs []Found, parts []Part) {
	for i := range parts {
		for j := range parts {
			if i != j && parts[i].Needle != "" && parts[i].Needle == parts[j].Needle && fs[i].SameAs == "" {
				fs[i].SameAs = parts[j].Name
			}
		}
	}
}

func longestString(v any) string {
	best := ""
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if len(x) > len(best) {
				best = x
			}
		case map[string]any:
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	return best
}
