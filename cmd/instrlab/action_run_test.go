package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// actionScript runs one of the Action's scripts with env as a workflow
// step would, the GITHUB_* files in a temporary directory, and returns its
// exit code, stdout and stderr, and the GITHUB_OUTPUT, GITHUB_ENV and
// GITHUB_STEP_SUMMARY files it wrote.
func actionScript(t *testing.T, name string, env ...string) (code int, out string, files map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script, err := filepath.Abs(filepath.Join("../../action", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths := map[string]string{}
	for _, f := range []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_STEP_SUMMARY"} {
		paths[f] = filepath.Join(dir, f)
		env = append(env, f+"="+paths[f])
	}
	cmd := exec.Command("bash", script)
	cmd.Env = append(append(os.Environ(), "RUNNER_TEMP="+dir), env...)
	b, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	files = map[string]string{}
	for f, p := range paths {
		c, _ := os.ReadFile(p)
		files[f] = string(c)
	}
	return code, string(b), files
}

// fakeReleases serves releases as GitHub does, from 127.0.0.1: for each
// tag an archive of this platform holding the instrlab built for the
// tests, and checksums.txt; tamper names tags whose archive is not the
// one its checksums.txt names.
func fakeReleases(t *testing.T, tags []string, tamper map[string]bool) (*httptest.Server, string) {
	t.Helper()
	exe, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, tag := range tags {
		name := fmt.Sprintf("instrlab_%s_%s_%s.tar.gz", strings.TrimPrefix(tag, "v"), runtime.GOOS, runtime.GOARCH)
		archive := tarGz(t, "instrlab", exe)
		sum := sha256.Sum256(archive)
		files["/dl/"+tag+"/checksums.txt"] = fmt.Appendf(nil, "%x  %s\n", sum, name)
		if tamper[tag] {
			archive = append(archive, 0)
		}
		files["/dl/"+tag+"/"+name] = archive
	}
	var list strings.Builder
	list.WriteString("[")
	for i, tag := range tags {
		if i > 0 {
			list.WriteString(",")
		}
		fmt.Fprintf(&list, `{"tag_name": %q, "draft": false}`, tag)
	}
	list.WriteString("]")
	files["/api/repos/instrlab/instrlab/releases"] = []byte(list.String())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, srv.URL
}

func tarGz(t *testing.T, name string, content []byte) []byte {
	t.Helper()
	var b strings.Builder
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(content))})
	tw.Write(content)
	tw.Close()
	gz.Close()
	return []byte(b.String())
}

// TestActionInstall runs the Action's install step against releases
// served from 127.0.0.1: a release tag and a major tag download and verify
// the archive; a tampered archive stops the job with that message; a
// branch, or a release that is not there, falls back to go install.
func TestActionInstall(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake release is a tar.gz")
	}
	osName := map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS]
	archName := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	_, url := fakeReleases(t, []string{"v2.0.0", "v1.3.0", "v1.2.9"}, map[string]bool{"v1.2.9": true})
	base := []string{"RUNNER_OS=" + osName, "RUNNER_ARCH=" + archName, "INSTRLAB_RELEASES=" + url + "/dl",
		"INSTRLAB_API=" + url + "/api", "ACTION_REPOSITORY=instrlab/instrlab", "GITHUB_TOKEN="}
	tests := []struct {
		name     string
		env      []string
		code     int
		fallback string
		want     string
	}{
		{"a release tag", []string{"ACTION_REF=v2.0.0"}, 0, "no", "instrlab v2.0.0 (" + runtime.GOOS + "/" + runtime.GOARCH + "), sha256 "},
		{"a major tag: its newest release", []string{"ACTION_REF=v1"}, 0, "no", "instrlab v1.3.0"},
		{"the version input over the ref", []string{"ACTION_REF=v1", "INPUT_VERSION=v2.0.0"}, 0, "no", "instrlab v2.0.0"},
		{"a tampered archive", []string{"INPUT_VERSION=v1.2.9"}, 1, "", "::error title=instrlab::checksum mismatch for instrlab_1.2.9_"},
		{"a branch", []string{"ACTION_REF=main"}, 0, "yes", "the action's ref main is not a release: building instrlab with go install"},
		{"a release that is not there", []string{"ACTION_REF=v9.9.9"}, 0, "yes", "could not download"},
		{"a major tag without release", []string{"ACTION_REF=v7"}, 0, "yes", "no release of v7 found"},
		{"an unknown mode", []string{"ACTION_REF=v2.0.0", "INPUT_MODE=measure"}, 2, "", "::error title=instrlab::mode measure: want check or run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, files := actionScript(t, "install.sh", append(append([]string{}, base...), tt.env...)...)
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, want %d; output lacks %q:\n%s", code, tt.code, tt.want, out)
			}
			if got := strings.TrimSpace(strings.TrimPrefix(files["GITHUB_OUTPUT"], "fallback=")); got != tt.fallback {
				t.Errorf("fallback %q, want %q", got, tt.fallback)
			}
			exe, ok := strings.CutPrefix(strings.TrimSpace(files["GITHUB_ENV"]), "INSTRLAB=")
			if tt.fallback != "no" {
				if ok {
					t.Errorf("INSTRLAB set to %s, want none", exe)
				}
				return
			}
			if v, err := exec.Command(exe, "version").Output(); err != nil || !strings.HasPrefix(string(v), "instrlab ") {
				t.Errorf("the downloaded %s: %v, %s", exe, err, v)
			}
		})
	}
}

