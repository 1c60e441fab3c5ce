#!/usr/bin/env bash
# The Action's run mode (action.yml, mode: run): the user's server through
# the real, pinned clients (or their newest releases: clients newest),
# offline ("instrlab run -server ..."), compared with a baseline committed
# in the user's repository as "instrlab run -baseline" compares (here
# "instrlab diff", so a change and a failed run have exit codes of their
# own). The evidence directory, with table.html, results.json and
# tested.md (the "tested with" table), is the step's output "out" (the
# next step uploads it); the summary table, the comparison and the tested
# table go to the job summary. With open-issue, each client that changed
# since the baseline gets one issue, opened or updated through the GitHub
# API (docs/action.md, The watch). Inputs come as INPUT_* variables, so
# the script runs outside GitHub too (cmd/instrlab/action_run_test.go).
# Every list input may span lines.
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
open_issue=${INPUT_OPEN_ISSUE:-false}
case "$open_issue" in
  false | true | all) ;;
  *)
    echo "::error title=instrlab run::open-issue $open_issue: want false, true (a change) or all (a change, or a client that could not run)"
    exit 2
    ;;
esac
if [ "$open_issue" != false ] && { [ -z "${INPUT_TOKEN:-}" ] || [ -z "${GITHUB_REPOSITORY:-}" ]; }; then
  echo "::error title=instrlab run::open-issue needs the input token (default: the workflow's token, with permissions issues: write) and GITHUB_REPOSITORY"
  exit 2
fi

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
issue_failed=0

# github calls the GitHub REST API: github METHOD PATH [JSON], the answer
# on stdout; curl fails on an HTTP error.
github() {
  curl -fsS -X "$1" "${GITHUB_API_URL:-https://api.github.com}/repos/$GITHUB_REPOSITORY/$2" \
    -H "Authorization: Bearer $INPUT_TOKEN" -H "Accept: application/vnd.github+json" \
    -H "X-GitHub-Api-Version: 2022-11-28" ${3:+--data-binary "$3"}
}

# issues opens or updates one issue per client that changed since the
# baseline (and, with open-issue all, per client that could not run): its
# title names the client and both versions, so the same change updates
# its issue and the next one opens another; its body is instrlab's
# Markdown of that client's comparison, cut to fit GitHub's limit, and
# where the evidence is.
issues() {
  local base=$1 json name before after title body number what
  json=$("$instrlab" diff -json "$base" "$out" 2>/dev/null)
  while IFS=$'\t' read -r name before after what; do
    [ -n "$name" ] || continue
    if [ "$what" = change ]; then
      title="instrlab watch: $name ${after#*@} changed what reaches the model (since ${before#*@})"
    else
      title="instrlab watch: $name ${after#*@} could not be run (the baseline ran ${before#*@})"
    fi
    body=$(
      "$instrlab" diff -format md -client "$name" "$base" "$out" 2>/dev/null | head -c 60000
      echo
      echo "Before: \`$before\` (the baseline, \`$(printf '%s' "$base" | tr -d '\`')\`); after: \`$after\`."
      if [ -n "$run_url" ]; then
        echo "Evidence: the artifact \`${INPUT_ARTIFACT:-instrlab-run}\` of [this workflow run]($run_url)."
      fi
      echo
      echo "Opened by the instrlab Action (open-issue: $open_issue); the next run with the same change updates this issue."
    )
    # The label first; then every open issue, in case the token could not
    # set labels (GitHub drops them silently then).
    number=$({ github GET "issues?state=open&per_page=100&labels=instrlab-watch" && github GET "issues?state=open&per_page=100"; } |
      jq -rs --arg t "$title" '[.[][] | select(.title == $t and (.pull_request | not)) | .number][0] // empty') || return 1
    if [ -n "$number" ]; then
      github PATCH "issues/$number" "$(jq -nc --arg b "$body" '{body: $b}')" >/dev/null || return 1
      echo "::notice title=instrlab run::updated issue #$number: $title"
    else
      number=$(github POST issues "$(jq -nc --arg t "$title" --arg b "$body" '{title: $t, body: $b, labels: ["instrlab-watch"]}')" | jq -r .number) || return 1
      echo "::notice title=instrlab run::opened issue #$number: $title"
    fi
  done < <(printf '%s' "$json" | jq -r --arg all "$open_issue" '.clients[]? |
    if .changes > 0 then [.name, .before, .after, "change"]
    elif .failed and $all == "all" then [.name, .before, .after, "failure"]
    else empty end | @tsv')
}
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

# The "tested with" table for the server's README, each version linking to
# this workflow run (where the artifact is).
run_url=""
if [ -n "${GITHUB_REPOSITORY:-}" ] && [ -n "${GITHUB_RUN_ID:-}" ]; then
  run_url="${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID"
fi
if "$instrlab" report -format tested -link "$run_url" "$out" >"$out/tested.md" 2>"$out.tested.err"; then
  { echo; cat "$out/tested.md"; } >>"$summary"
else
  rm -f "$out/tested.md"
  log "$out.tested.err"
fi

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
  # The Markdown of the same comparison: each client's outcome first,
  # server text escaped by instrlab.
  {
    echo
    echo "### Since the baseline ($(printf '%s' "$baseline" | escape))"
    echo
    "$instrlab" diff -format md "$baseline" "$out" 2>/dev/null
  } >>"$summary"
  if [ "$changed" -ge 2 ]; then
    echo "::error title=instrlab run::instrlab diff $baseline: exit $changed"
    exit "$changed"
  fi
  [ "$changed" -eq 1 ] && echo "::warning title=instrlab run::something changed since the baseline $baseline, or could not be compared (the job summary says what)"
  if [ "$changed" -eq 1 ] && [ "$open_issue" != false ]; then
    if ! issues "$baseline"; then
      echo "::error title=instrlab run::could not open or update an issue through the GitHub API (curl's message is above; the token needs permissions issues: write)"
      issue_failed=1
    fi
  fi
fi

case "$fail_on" in
  never) exit "$issue_failed" ;;
  failure) [ "$failed" -ne 0 ] && exit "$failed"; exit "$issue_failed" ;;
  change) [ "$failed" -ne 0 ] && exit "$failed"; [ "$changed" -ne 0 ] && exit "$changed"; exit "$issue_failed" ;;
esac
