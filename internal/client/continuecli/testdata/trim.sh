#!/bin/sh
# trim.sh RUN_DIR ROW: copies the evidence of one real Continue CLI run (a
# run dir of "instrlab run -out", or one laid out the same by hand) into
# testdata/ROW, trimmed: stdout and stderr, the saved session, and of the log only
# its warn and error lines, those about MCP and the streamChatResponse
# line, each cut to 2000 bytes, the API key replaced by KEY and the run's
# directory by $RUN.
set -eu
run=$1 row=$2
mkdir -p "testdata/$row"
for f in stdout stderr; do
  sed "s|$run|\$RUN|g" "$run/client/$f.txt" > "testdata/$row/$f.txt"
done
for s in "$run"/home/.continue/sessions/*-*.json; do
  [ -f "$s" ] && sed "s|$run|\$RUN|g" "$s" > "testdata/$row/session.json"
done
grep -a '\[warn\]\|\[error\]\|MCP\|streamChatResponse called' "$run/home/.continue/logs/cn.log" | grep -v 'event loop lag' |
  cut -c1-2000 | sed -e "s|$run|\$RUN|g" -e 's|"apiKey":"[^"]*"|"apiKey":"KEY"|g' > "testdata/$row/cn.log" || true
