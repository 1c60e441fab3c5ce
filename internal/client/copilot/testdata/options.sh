#!/bin/sh
# Writes options/VERSION.txt: which of the long options a run may pass
# (wanted, below) the unpacked package of each installed copilot@VERSION
# defines, one a line, sorted, for TestFlagsKnownToVersion. Up to 1.0.83
# the options are commander's, in the JavaScript ("--name" in a string);
# from 1.0.87 they are in
# prebuilds/linux-x64/cli-native.node, each name after its constant
# (NO_CUSTOM_INSTRUCTIONSno-custom-instructions, STREAMOUTPUT_FORMAToutput-format).
# Usage: sh testdata/options.sh  (from internal/client/copilot)
set -eu
wanted='--output-format --log-level --log-dir --allow-all-tools --no-auto-update --no-custom-instructions --disable-client-telemetry --no-color --allow-all-mcp-server-instructions'
clients=${XDG_CACHE_HOME:-$HOME/.cache}/instrlab/clients
for dir in "$clients"/copilot@*/pkg-cache; do
	v=${dir%/pkg-cache}
	v=${v##*@}
	pkg=$(find "$dir" -maxdepth 5 -type d -path "*/linux-x64/$v" | head -1)
	[ -n "$pkg" ] || continue
	native=$pkg/prebuilds/linux-x64/cli-native.node
	if [ -f "$native" ] && grep -a -q NO_CUSTOM_INSTRUCTIONSno-custom-instructions "$native"; then
		{
			strings -n 6 "$native" | grep -o '[A-Z][A-Z0-9_]*[a-z][a-z0-9-]*' |
				awk '{ i = match($0, /[a-z]/); k = substr($0, 1, i - 1); n = substr($0, i); u = toupper(n); gsub("-", "_", u)
					if (length(k) >= length(u) && substr(k, length(k) - length(u) + 1) == u) print "--" n }'
			# --no-color's name is not stored beside its description there.
			if strings -n 6 "$native" | grep -q 'Disable all color output'; then echo --no-color; fi
		}
	else
		cat "$pkg"/*.js | grep -a -o '["`]--[a-z][a-z0-9-]*' | cut -c2-
	fi | sort -u | grep -x -F -e "$(printf '%s\n' $wanted)" >options/"$v".txt || true
	echo "options/$v.txt: $(wc -l <options/"$v".txt) options"
done
