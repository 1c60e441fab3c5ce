#!/usr/bin/env bash
# The Action's first step (action.yml): reject a mode it does not know,
# before anything is downloaded; then download the instrlab release
# archive for this runner and verify it against the release's
# checksums.txt, or say fallback=yes so the next step builds instrlab with
# go install at the action's own ref. A checksum that does not match stops
# the job: a binary that is not the one released is never run, nor
# replaced by a build.
#
# Inputs (environment): INPUT_MODE, INPUT_VERSION, ACTION_REF, ACTION_REPOSITORY,
# GITHUB_TOKEN; RUNNER_OS, RUNNER_ARCH and RUNNER_TEMP as GitHub sets them.
# INSTRLAB_RELEASES overrides the download base (default
# https://github.com/REPO/releases/download), INSTRLAB_API the GitHub API
# (for a major tag such as v1), so the script runs against a local server
# in tests (cmd/instrlab/action_test.go).
set -uo pipefail

case "${INPUT_MODE:-check}" in
  check | run) ;;
  *)
    echo "::error title=instrlab::mode $INPUT_MODE: want check or run"
    exit 2
    ;;
esac

out=${GITHUB_OUTPUT:-/dev/null}
fallback() {
  echo "::notice title=instrlab::$1: building instrlab with go install at the action's ref instead"
  echo "fallback=yes" >>"$out"
  exit 0
}

repo=${ACTION_REPOSITORY:-instrlab/instrlab}
tag=${INPUT_VERSION:-${ACTION_REF:-}}
[ -n "$tag" ] || fallback "no release named (the action's ref is unknown)"

case "${RUNNER_OS:-$(uname -s)}" in
  Linux) os=linux ;;
  macOS | Darwin) os=darwin ;;
  Windows | MINGW* | MSYS*) os=windows ;;
  *) fallback "no release for runner OS ${RUNNER_OS:-$(uname -s)}" ;;
esac
case "${RUNNER_ARCH:-$(uname -m)}" in
  X64 | x86_64 | amd64) arch=amd64 ;;
  ARM64 | arm64 | aarch64) arch=arm64 ;;
  *) fallback "no release for runner architecture ${RUNNER_ARCH:-$(uname -m)}" ;;
esac

curl_() {
  local auth=()
  [ -n "${GITHUB_TOKEN:-}" ] && auth=(-H "Authorization: Bearer $GITHUB_TOKEN")
  curl -fsSL --retry 2 --max-time 120 "${auth[@]}" "$@"
}

# A major tag (v1) is the newest release of that major version; the API
# lists releases newest first.
if [[ $tag =~ ^v[0-9]+$ ]]; then
  api=${INSTRLAB_API:-https://api.github.com}
  newest=$(curl_ "$api/repos/$repo/releases?per_page=100" 2>/dev/null |
    grep -o '"tag_name": *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/' | grep -E "^$tag\.[0-9]+\.[0-9]+$" | head -n 1)
  [ -n "$newest" ] || fallback "no release of $tag found"
  tag=$newest
fi
[[ $tag =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || fallback "the action's ref $tag is not a release"

version=${tag#v}
ext=tar.gz
[ "$os" = windows ] && ext=zip
archive="instrlab_${version}_${os}_${arch}.$ext"
base=${INSTRLAB_RELEASES:-https://github.com/$repo/releases/download}/$tag
dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/instrlab-$tag-$os-$arch"
rm -rf "$dir" && mkdir -p "$dir"
curl_ -o "$dir/$archive" "$base/$archive" || fallback "could not download $base/$archive"
curl_ -o "$dir/checksums.txt" "$base/checksums.txt" || fallback "could not download $base/checksums.txt"

want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$dir/checksums.txt")
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$dir/$archive" | cut -d' ' -f1)
else
  got=$(shasum -a 256 "$dir/$archive" | cut -d' ' -f1)
fi
if [ -z "$want" ] || [ "$want" != "$got" ]; then
  echo "::error title=instrlab::checksum mismatch for $archive of $tag: checksums.txt says ${want:-nothing}, the download is $got; refusing to run it"
  exit 1
fi

if [ "$ext" = zip ]; then
  unzip -q -o "$dir/$archive" -d "$dir" || { echo "::error title=instrlab::cannot unpack $archive"; exit 1; }
  bin="$dir/instrlab.exe"
else
  tar -xzf "$dir/$archive" -C "$dir" || { echo "::error title=instrlab::cannot unpack $archive"; exit 1; }
  bin="$dir/instrlab"
fi
"$bin" version >/dev/null || { echo "::error title=instrlab::$bin from $archive does not run"; exit 1; }
echo "instrlab $tag ($os/$arch), sha256 $got"
echo "INSTRLAB=$bin" >>"${GITHUB_ENV:-/dev/null}"
echo "fallback=no" >>"$out"