// fakeInstrlab is an instrlab for action/run.sh that writes its
// arguments, one a line, to the file $FAKE_ARGS (appending, so a run and
// a diff both show), and behaves as $FAKE_RUN and $FAKE_DIFF say: run
// writes results.json into its -out directory (unless $FAKE_NO_RESULTS),
// prints $FAKE_STDOUT and exits $FAKE_RUN; diff prints a change (with
// -json, $FAKE_DIFF_JSON; with -format md, a line naming its -client)
// and exits $FAKE_DIFF; report -format tested prints a table naming its
// -link.
const fakeInstrlab = `#!/usr/bin/env bash
printf '%s\n' "$@" >>"$FAKE_ARGS"
echo ::end:: >>"$FAKE_ARGS"
case "$1" in
run)
  [ "$2" = -out ] || exit 9
  mkdir -p "$3"
  [ -n "${FAKE_NO_RESULTS:-}" ] || echo '{}' >"$3/results.json"
  printf '%s\n' "${FAKE_STDOUT:-table}"
  echo "1 runs" >&2
  exit "${FAKE_RUN:-0}" ;;
diff)
  case "$2" in
  -json) printf '%s\n' "${FAKE_DIFF_JSON:-{\"clients\": []}}" ;;
  -format) [ "$4" = -client ] && echo "| md diff of $5 |" || echo "| md diff |" ;;
  *) echo "lab  kept  1,000  2,048" ;;
  esac
  exit "${FAKE_DIFF:-0}" ;;
report)
  [ "$2 $3 $4" = "-format tested -link" ] || exit 9
  echo "### Tested with ($5)"
  exit 0 ;;
esac
exit 9
`

// runScript runs action/run.sh with the fake instrlab and env, and returns
// its exit code and output, the GITHUB_* files, and the fake's arguments
// (one call a block, ending "::end::").
func runScript(t *testing.T, env ...string) (code int, out string, files map[string]string, calls string) {
	t.Helper()
	dir := t.TempDir()
	fake := filepath.Join(dir, "instrlab")
	if err := os.WriteFile(fake, []byte(fakeInstrlab), 0o755); err != nil {
		t.Fatal(err)
	}
	argsFile := filepath.Join(dir, "args")
	code, out, files = actionScript(t, "run.sh", append([]string{"INSTRLAB=" + fake, "FAKE_ARGS=" + argsFile,
		"INSTRLAB_OUT=" + filepath.Join(dir, "out")}, env...)...)
	b, _ := os.ReadFile(argsFile)
	return code, out, files, string(b)
}

