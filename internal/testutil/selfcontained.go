package testutil

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// SelfContained lists what in an HTML page would be fetched from outside
// it: a script, stylesheet, image, frame or font, a URL with a scheme, a
// protocol-relative one, an @import, a url() that is not a fragment; and
// links to evidence files that do not exist under root.
func SelfContained(page, root string) []string {
	var bad []string
	for _, re := range outsideRefs() {
		bad = append(bad, re.FindAllString(page, -1)...)
	}
	for _, m := range hrefRe.FindAllStringSubmatch(page, -1) {
		h := m[1]
		if strings.HasPrefix(h, "#") {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(h))); err != nil {
			bad = append(bad, "link to a missing file: "+h)
		}
	}
	return bad
}

var hrefRe = regexp.MustCompile(`href="([^"]*)"`)

func outsideRefs() []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, re := range []string{`(?i)<(script|link|img|iframe|object|embed|video|audio|source)\b`, `(?i)@import`, `(?i)url\(\s*['"]?[^#'")\s]`, `(?i)\b(src|srcset|data|poster|xlink:href|action)\s*=`, `(?i)(https?:|ftp:|file:|data:)//?`, `(?i)href\s*=\s*"//`} {
		out = append(out, regexp.MustCompile(re))
	}
	return out
}
