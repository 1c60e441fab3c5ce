#!/bin/sh
# trim.sh RUN_DIR ROW: copies the evidence of one real Kilo Code CLI run (a
# run dir of "instrlab run -out") into testdata/ROW, trimmed: stdout whole,
# stderr without its config-loading lines, stack frames and blank lines,
# each line cut to 2000 bytes, with the run's directory replaced by $RUN.
set -eu
run=$1 row=$2
mkdir -p "testdata/$row"
sed "s|$run|\$RUN|g" "$run/client/stdout.txt" > "testdata/$row/stdout.txt"
grep -a -v 'message=loading path\|message=fromDirectory\|^ *at \|^$' "$run/client/stderr.txt" | cut -c1-2000 | sed "s|$run|\$RUN|g" > "testdata/$row/stderr.txt" || true
