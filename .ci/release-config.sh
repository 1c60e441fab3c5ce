#!/usr/bin/env bash
# Checks .goreleaser.yaml as `goreleaser check` and a one-target snapshot
# would, without compiling GoReleaser itself (about 13 minutes of CPU,
# docs/release.md): internal/tools/releasecheck (a module of its own)
# loads the config with GoReleaser's own strict loader, builds every build
# of it for linux/amd64 with the config's main, binary, env and ldflags,
# and checks the archives' files; this script then checks that the tag
# workflow runs the GoReleaser version the config's header names, and that
# the snapshot's binaries run.
#
# The loader's verdict depends only on the files in $inputs below. It
# compiles 268 packages of GoReleaser's (go-git, OpenPGP, ...): 150-190 s
# of CPU cold, more than a tenth of the cold CI (2026-12-07). So once it
# has passed, the inputs' SHA-256 sums are written to $stamp, and while
# they match, the loader and its builds are not run again (-force runs
# them): the builds are the module's own, which CI's go vet and tests
# compile and run without cgo as the config builds them. A commit that
# changes an input and not the stamp runs the check in CI; commit the
# stamp this script writes.
set -euo pipefail
cd "$(dirname "$0")/.."
config=.goreleaser.yaml
fail() { echo "release config: $*" >&2; exit 1; }

inputs=(.goreleaser.yaml .ci/release-config.sh internal/tools/releasecheck/go.mod internal/tools/releasecheck/go.sum internal/tools/releasecheck/main.go internal/tools/releasecheck/main_test.go)
stamp=internal/tools/releasecheck/passed.sha256
sums=$(sha256sum "${inputs[@]}")

if [ "${1:-}" != -force ] && [ -f "$stamp" ] && [ "$sums" = "$(cat "$stamp")" ]; then
  echo "release config: GoReleaser's loader and the builds passed on these inputs ($stamp); not run again (-force runs them)"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  (cd internal/tools/releasecheck && go test -count=1 . && go run . -config "../../../$config" -out "$out")
  for bin in "$out"/*; do
    "$bin" -h >/dev/null 2>&1 || "$bin" version >/dev/null 2>&1 || fail "the snapshot's $(basename "$bin") does not run"
  done
  echo "release config: the snapshot's $(ls "$out" | wc -l) binaries run"
  if [ "$sums" != "$(cat "$stamp" 2>/dev/null)" ]; then
    echo "$sums" > "$stamp"
    echo "release config: passed; wrote $stamp: commit it, and CI need not run the loader again"
  fi
fi

want=$(grep -o 'goreleaser/v2@v[0-9.]*' "$config" | sort -u)
[ "$(echo "$want" | wc -l)" = 1 ] || fail "the config's header names several GoReleaser versions: $want"
[ "${want#*@}" = "$(grep -o 'github.com/goreleaser/goreleaser/v2 v[0-9.]*' internal/tools/releasecheck/go.mod | cut -d' ' -f2)" ] ||
  fail "internal/tools/releasecheck loads the config with another GoReleaser than the config's header, $want"
grep -q "$want" .github/workflows/release.yml || fail ".github/workflows/release.yml does not run $want"
echo "release config: $want in the tag workflow and in releasecheck"
