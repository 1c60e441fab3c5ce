#!/bin/sh
# trim.sh RUN_DIR ROW: copies the stdout of one real Droid run (a run dir of
# "instrlab run -out", or any folder holding client/stdout.txt) into
# testdata/ROW, with the run's directory replaced by $RUN.
set -eu
run=$1 row=$2
mkdir -p "testdata/$row"
sed -e "s|$run|\$RUN|g" "$run/client/stdout.txt" > "testdata/$row/stdout.txt"
