#!/usr/bin/env bash
# Checks .goreleaser.yaml as `goreleaser check` and a one-target snapshot
# would, without compiling GoReleaser itself (about 13 minutes of CPU,
# docs/release.md): internal/tools/releasecheck (a module of its own)
# loads the config with GoReleaser's own strict loader, builds every build
# of it for linux/amd64 with the config's main, binary, env and ldflags,
# and checks the archives' files; this script then checks that the tag
# workflow runs the GoReleaser version the config's header names, and that
# the snapshot's binaries run.
set -euo pipefail
cd "$(dirname "$0")/.."
config=.goreleaser.yaml
fail() { echo "release config: $*" >&2; exit 1; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd internal/tools/releasecheck && go test -count=1 . && go run . -config "../../../$config" -out "$out")
for bin in "$out"/*; do
  "$bin" -h >/dev/null 2>&1 || "$bin" version >/dev/null 2>&1 || fail "the snapshot's $(basename "$bin") does not run"
done

want=$(grep -o 'goreleaser/v2@v[0-9.]*' "$config" | sort -u)
[ "$(echo "$want" | wc -l)" = 1 ] || fail "the config's header names several GoReleaser versions: $want"
[ "${want#*@}" = "$(grep -o 'github.com/goreleaser/goreleaser/v2 v[0-9.]*' internal/tools/releasecheck/go.mod | cut -d' ' -f2)" ] ||
  fail "internal/tools/releasecheck loads the config with another GoReleaser than the config's header, $want"
grep -q "$want" .github/workflows/release.yml || fail ".github/workflows/release.yml does not run $want"
echo "release config: $want in the tag workflow and in releasecheck; the snapshot's $(ls "$out" | wc -l) binaries run"
