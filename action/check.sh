#!/usr/bin/env bash
# The logic of the instrlab GitHub Action (action.yml): run "instrlab check"
# on the server named by the inputs, write its findings as workflow
# annotations (stdout, -format github) and a Markdown job summary
# ($GITHUB_STEP_SUMMARY), and fail the step as fail-on says. Inputs come
# as INPUT_* variables, so the script runs outside GitHub too (see
# cmd/instrlab/action_test.go).
set -uo pipefail

instrlab=${INSTRLAB:-instrlab}
fail_on=${INPUT_FAIL_ON:-rule}
case "$fail_on" in
  rule | unreachable | never) ;;
  *)
    echo "::error title=instrlab check::fail-on $fail_on: want rule, unreachable or never in mode check"
    exit 2
    ;;
esac
args=()
if [ -n "${INPUT_CONFIG:-}" ]; then
  args+=(-config "$INPUT_CONFIG")
fi
if [ -n "${INPUT_PROFILES:-}" ]; then
  args+=(-profile "$INPUT_PROFILES")
fi
# Rules, extra arguments and the command are split on white space, line
# breaks included (a YAML block gives one rule a line), as a shell would.
words() { read -r -d '' -a "$1" <<<"${2:-}" || true; }
words rules "${INPUT_RULES:-}"
words extra "${INPUT_ARGS:-}"
args+=("${rules[@]}" "${extra[@]}")
if [ -n "${INPUT_URL:-}" ]; then
  args+=("$INPUT_URL")
elif [ -n "${INPUT_COMMAND:-}" ]; then
  words server "$INPUT_COMMAND"
  args+=(-- "${server[@]}")
elif [ -z "${INPUT_CONFIG:-}" ]; then
  echo "::error title=instrlab check::set one of the inputs command, url or config"
  exit 2
fi

summary=${GITHUB_STEP_SUMMARY:-/dev/null}
"$instrlab" check -format github "${args[@]}"
code=$?
{
  echo "# instrlab check"
  echo
  # The verdicts and what to change, in Markdown: check escapes the
  # server's text for Markdown itself.
  "$instrlab" check -format md "${args[@]}" 2>/dev/null
  echo
  echo "<details><summary>Every client's details (check -v)</summary>"
  echo
  echo "<pre>"
  # Server text is untrusted: escaped for HTML, so it cannot close the block.
  "$instrlab" check -v "${args[@]}" 2>&1 | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'
  echo "</pre>"
  echo "</details>"
} >>"$summary"

case "$fail_on" in
  never) exit 0 ;;
  unreachable) [ "$code" -ge 2 ] && exit "$code"; exit 0 ;;
  *) exit "$code" ;;
esac
