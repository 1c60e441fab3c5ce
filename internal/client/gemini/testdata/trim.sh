#!/bin/sh
# trim.sh RUN_DIR ROW: copies the evidence of one real Gemini CLI run (a run
# dir of "instrlab run -out") into testdata/ROW, trimmed: stdout whole,
# stderr only its lines about MCP servers and errors, each cut to 2000
# bytes, with the run's directory replaced by $RUN.
set -eu
run=$1 row=$2
mkdir -p "testdata/$row"
sed "s|$run|\$RUN|g" "$run/client/stdout.txt" > "testdata/$row/stdout.txt"
grep -a -i "mcp\|server '\|error\|failed" "$run/client/stderr.txt" | cut -c1-2000 | sed "s|$run|\$RUN|g" > "testdata/$row/stderr.txt" || true
