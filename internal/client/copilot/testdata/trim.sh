#!/bin/sh
# trim.sh RUN_DIR ROW: copies the evidence of one real Copilot CLI run (a
# run dir of "instrlab run -out") into testdata/ROW, trimmed: stdout
# without the session.skills_loaded event (the built-in skills' text), the
# process log only its WARNING, ERROR and MCP lines, each cut to 2000
# bytes, with the run's directory replaced by $RUN.
set -eu
run=$1 row=$2
mkdir -p "testdata/$row"
grep -v '"type":"session.skills_loaded"' "$run/client/stdout.txt" | sed "s|$run|\$RUN|g" > "testdata/$row/stdout.txt"
cat "$run"/client/logs/*.log | grep -a 'WARNING\|ERROR\|MCP' | cut -c1-2000 | sed "s|$run|\$RUN|g" > "testdata/$row/process.log" || true
