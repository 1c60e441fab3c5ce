#!/bin/sh
# trim.sh RUN_DIR ROW: copies the evidence of one real codex run (a run dir
# of "instrlab run -out") into testdata/ROW, trimmed: stdout whole, stderr
# only its lines about MCP and its WARN and ERROR lines, each cut to 2000
# bytes, with the run's directory replaced by $RUN.
set -eu
run=$1 row=$2
mkdir -p "testdata/$row"
sed "s|$run|\$RUN|g" "$run/client/stdout.txt" > "testdata/$row/stdout.txt"
grep -a -i 'mcp\| WARN \| ERROR ' "$run/client/stderr.txt" | cut -c1-2000 | sed "s|$run|\$RUN|g" > "testdata/$row/stderr.txt" || true
