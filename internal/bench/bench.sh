#!/usr/bin/env bash
# bench.sh reproduces the README's benchmark: it builds instrlab, instrlab-lab
# and the bare go-sdk server the same way (go build, default flags; lab is
# "instrlab serve lab", lablite the same lab as the small instrlab-lab binary;
# bare1 is the bare server with one tool, the baseline of issue 9), installs
# @modelcontextprotocol/server-everything and a Node 22 to run it (pinned,
# into a cache directory, once), and runs instrlab bench on them all,
# interleaved. Flags are passed on to instrlab bench (e.g. -format json).
set -euo pipefail

NODE_VERSION=22.23.3
EVERYTHING_VERSION=2026.8.31

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cache=${INSTRLAB_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/instrlab/bench}
stamp="node@$NODE_VERSION server-everything@$EVERYTHING_VERSION"
if [[ ! -f $cache/stamp || $(<"$cache/stamp") != "$stamp" ]]; then
	echo "bench: installing $stamp into $cache" >&2
	mkdir -p "$cache"
	rm -f "$cache/stamp"
	npm install --prefix "$cache" --no-audit --no-fund --loglevel=error \
		"node@$NODE_VERSION" "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION" >&2
	printf '%s' "$stamp" >"$cache/stamp"
fi

bin=$(mktemp -d "${TMPDIR:-/tmp}/instrlab-bench.XXXXXX")
trap 'rm -rf "$bin"' EXIT
(cd "$root" && go build -o "$bin/instrlab" ./cmd/instrlab && go build -o "$bin/instrlab-lab" ./cmd/instrlab-lab && go build -o "$bin/bare" ./internal/bench/bareserver)

"$bin/instrlab" bench -throughput lab,lablite,bare,bare1 "$@" \
	lab="$bin/instrlab serve lab -log {log}" \
	lablite="$bin/instrlab-lab -log {log}" \
	bare="$bin/bare" \
	bare1="$bin/bare -tools 1" \
	everything="$cache/node_modules/node/bin/node $cache/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio"
