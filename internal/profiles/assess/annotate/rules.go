package annotate

import "strings"

// help says, per finding code, what the rule checks; the SARIF rules and
// the annotation titles come from it. A code not listed gets a generic
// help text, so a new finding is still reported.
var help = map[string]string{
	"unreachable":       "Neither protocol era got a JSON-RPC reply from the server.",
	"fallback-failed":   "The server failed the era fallback a client performs.",
	"probe-exit":        "The server exited when sent the first request of an era.",
	"stdout-garbage":    "The server wrote something other than JSON-RPC to standard output.",
	"tools-failed":      "tools/list failed.",
	"no-instructions":   "The server sends no instructions.",
	"no-tools":          "The server lists no tools.",
	"probe-ok":          "The era probe got a result.",
	"probe-other-error": "The era probe got an unexpected error.",
	"setting":           "A client setting that changes what the client keeps.",
	"setting-ignored":   "A setting the client ignores.",
	"legacy-failed":     "The legacy-era initialize failed.",
	"legacy-refused":    "The server refused the legacy era.",
	"non-bmp":           "Instructions hold characters outside the Basic Multilingual Plane or invisible characters.",
	"probe-invalid":     "The server's reply is not valid JSON-RPC.",
	"probe-silent":      "The server did not reply within the timeout.",
	"schema":            "A reply does not match the protocol's schema.",
	"startup-slow":      "The server starts slower than a client waits.",
	"tool-truncated":    "A client cuts a tool description.",
	"truncated":         "A client cuts the instructions.",
	"unset-var":         "A ${VAR} in the config is not set and has no default.",
	"max-chars":         "Instructions are longer than -max-chars.",
	"max-tokens":        "Instructions cost more tokens than -max-tokens.",
	"max-startup":       "The server starts slower than -max-startup.",
	"require":           "A -require rule is not met.",
	"eras-differ":       "The two protocol eras return different instructions (-require-same-eras).",
}

func helpFor(code string) string {
	if h, ok := help[code]; ok {
		return h
	}
	return "See instrlab check -h for the finding " + code + "."
}

// configFile is the file of a target's Source ("path (scope)"), or "".
func configFile(source string) string {
	if i := strings.LastIndex(source, " ("); i > 0 && strings.HasSuffix(source, ")") {
		return source[:i]
	}
	return source
}
