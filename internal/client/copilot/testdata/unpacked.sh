#!/bin/sh
# Lays out unpacked/VERSION and packages/VERSION, the shapes of the
# installs the atlas sweep of 2026-12-02 left, for TestFindUnpacked and
# TestNodeScript: each top-level .js file of each unpacked package, where its
# executable put it under the HOME it unpacked with (pkg-cache), and each
# top-level .js file of node_modules/@github/copilot; every file empty but
# npm-loader.js, which keeps the test of the Node.js version it refuses.
# Usage: sh testdata/unpacked.sh  (from internal/client/copilot)
set -eu
clients=${XDG_CACHE_HOME:-$HOME/.cache}/instrlab/clients
rm -rf unpacked packages
for dir in "$clients"/copilot@*/; do
	dir=${dir%/}
	v=${dir##*@}
	for js in "$dir"/node_modules/@github/copilot/*.js; do
		[ -f "$js" ] || continue
		mkdir -p packages/"$v"
		case $js in
		*/npm-loader.js) grep -o 'parseInt(process.versions.node[^&]*' "$js" >packages/"$v"/npm-loader.js || : >packages/"$v"/npm-loader.js ;;
		*) : >packages/"$v"/"$(basename "$js")" ;;
		esac
	done
	[ -d "$dir"/pkg-cache ] || continue
	find "$dir"/pkg-cache -maxdepth 6 -path "*/linux-x64/$v/*.js" | while read -r js; do
		rel=${js#"$dir"/pkg-cache/}
		case $rel in */linux-x64/"$v"/*/*) continue ;; esac
		mkdir -p "unpacked/$v/$(dirname "$rel")"
		: >"unpacked/$v/$rel"
	done
done
find unpacked packages -type f | sort
