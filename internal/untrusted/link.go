package untrusted

import (
	"net/url"
	"strings"
)

// Href returns target as a link destination that may be written into
// instrlab's Markdown or HTML, and false when it may not: only a relative
// path (no scheme, not "//host", no backslash that a browser reads as a
// slash) or an https: URL, without control or invisible characters. A
// javascript: or data: URL, or a link to another host without https,
// names nothing instrlab wrote.
func Href(target string) (string, bool) {
	if target == "" || target != EscapeLine(target) || strings.ContainsAny(target, "\\ \t") {
		return "", false
	}
	u, err := url.Parse(target)
	switch {
	case err != nil:
		return "", false
	case u.Scheme == "https":
		return u.String(), u.Host != ""
	case u.Scheme != "" || u.Host != "" || strings.HasPrefix(target, "//"):
		return "", false
	}
	return u.String(), true
}

// MarkdownLink is text (escaped as Markdown escapes it) linked to target
// when Href allows target, else the text alone. Inside the link, a ']'
// of the text is escaped too, so that it does not end the link's text
// (FuzzMarkdownLink found "]0;" of a terminal escape doing so); a
// destination with a parenthesis is written between angle brackets, so
// that it does not end the link.
func MarkdownLink(text, target string) string {
	t := Markdown(text)
	h, ok := Href(target)
	if !ok {
		return t
	}
	t = strings.ReplaceAll(t, "]", `\]`)
	h = strings.NewReplacer("<", "%3C", ">", "%3E").Replace(h)
	if strings.ContainsAny(h, "()") {
		h = "<" + h + ">"
	}
	return "[" + t + "](" + h + ")"
}
