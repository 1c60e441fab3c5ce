package untrusted

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Href returns target as a link destination that may be written into
// instrlab's Markdown or HTML, and false when it may not: only a relative
// path (no scheme, not "//host", no backslash that a browser reads as a
// slash) or an https: URL, without control or invisible characters. A
// javascript: or data: URL, or a link to another host without https,
// names nothing instrlab wrote. When it returns false, the link is "": a
// caller that ignores the boolean links nothing (FuzzAtlasOutputs found
// "https:0", a URL without a host, linked that way), and an https URL's
// host is a name or an address, nothing else (FuzzMarkdownLink found a
// quote in one).
func Href(target string) (string, bool) {
	if target == "" || target != EscapeLine(target) || strings.ContainsAny(target, "\\ \t") {
		return "", false
	}
	u, err := url.Parse(target)
	switch {
	case err != nil:
		return "", false
	case u.Scheme == "https":
		if !hostPattern().MatchString(u.Host) {
			return "", false
		}
		return u.String(), true
	case u.Scheme != "" || u.Host != "" || strings.HasPrefix(target, "//"):
		return "", false
	}
	return u.String(), true
}

// hostPattern is the host of an https URL Href allows: a name or an IPv4
// address, or an IPv6 address in brackets, with an optional port;
// compiled on first use, not at every start of a binary.
var hostPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$`)
})

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