// TestActionRunScriptArgs: the inputs become instrlab run's arguments,
// lists split on white space and new lines (clients on commas as well),
// the server's command line last; an input missing or wrong stops the
// step with exit 2 before anything runs.
func TestActionRunScriptArgs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake instrlab is a bash script")
	}
	tests := []struct {
		name string
		env  []string
		code int
		want string // the fake's arguments after "run -out OUT"
		msg  string
	}{
		{"a command", []string{"INPUT_CLIENTS=claude-code, codex\ngemini", "INPUT_ARGS=-j 1\n-repeats 2",
			"INPUT_COMMAND=node dist/server.js --tools a,b"}, 0,
			"-j 1 -repeats 2 -client claude-code -client codex -client gemini -server -- node dist/server.js --tools a,b", ""},
		{"a url, every client", []string{"INPUT_URL=http://127.0.0.1:8080/mcp"}, 0,
			"-client all -server http://127.0.0.1:8080/mcp", ""},
		{"a config over a command", []string{"INPUT_CONFIG=.mcp.json", "INPUT_COMMAND=node x.js", "INPUT_CLIENTS=opencode"}, 0,
			"-client opencode -config .mcp.json", ""},
		{"no server", nil, 2, "", "::error title=instrlab run::set one of the inputs command, url or config"},
		{"fail-on of check", []string{"INPUT_COMMAND=node x.js", "INPUT_FAIL_ON=rule"}, 2, "",
			"::error title=instrlab run::fail-on rule: want change, failure or never in mode run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, files, calls := runScript(t, tt.env...)
			if code != tt.code || !strings.Contains(out, tt.msg) {
				t.Fatalf("exit %d, want %d; output lacks %q:\n%s", code, tt.code, tt.msg, out)
			}
			if tt.want == "" {
				if calls != "" {
					t.Errorf("instrlab ran after a usage error: %q", calls)
				}
				return
			}
			outDir := strings.TrimPrefix(strings.TrimSpace(files["GITHUB_OUTPUT"]), "out=")
			first, _, _ := strings.Cut(calls, "::end::\n")
			got := strings.Join(strings.Fields(first), " ")
			if diff := cmp.Diff("run -out "+outDir+" "+tt.want, got); diff != "" {
				t.Errorf("arguments mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestActionRunScriptFailOn: which outcomes of the run and of the
// comparison with the baseline fail the step, per fail-on; what is not
// compared says why.
func TestActionRunScriptFailOn(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake instrlab is a bash script")
	}
	baseline := filepath.Join(t.TempDir(), "results.json")
	if err := os.WriteFile(baseline, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name           string
		failOn         string
		run, diff      string
		baseline       string
		code           int
		msg            string
		diffed, noFile bool
	}{
		{"nothing changed", "change", "0", "0", baseline, 0, "", true, false},
		{"a change", "change", "0", "1", baseline, 1, "::warning title=instrlab run::something changed since the baseline", true, false},
		{"a failed run", "change", "1", "0", baseline, 1, "", true, false},
		{"a change, fail-on failure", "failure", "0", "1", baseline, 0, "something changed", true, false},
		{"a failed run, fail-on failure", "failure", "1", "0", baseline, 1, "", true, false},
		{"both, fail-on never", "never", "1", "1", baseline, 0, "something changed", true, false},
		{"no baseline", "change", "0", "1", "", 0, "::notice title=instrlab run::no baseline: commit ", false, false},
		{"a baseline not there", "change", "0", "1", baseline + ".gone", 0, "::warning title=instrlab run::the baseline " + baseline + ".gone does not exist", false, false},
		{"run's usage error, fail-on never", "never", "2", "0", baseline, 2, "::error title=instrlab run::instrlab run exited 2 without results.json", false, true},
		{"no results.json", "never", "0", "0", baseline, 1, "::error title=instrlab run::instrlab run exited 0 without results.json", false, true},
		{"diff's usage error", "never", "0", "2", baseline, 2, "::error title=instrlab run::instrlab diff " + baseline + ": exit 2", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := []string{"INPUT_COMMAND=node x.js", "INPUT_FAIL_ON=" + tt.failOn, "FAKE_RUN=" + tt.run, "FAKE_DIFF=" + tt.diff,
				"INPUT_BASELINE=" + tt.baseline}
			if tt.noFile {
				env = append(env, "FAKE_NO_RESULTS=1")
			}
			code, out, files, calls := runScript(t, env...)
			if code != tt.code || !strings.Contains(out, tt.msg) {
				t.Fatalf("exit %d, want %d; output lacks %q:\n%s", code, tt.code, tt.msg, out)
			}
			if got := strings.Contains(calls, "\ndiff\n"+tt.baseline+"\n"); got != tt.diffed {
				t.Errorf("compared with the baseline: %v, want %v; calls:\n%s", got, tt.diffed, calls)
			}
			if got := strings.Contains(files["GITHUB_STEP_SUMMARY"], "### Since the baseline"); got != tt.diffed {
				t.Errorf("summary has the comparison: %v, want %v:\n%s", got, tt.diffed, files["GITHUB_STEP_SUMMARY"])
			}
		})
	}
}

// TestActionRunScriptUntrusted: what instrlab prints holds server text; in
// the log it cannot act as a workflow command, in the job summary it
// cannot close the <pre> block or add markup.
func TestActionRunScriptUntrusted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake instrlab is a bash script")
	}
	evil := "lab  ::error::forged  </pre><script>x</script> & more"
	_, out, files, _ := runScript(t, "INPUT_COMMAND=node x.js", "FAKE_STDOUT="+evil)
	start := strings.Index(out, "::stop-commands::")
	at := strings.Index(out, evil)
	if start < 0 || at < start {
		t.Fatalf("the server's text is not after ::stop-commands:::\n%s", out)
	}
	token, _, _ := strings.Cut(out[start+len("::stop-commands::"):], "\n")
	if end := strings.Index(out, "::"+token+"::"); len(token) < 16 || end < at {
		t.Errorf("commands not resumed with the token %q after the server's text:\n%s", token, out)
	}
	s := files["GITHUB_STEP_SUMMARY"]
	if want := "lab  ::error::forged  &lt;/pre&gt;&lt;script&gt;x&lt;/script&gt; &amp; more"; !strings.Contains(s, want) || strings.Contains(s, "<script>") {
		t.Errorf("summary does not hold the escaped text %q:\n%s", want, s)
	}
}

