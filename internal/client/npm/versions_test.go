package npm

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// viewRecord reads testdata/view/NAME.txtar: what npm 11 printed for one
// "npm view PACKAGE versions --json" (its stdout, its stderr, its exit
// status), recorded as its comment says.
func viewRecord(t *testing.T, name string) (stdout, stderr []byte, runErr error) {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", "view", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	code := 0
	for _, f := range a.Files {
		switch f.Name {
		case "stdout":
			stdout = f.Data
		case "stderr":
			stderr = f.Data
		case "exit":
			if code, err = strconv.Atoi(strings.TrimSpace(string(f.Data))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if code != 0 {
		runErr = errors.New("exit status " + strconv.Itoa(code))
	}
	return stdout, stderr, runErr
}

// TestParseVersions reads npm's recorded answers: a version list, a
// package of one version, a package npm does not serve, and a registry
// that cannot be reached (no such host; nothing listening: npm gave up
// after about 80 s of retries in each).
func TestParseVersions(t *testing.T) {
	for _, tc := range []struct {
		record, pkg string
		first       string
		n           int
		err         error
		msg         string
	}{
		{record: "kilocode-cli-linux-x64", pkg: "@kilocode/cli-linux-x64", first: "7.0.33", n: 4},
		{record: "factory-cli", pkg: "@factory/cli", first: "0.225.1", n: 1},
		{record: "e404", pkg: "no-such-package-instrlab", err: ErrNoPackage, msg: "listing the versions of no-such-package-instrlab: npm serves no such package"},
		{record: "enotfound", pkg: "@kilocode/cli", err: ErrOffline, msg: "listing the versions of @kilocode/cli: npm cannot reach its registry (ENOTFOUND)"},
		{record: "econnrefused", pkg: "@kilocode/cli", err: ErrOffline, msg: "listing the versions of @kilocode/cli: npm cannot reach its registry (ECONNREFUSED)"},
	} {
		t.Run(tc.record, func(t *testing.T) {
			stdout, stderr, runErr := viewRecord(t, tc.record)
			vs, err := ParseVersions(tc.pkg, stdout, stderr, runErr)
			if tc.err != nil {
				if !errors.Is(err, tc.err) || err.Error() != tc.msg {
					t.Errorf("ParseVersions = %v, want %q (%v)", err, tc.msg, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.n > 0 && len(vs) != tc.n {
				t.Errorf("%d versions, want %d: %q", len(vs), tc.n, vs)
			}
			if tc.first != "" && vs[0] != tc.first {
				t.Errorf("first version %q, want %q", vs[0], tc.first)
			}
		})
	}
}

// TestParseVersionsBadOutput: what npm view should never print is an error
// that quotes it, never an empty list taken for "no versions"; a version
// alone, as a JSON string, is a list of one.
func TestParseVersionsBadOutput(t *testing.T) {
	for _, tc := range []struct{ stdout, want string }{
		{"", `npm printed ""`},
		{"[]", "npm listed none"},
		{"{\"versions\":1}", `npm printed "{\"versions\":1}"`},
		{"[1,2]", `npm printed "[1,2]"`},
		{"\"0.1.0\"", ""}, // one version, as older npm prints it
	} {
		vs, err := ParseVersions("p", []byte(tc.stdout), nil, nil)
		if tc.want == "" {
			if err != nil || len(vs) != 1 || vs[0] != "0.1.0" {
				t.Errorf("ParseVersions(%q) = %q, %v", tc.stdout, vs, err)
			}
			continue
		}
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("ParseVersions(%q) = %v, want …%s", tc.stdout, err, tc.want)
		}
	}
	_, err := ParseVersions("p", nil, []byte("npm error code EOTHER\nnpm error something else\n"), errors.New("exit status 1"))
	if err == nil || errors.Is(err, ErrOffline) || errors.Is(err, ErrNoPackage) || !strings.Contains(err.Error(), "npm error something else") {
		t.Errorf("another npm failure = %v, want npm's last lines", err)
	}
}

// TestVersionsBounded: an npm that prints without end is cut off at the
// bound, and the error says so; npm missing is ErrNoNPM.
func TestVersionsBounded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	if _, err := exec.LookPath("yes"); err != nil {
		t.Skip("no yes(1)")
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte("#!/bin/sh\nexec yes '\"1.0.0\",'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	_, err := Versions(t.Context(), "p")
	if err == nil || err.Error() != "listing the versions of p: npm printed more than 4 MiB" {
		t.Errorf("Versions of an endless npm = %v", err)
	}
	t.Setenv("PATH", "")
	if _, err := Versions(t.Context(), "p"); !errors.Is(err, ErrNoNPM) {
		t.Errorf("Versions without npm = %v, want %v", err, ErrNoNPM)
	}
}

func TestCapped(t *testing.T) {
	c := &capped{max: 5}
	for _, s := range []string{"abc", "de"} {
		if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if n, err := c.Write([]byte("f")); n != 0 || !errors.Is(err, errCapped) {
		t.Errorf("Write over the bound = %d, %v", n, err)
	}
	if diff := cmp.Diff("abcde", string(c.b)); diff != "" || !c.over {
		t.Errorf("capped mismatch (-want +got):\n%s (over %v)", diff, c.over)
	}
}

// TestParseReleased reads npm's answers for a package's publish times: the
// public registry's shape (its "created" and "modified" are not versions),
// and this machine's registry's recorded answer, versions only, which is
// not a publish record (ErrNoPublishRecord); a time that is not RFC 3339
// is an error, and an empty answer is never "no dates".
func TestParseReleased(t *testing.T) {
	stdout, stderr, runErr := viewRecord(t, "kilocode-cli-linux-x64-time")
	if got, err := ParseReleased("@kilocode/cli-linux-x64", stdout, stderr, runErr); !errors.Is(err, ErrNoPublishRecord) {
		t.Errorf("ParseReleased of times without \"created\" = %v, %v; want ErrNoPublishRecord", got, err)
	}
	got, err := ParseReleased("p", []byte(`{"created":"2026-05-08T16:38:17.757Z","7.0.33":"2026-05-08T16:38:17.757Z","modified":"2026-09-23T16:55:38.100Z","7.7.2":"2026-09-16T19:06:44.906Z"}`), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"7.0.33": "2026-05-08", "7.7.2": "2026-09-16"}, got); diff != "" {
		t.Errorf("ParseReleased (-want +got):\n%s", diff)
	}
	stdout, stderr, runErr = viewRecord(t, "e404")
	if _, err := ParseReleased("no-such-package-instrlab", stdout, stderr, runErr); !errors.Is(err, ErrNoPackage) ||
		err.Error() != "listing the release dates of no-such-package-instrlab: npm serves no such package" {
		t.Errorf("ParseReleased of a missing package = %v", err)
	}
	stdout, stderr, runErr = viewRecord(t, "enotfound")
	if _, err := ParseReleased("@kilocode/cli", stdout, stderr, runErr); !errors.Is(err, ErrOffline) {
		t.Errorf("ParseReleased offline = %v, want ErrOffline", err)
	}
	for _, tc := range []struct{ stdout, want string }{
		{`{"created":"2025-01-01T00:00:00.000Z","modified":"2026-01-01T00:00:00.000Z","1.0.0":"2025-01-01T23:30:00.000-02:00"}`, "1.0.0=2025-01-02"},
		{`{"created":"2025-01-01T00:00:00.000Z"}`, "npm listed none"},
		{`{}`, ErrNoPublishRecord.Error()},
		{`null`, `npm printed "null"`},
		{`["1.0.0"]`, `npm printed "[\"1.0.0\"]"`},
		{`{"created":"2025-01-01T00:00:00.000Z","1.0.0":"yesterday"}`, `npm gave 1.0.0 the time "yesterday"`},
		{``, `npm printed ""`},
	} {
		got, err := ParseReleased("p", []byte(tc.stdout), nil, nil)
		if v, day, ok := strings.Cut(tc.want, "="); ok {
			if err != nil || len(got) != 1 || got[v] != day {
				t.Errorf("ParseReleased(%s) = %v, %v; want %s", tc.stdout, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("ParseReleased(%s) = %v, %v; want …%s", tc.stdout, got, err, tc.want)
		}
	}
}
