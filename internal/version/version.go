// Package version orders the versions npm publishes and matches them
// against npm-style ranges (">=2.1.200 <2.2", "^1.2", "~0.5", "1.x",
// "1.2 - 1.4", "A || B"). Comparison is golang.org/x/mod/semver's; this
// package adds npm's spelling (no leading "v") and the range syntax, and
// compiles nothing at package initialization (issue 9: every start of
// instrlab serve lab pays for what its packages do at init).
package version

import (
	"sort"
	"strings"

	"golang.org/x/mod/semver"
)

// semv returns s in golang.org/x/mod/semver's form ("v" first), or "" if s
// is not a version.
func semv(s string) string {
	if !strings.HasPrefix(s, "v") {
		s = "v" + s
	}
	if !semver.IsValid(s) {
		return ""
	}
	return s
}

// Valid reports whether s is a version: MAJOR.MINOR.PATCH with an optional
// -PRERELEASE and +BUILD, where a leading "v" and the short forms MAJOR
// and MAJOR.MINOR (for MAJOR.0.0 and MAJOR.MINOR.0) are also taken.
func Valid(s string) bool { return semv(s) != "" }

// Strict reports whether s is a full semantic version as npm publishes
// them: MAJOR.MINOR.PATCH, optional -PRERELEASE and +BUILD, no leading "v"
// and no leading zeros.
func Strict(s string) bool {
	if strings.HasPrefix(s, "v") {
		return false
	}
	v := "v" + s
	return semver.IsValid(v) && semver.Canonical(v)+semver.Build(v) == v
}

// Compare returns -1, 0 or +1 as a is older than, the same as or newer
// than b (build metadata is ignored). A string that is not a version is
// older than every version and the same as any other such string.
func Compare(a, b string) int { return semver.Compare(semv(a), semv(b)) }

// Prerelease returns the prerelease part of v with its "-" ("-beta.1"), or
// "" for a release or a string that is not a version.
func Prerelease(v string) string { return semver.Prerelease(semv(v)) }

// Sort returns the strings of versions that are versions, oldest first;
// versions that compare the same keep their order.
func Sort(versions []string) []string {
	var out []string
	for _, s := range versions {
		if Valid(s) {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return Compare(out[i], out[j]) < 0 })
	return out
}

// Newest returns the newest release among versions (prereleases and
// strings that are not versions left out), "" when there is none: what
// "newest" means wherever a client's published versions are chosen from.
func Newest(versions []string) string {
	newest := ""
	for _, v := range versions {
		if Valid(v) && Prerelease(v) == "" && (newest == "" || Compare(v, newest) > 0) {
			newest = v
		}
	}
	return newest
}