// TestActionRunScript runs the Action's run mode end to end: the lab
// through Claude Code at its pinned version, offline, first with no
// baseline (recorded: results.json, table.html), then with a longer text
// against that baseline (a change: the step fails with fail-on change).
// Two Claude Code runs, about 15 s each on an idle machine.
func TestActionRunScript(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") == "" {
		t.Skip("INSTRLAB_E2E=1 runs Claude Code from npm")
	}
	dir := t.TempDir()
	first := filepath.Join(dir, "first")
	code, out, files := actionScript(t, "run.sh", "INSTRLAB="+binary, "INSTRLAB_OUT="+first, "INPUT_CLIENTS=claude-code",
		"INPUT_COMMAND="+binary+" serve lab\n-instr ascii:1000")
	if code != 0 {
		t.Fatalf("first run: exit %d\n%s", code, out)
	}
	for _, f := range []string{"results.json", "table.html", "matrix.json"} {
		if _, err := os.Stat(filepath.Join(first, f)); err != nil {
			t.Errorf("first run: %v", err)
		}
	}
	if !strings.Contains(out, "::notice title=instrlab run::no baseline") || !strings.Contains(files["GITHUB_OUTPUT"], "out="+first) {
		t.Errorf("first run: no notice of the missing baseline, or no output out:\n%s\n%s", out, files["GITHUB_OUTPUT"])
	}
	if s := files["GITHUB_STEP_SUMMARY"]; !strings.Contains(s, "## instrlab run") || !strings.Contains(s, "claude-code") {
		t.Errorf("summary:\n%s", s)
	}

	second := filepath.Join(dir, "second")
	code, out, files = actionScript(t, "run.sh", "INSTRLAB="+binary, "INSTRLAB_OUT="+second, "INPUT_CLIENTS=claude-code",
		"INPUT_COMMAND="+binary+" serve lab -instr ascii:5000", "INPUT_BASELINE="+filepath.Join(first, "results.json"))
	if code != 1 {
		t.Fatalf("second run against the baseline: exit %d, want 1 (changed)\n%s", code, out)
	}
	if !strings.Contains(out, "::warning title=instrlab run::something changed since the baseline") {
		t.Errorf("no warning of the change:\n%s", out)
	}
	if s := files["GITHUB_STEP_SUMMARY"]; !strings.Contains(s, "### Since the baseline") || !strings.Contains(s, "kept") {
		t.Errorf("summary lacks the comparison:\n%s", s)
	}
	if !strings.Contains(out, "::stop-commands::") {
		t.Error("the run's output reached the log without stop-commands")
	}
}

