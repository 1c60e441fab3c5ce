#!/usr/bin/env bash
# Checks what a change in this repository can break in .goreleaser.yaml
# without building GoReleaser (docs/release.md): every build's main package
# exists and is a command, every binary name is unique, every archive file
# pattern matches a tracked file, and the release workflow pins the same
# GoReleaser version as the config's header.
set -euo pipefail
cd "$(dirname "$0")/.."
config=.goreleaser.yaml
fail() { echo "release config: $*" >&2; exit 1; }

mains=$(sed -n 's/^ *main: *//p' "$config")
[ -n "$mains" ] || fail "no build names a main package"
for main in $mains; do
  name=$(go list -f '{{.Name}}' "$main") || fail "build main $main does not load"
  [ "$name" = main ] || fail "build main $main is package $name, not a command"
done
binaries=$(sed -n 's/^ *binary: *//p' "$config")
[ "$(echo "$binaries" | wc -l)" = "$(echo "$mains" | wc -l)" ] || fail "each build needs one binary name"
[ -z "$(echo "$binaries" | sort | uniq -d)" ] || fail "binary names repeat: $(echo "$binaries" | sort | uniq -d)"
sed -n '/^ *files:/,/^[^ ]/p' "$config" | sed -n 's/^ *- *//p' | while read -r pattern; do
  [ -n "$(git ls-files -- ":(glob)$pattern")" ] || fail "archive file pattern $pattern matches no tracked file"
done
want=$(grep -o 'goreleaser/v2@v[0-9.]*' "$config" | sort -u)
[ "$(echo "$want" | wc -l)" = 1 ] || fail "the config's header names several GoReleaser versions: $want"
grep -q "$want" .github/workflows/release.yml || fail ".github/workflows/release.yml does not run $want"
echo "release config: $(echo "$mains" | wc -w) commands ($(echo $binaries)), archive files present, $want in the tag workflow"
