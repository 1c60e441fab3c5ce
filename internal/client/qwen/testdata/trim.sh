#!/bin/sh
# trim.sh RUN_DIR ROW: copies the evidence of one real Qwen Code run (a run
# dir of "instrlab run -out") into testdata/ROW, trimmed: stdout whole, the
# debug log only its WARN, ERROR and MCP lines, each cut to 2000 bytes, with
# the run's directory replaced by $RUN.
set -eu
run=$1 row=$2
mkdir -p "testdata/$row"
sed "s|$run|\$RUN|g" "$run/client/stdout.txt" > "testdata/$row/stdout.txt"
cat "$run"/home/.qwen/debug/*.txt | grep -a 'WARN\|ERROR\|MCP' | cut -c1-2000 | sed "s|$run|\$RUN|g" > "testdata/$row/debug.txt" || true