// fakeGitHub serves the issues API of the repository o/r from 127.0.0.1:
// the open issues are open (each as {"number": N, "title": T}), a POST
// opens issue 7, a PATCH answers {}; with fail, every call is a 500. It
// returns the requests it had, as "METHOD PATH BODY", through *calls.
func fakeGitHub(t *testing.T, open string, fail bool, calls *[]string) string {
	t.Helper()
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		*calls = append(*calls, r.Method+" "+r.URL.RequestURI()+" "+string(b))
		mu.Unlock()
		switch {
		case r.Header.Get("Authorization") != "Bearer tok":
			http.Error(w, "no token", http.StatusUnauthorized)
		case fail:
			http.Error(w, "down", http.StatusInternalServerError)
		case r.Method == http.MethodGet && r.URL.Path == "/repos/o/r/issues":
			io.WriteString(w, open)
		case r.Method == http.MethodPost && r.URL.Path == "/repos/o/r/issues":
			io.WriteString(w, `{"number": 7}`)
		case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/o/r/issues/"):
			io.WriteString(w, `{}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestActionRunScriptWatch: the watch (clients newest, a baseline,
// open-issue). A client that changed gets one issue: opened, titled with
// both versions, its body the comparison of that client with the evidence
// linked, through the workflow's token; the same change with its issue
// open updates it. No change: no call to GitHub, no warning, exit 0. A
// client that could not run opens no issue unless open-issue is all, and
// fails the step as a failed run. GitHub refusing fails the step, even
// with fail-on never. The tested table names the workflow run.
func TestActionRunScriptWatch(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake instrlab is a bash script")
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("no jq (GitHub's runners have it)")
	}
	baseline := filepath.Join(t.TempDir(), "results.json")
	if err := os.WriteFile(baseline, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := `{"clients": [{"name": "codex", "before": "codex@0.171.0", "after": "codex@0.172.0", "changes": 2},
		{"name": "gemini", "before": "gemini@0.61.0", "after": "gemini@0.61.0", "changes": 0}]}`
	failed := `{"clients": [{"name": "qwen", "before": "qwen@0.24.4", "after": "qwen@0.25.0", "changes": 0, "failed": true}]}`
	title := "instrlab watch: codex 0.172.0 changed what reaches the model (since 0.171.0)"
	tests := []struct {
		name            string
		env             []string
		open            string // the open issues GitHub lists
		fail            bool   // GitHub answers 500
		code            int
		want            []string // in the output
		calls           []string // METHOD PATH of each call to GitHub
		posted, patched string   // in the body sent
	}{
		{"a change opens an issue", []string{"FAKE_DIFF=1", "FAKE_DIFF_JSON=" + changed}, `[]`, false, 1,
			[]string{"::notice title=instrlab run::opened issue #7: " + title},
			[]string{"GET /repos/o/r/issues?state=open&per_page=100&labels=instrlab-watch", "GET /repos/o/r/issues?state=open&per_page=100", "POST /repos/o/r/issues"},
			`"title":"` + title + `"`, ""},
		{"the same change updates its issue", []string{"FAKE_DIFF=1", "FAKE_DIFF_JSON=" + changed}, `[{"number": 5, "title": "` + title + `"}]`, false, 1,
			[]string{"::notice title=instrlab run::updated issue #5: " + title},
			[]string{"GET /repos/o/r/issues?state=open&per_page=100&labels=instrlab-watch", "GET /repos/o/r/issues?state=open&per_page=100", "PATCH /repos/o/r/issues/5"},
			"", "| md diff of codex |"},
		{"no change is silent", []string{"FAKE_DIFF=0", "FAKE_DIFF_JSON=" + changed}, `[]`, false, 0, nil, nil, "", ""},
		{"a client that could not run: no issue", []string{"FAKE_RUN=1", "FAKE_DIFF=1", "FAKE_DIFF_JSON=" + failed}, `[]`, false, 1, nil, nil, "", ""},
		{"open-issue all: an issue for it", []string{"FAKE_RUN=1", "FAKE_DIFF=1", "FAKE_DIFF_JSON=" + failed, "INPUT_OPEN_ISSUE=all"}, `[]`, false, 1,
			[]string{"opened issue #7: instrlab watch: qwen 0.25.0 could not be run (the baseline ran 0.24.4)"},
			[]string{"GET /repos/o/r/issues?state=open&per_page=100&labels=instrlab-watch", "GET /repos/o/r/issues?state=open&per_page=100", "POST /repos/o/r/issues"},
			"| md diff of qwen |", ""},
		{"GitHub refuses", []string{"FAKE_DIFF=1", "FAKE_DIFF_JSON=" + changed, "INPUT_FAIL_ON=never"}, `[]`, true, 1,
			[]string{"::error title=instrlab run::could not open or update an issue through the GitHub API"},
			[]string{"GET /repos/o/r/issues?state=open&per_page=100&labels=instrlab-watch"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls []string
			api := fakeGitHub(t, tt.open, tt.fail, &calls)
			env := append([]string{"INPUT_COMMAND=node x.js", "INPUT_CLIENTS=newest", "INPUT_BASELINE=" + baseline, "INPUT_OPEN_ISSUE=true",
				"INPUT_TOKEN=tok", "GITHUB_API_URL=" + api, "GITHUB_REPOSITORY=o/r", "GITHUB_RUN_ID=42", "GITHUB_SERVER_URL=https://github.com"}, tt.env...)
			code, out, files, args := runScript(t, env...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d:\n%s", code, tt.code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if tt.code == 0 && strings.Contains(out, "::warning") {
				t.Errorf("no change, yet a warning:\n%s", out)
			}
			var got []string
			for _, c := range calls {
				method, rest, _ := strings.Cut(c, " ")
				uri, _, _ := strings.Cut(rest, " ")
				got = append(got, method+" "+uri)
			}
			if diff := cmp.Diff(tt.calls, got); diff != "" {
				t.Errorf("calls to GitHub mismatch (-want +got):\n%s", diff)
			}
			last := ""
			if len(calls) > 0 {
				last = calls[len(calls)-1]
			}
			for _, w := range []string{tt.posted, tt.patched} {
				if w != "" && !strings.Contains(last, w) {
					t.Errorf("the body sent lacks %q: %s", w, last)
				}
			}
			if tt.posted != "" || tt.patched != "" {
				var body struct{ Body string }
				js := strings.SplitN(last, " ", 3)[2]
				if err := json.Unmarshal([]byte(js), &body); err != nil {
					t.Fatalf("the body sent is not JSON: %v: %s", err, js)
				}
				for _, w := range []string{"Evidence: the artifact `instrlab-run` of [this workflow run](https://github.com/o/r/actions/runs/42).", "Before: `"} {
					if !strings.Contains(body.Body, w) {
						t.Errorf("the issue's body lacks %q:\n%s", w, body.Body)
					}
				}
			}
			if !strings.Contains(args, "\nnewest\n") {
				t.Errorf("clients newest did not reach run as -client newest: %q", args)
			}
			if s := files["GITHUB_STEP_SUMMARY"]; !strings.Contains(s, "### Tested with (https://github.com/o/r/actions/runs/42)") || !strings.Contains(s, "| md diff |") {
				t.Errorf("the summary lacks the tested table with the run's link, or the comparison:\n%s", s)
			}
		})
	}
}

