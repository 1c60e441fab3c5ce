package profiles

// The built-in profiles' source is the JSON under data/, which people and
// "instrlab budget -profile" edit. What instrlab reads at run time is
// builtin_gen.go: the same profiles, parsed, validated, ordered and
// written out as a Go composite literal, so that loading them is building
// values, not parsing JSON (BenchmarkBuiltin: a check paid for parsing
// them on every run). TestCompactFresh keeps the two equal; after a change
// to a profile, rewrite the Go file with
//
//	go test ./internal/profiles -run Compact -update
//
// and after a change to the types that leaves the file behind (it no
// longer builds), with the tag that reads the JSON instead:
//
//	go test -tags profilesjson ./internal/profiles -run Compact -update

// compactFile is the generated file.
const compactFile = "builtin_gen.go"

// Builtin returns the profiles shipped with instrlab, ordered by client and
// version: a fresh copy on every call, which the caller may change.
func Builtin() ([]Profile, error) { return builtinProfiles() }
