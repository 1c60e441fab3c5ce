#!/usr/bin/env bash
# The Action's run mode (action.yml, mode: run): the user's server through
# the real, pinned clients, offline ("instrlab run -server ..."), compared
# with a baseline committed in the user's repository as "instrlab run
# -baseline" compares (here "instrlab diff", so a change and a failed run
# have exit codes of their own). The evidence directory, with table.html
# and results.json, is the step's output "out" (the next step uploads it);
# the summary table and the comparison go to the job summary, HTML-escaped.
# Inputs come as INPUT_* variables, so the script runs outside GitHub too
# (cmd/instrlab/action_test.go). Every list input may span lines.
set -uo pipefail

instrlab=${INSTRLAB:-instrlab}
summary=${GITHUB_STEP_SUMMARY:-/dev/null}
# words splits on white space, new lines included, as a shell would
# (without its quotes); a list of clients may also use commas.
words() { read -r -d '' -a words <<<"$1" || true; }

fail_on=${INPUT_FAIL_ON:-change}
case "$fail_on" in
  change | failure | never) ;;
  *)
    echo "::error title=instrlab run::fail-on $fail_on: want change, failure or never in mode run"
    exit 2
    ;;
esac

words "$(printf '%s' "${INPUT_CLIENTS:-all}" | tr ',' ' ')"
clients=("${words[@]}")
words "${INPUT_ARGS:-}"
args=("${words[@]}")
for c in "${clients[@]}"; do args+=(-client "$c"); done
if [ -n "${INPUT_CONFIG:-}" ]; then
  args+=(-config "$INPUT_CONFIG")
elif [ -n "${INPUT_URL:-}" ]; then
  args+=(-server "$INPUT_URL")
elif [ -n "${INPUT_COMMAND:-}" ]; then
  words "$INPUT_COMMAND"
  args+=(-server -- "${words[@]}")
else
  echo "::error title=instrlab run::set one of the inputs command, url or config"
  exit 2
fi

escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }
# Server text reaches the log: no line of it may act as a workflow command.
log() {
  local token
  token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  echo "::stop-commands::$token"
  cat "$@"
  echo "::$token::"
}

# A directory of its own, so two run steps in one job keep both runs.
out=${INSTRLAB_OUT:-$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/instrlab-run.XXXXXX")}
echo "out=$out" >>"${GITHUB_OUTPUT:-/dev/null}"
"$instrlab" run -out "$out" "${args[@]}" >"$out.stdout" 2>"$out.stderr"
code=$?
log "$out.stdout" "$out.stderr"
{
  echo "## instrlab run"
  echo
  echo "<pre>"
  escape <"$out.stdout"
  tail -n 3 "$out.stderr" | escape
  echo "</pre>"
} >>"$summary"
if [ "$code" -ge 2 ] || [ ! -e "$out/results.json" ]; then
  echo "::error title=instrlab run::instrlab run exited $code without results.json (its messages are in the log above)"
  exit $((code > 0 ? code : 1))
fi
failed=$code

changed=0
baseline=${INPUT_BASELINE:-}
if [ -z "$baseline" ]; then
  echo "::notice title=instrlab run::no baseline: commit $out/results.json (and matrix.json beside it; both are in the artifact) and name it in the input baseline"
elif [ ! -e "$baseline" ]; then
  echo "::warning title=instrlab run::the baseline $baseline does not exist: nothing compared; commit results.json and matrix.json from this run's artifact there"
else
  "$instrlab" diff "$baseline" "$out" >"$out.diff" 2>&1
  changed=$?
  log "$out.diff"
  {
    echo
    echo "### Since the baseline ($baseline)"
    echo
    echo "<pre>"
    escape <"$out.diff"
    echo "</pre>"
  } >>"$summary"
  if [ "$changed" -ge 2 ]; then
    echo "::error title=instrlab run::instrlab diff $baseline: exit $changed"
    exit "$changed"
  fi
  [ "$changed" -eq 1 ] && echo "::warning title=instrlab run::something changed since the baseline $baseline (the job summary says what)"
fi

case "$fail_on" in
  never) exit 0 ;;
  failure) exit "$failed" ;;
  change) [ "$failed" -ne 0 ] && exit "$failed"; exit "$changed" ;;
esac