// TestActionRunScriptOpenIssueInputs: open-issue takes false, true or
// all, and needs a token and the repository; a wrong value stops the step
// with exit 2 before anything runs.
func TestActionRunScriptOpenIssueInputs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake instrlab is a bash script")
	}
	for _, tt := range []struct {
		env  []string
		want string
	}{
		{[]string{"INPUT_OPEN_ISSUE=yes", "INPUT_TOKEN=tok", "GITHUB_REPOSITORY=o/r"}, "::error title=instrlab run::open-issue yes: want false, true (a change) or all"},
		{[]string{"INPUT_OPEN_ISSUE=true", "INPUT_TOKEN=", "GITHUB_REPOSITORY=o/r"}, "::error title=instrlab run::open-issue needs the input token"},
	} {
		code, out, _, calls := runScript(t, append([]string{"INPUT_COMMAND=node x.js"}, tt.env...)...)
		if code != 2 || !strings.Contains(out, tt.want) || calls != "" {
			t.Errorf("%q: exit %d, ran %q; want 2 and %q:\n%s", tt.env, code, calls, tt.want, out)
		}
	}
}

// TestActionRunScriptWatchE2E (INSTRLAB_E2E=1): the watch end to end with
// the real instrlab and Claude Code from npm. A baseline recorded with an
// older pin (2.1.285, which cuts instructions at 2,048 characters), then
// claude-code@newest (resolved through npm; 2.1.332 on 2026-12-05, which
// cuts at 4,096) against it with open-issue: the step fails on the change
// and opens one issue, titled with both versions, whose body holds the
// cap's change from the recorded requests.
func TestActionRunScriptWatchE2E(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") == "" {
		t.Skip("INSTRLAB_E2E=1 runs Claude Code from npm")
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("no jq")
	}
	dir := t.TempDir()
	server := "INPUT_COMMAND=" + binary + " serve lab -instr ascii:5000"
	first := filepath.Join(dir, "first")
	if code, out, _ := actionScript(t, "run.sh", "INSTRLAB="+binary, "INSTRLAB_OUT="+first, "INPUT_CLIENTS=claude-code@2.1.285", server); code != 0 {
		t.Fatalf("the baseline's run: exit %d\n%s", code, out)
	}
	var calls []string
	api := fakeGitHub(t, `[]`, false, &calls)
	code, out, files := actionScript(t, "run.sh", "INSTRLAB="+binary, "INSTRLAB_OUT="+filepath.Join(dir, "watch"), "INPUT_CLIENTS=claude-code@newest", server,
		"INPUT_BASELINE="+filepath.Join(first, "results.json"), "INPUT_OPEN_ISSUE=true", "INPUT_TOKEN=tok", "GITHUB_API_URL="+api,
		"GITHUB_REPOSITORY=o/r", "GITHUB_RUN_ID=42")
	if code != 1 || len(calls) != 3 || !strings.HasPrefix(calls[2], "POST /repos/o/r/issues ") {
		t.Fatalf("the watch: exit %d, calls %q; want 1 and an issue opened\n%s", code, calls, out)
	}
	var issue struct{ Title, Body string }
	if err := json.Unmarshal([]byte(strings.SplitN(calls[2], " ", 3)[2]), &issue); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(issue.Title, "instrlab watch: claude-code 2.") || !strings.HasSuffix(issue.Title, " changed what reaches the model (since 2.1.285)") {
		t.Errorf("title %q", issue.Title)
	}
	for _, want := range []string{"| cap | 2,048 | 4,096 |", "Before: `claude-code@2.1.285`"} {
		if !strings.Contains(issue.Body, want) {
			t.Errorf("the issue's body lacks %q:\n%s", want, issue.Body)
		}
	}
	if s := files["GITHUB_STEP_SUMMARY"]; !strings.Contains(s, "### Tested with") || !strings.Contains(s, "](https://github.com/o/r/actions/runs/42)") {
		t.Errorf("the summary lacks the tested table linking the run:\n%s", s)
	}
	if !strings.Contains(out, "-client claude-code@newest is claude-code@2.") {
		t.Errorf("the log does not say what newest resolved to:\n%s", out)
	}
}
