#!/bin/sh
# trim.sh RUN_DIR ROW: copies the stdout of one real Cline run (a run dir
# of "instrlab run -out") into testdata/ROW, without the stack traces of
# error events, with the run's directory replaced by $RUN.
set -eu
run=$1 row=$2
mkdir -p "testdata/$row"
sed -e "s|$run|\$RUN|g" -e 's|,"stack":"[^"]*"||g' "$run/client/stdout.txt" > "testdata/$row/stdout.txt"
