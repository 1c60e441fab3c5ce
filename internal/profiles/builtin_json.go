//go:build profilesjson

package profiles

import (
	"embed"
	"io/fs"
)

// With the tag profilesjson the built-in profiles are parsed from their
// JSON, as builtin_gen.go was made: what rewrites that file after a change
// to the types it no longer builds with (compact.go).

//go:embed data/*.json
var jsonData embed.FS

func builtinProfiles() ([]Profile, error) {
	sub, err := fs.Sub(jsonData, "data")
	if err != nil {
		return nil, err
	}
	return ParseFiles(sub)
}
