package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestCheckMeasuresBeforeRedacting: instructions of 2,100 characters that
// hold two key-shaped examples break -max-chars 2048: the length, the cut
// and the verdict are of what the server sent; only the printed text hides
// the keys. On main the text was redacted first and passed.
func TestCheckMeasuresBeforeRedacting(t *testing.T) {
	key := "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	text := "Authenticate with a token such as " + key + " or " + strings.Replace(key, "16C7", "99Zz", 1) + ". "
	text += strings.Repeat("x", 2100-len([]rune(text)))
	file := writeFile(t, "keys.txt", text)
	out, stderr, code := runCheckTest(t, "-max-chars", "2048", "-show", "--", binary, "serve", "lab", "-eras", "legacy,modern", "-instr-file", file)
	flat := strings.Join(strings.Fields(out), " ") // the text output is wrapped to a width
	if code != exitFailure || !strings.Contains(flat, "instructions are 2,100 characters, more than -max-chars 2,048") {
		t.Errorf("exit %d, want %d with the 2,100 characters sent measured:\n%s\n%s", code, exitFailure, out, stderr)
	}
	if strings.Contains(out, key) || !strings.Contains(flat, "such as *** or ***") {
		t.Errorf("the keys are not hidden where the text is printed:\n%s", out)
	}
}

// TestCheckHidesKnownValues: a config's env value whose name says nothing
// of a credential, and a query value of a server's URL, are hidden when the
// server echoes them, in text and JSON. On main both were printed.
func TestCheckHidesKnownValues(t *testing.T) {
	const envValue, queryValue = "postgres-prod-host-77", "acme-tenant-4242"
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "unknown tenant "+r.URL.Query().Get("tenant"), http.StatusInternalServerError)
	}))
	defer echo.Close()
	cfg := fmt.Sprintf(`{"mcpServers": {
  "db": {"command": "sh", "args": ["-c", "echo \"connecting to $DB_HOST\" >&2; exit 1"], "env": {"DB_HOST": %q}},
  "web": {"url": %q}
}}`, envValue, echo.URL+"/mcp?tenant="+queryValue)
	path := writeFile(t, ".mcp.json", cfg)
	for _, args := range [][]string{{"-config", path}, {"-json", "-config", path}} {
		out, stderr, _ := runCheckTest(t, args...)
		for _, secret := range []string{envValue, queryValue} {
			if strings.Contains(out+stderr, secret) {
				t.Errorf("%q: %q printed:\n%s\n%s", args, secret, out, stderr)
			}
		}
		if !strings.Contains(out, "connecting to ***") || !strings.Contains(out, "unknown tenant ***") {
			t.Errorf("%q: the echoes are not shown redacted:\n%s", args, out)
		}
	}
}

// TestCheckHeaderGivenNotTaken: -header is sent to the URL's server and
// hidden wherever the server echoes it; a server.json's remote gets a
// header the file lists without a value only from -header, never from
// the environment variable the file names (on main, an environment
// variable of the header's name was sent to the file's URL).
func TestCheckHeaderGivenNotTaken(t *testing.T) {
	const given, fromEnv = "k-given-9911", "ghp-from-env-4242"
	var mu sync.Mutex
	var got []string
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("X-Api-Key"))
		mu.Unlock()
		http.Error(w, "bad key "+r.Header.Get("X-Api-Key"), http.StatusUnauthorized)
	}))
	defer echo.Close()
	seen := func() []string {
		mu.Lock()
		defer mu.Unlock()
		s := slices.Compact(slices.Sorted(slices.Values(got)))
		got = nil
		return s
	}

	out, stderr, _ := runCheckTest(t, "-header", "X-Api-Key: "+given, echo.URL+"/mcp")
	if s := seen(); !slices.Equal(s, []string{given}) {
		t.Errorf("a URL with -header: the server got X-Api-Key %q, want %q", s, given)
	}
	if strings.Contains(out+stderr, given) || !strings.Contains(out, "bad key ***") {
		t.Errorf("the header's value is not hidden where the server echoes it:\n%s\n%s", out, stderr)
	}

	t.Setenv("X-Api-Key", fromEnv)
	t.Setenv("X_API_KEY", fromEnv)
	sj := writeFile(t, "server.json", fmt.Sprintf(`{"name": "io.github.example/keyed", "description": "d", "version": "1",
  "remotes": [{"type": "streamable-http", "url": %q, "headers": [{"name": "X-Api-Key", "isSecret": true}]}]}`, echo.URL+"/mcp"))
	out, stderr, _ = runCheckTest(t, "-server-json", sj)
	if s := seen(); !slices.Equal(s, []string{""}) {
		t.Errorf("-server-json without -header: the server got X-Api-Key %q, want none", s)
	}
	if strings.Contains(out+stderr, fromEnv) {
		t.Errorf("the environment's value was printed:\n%s\n%s", out, stderr)
	}
	runCheckTest(t, "-server-json", sj, "-header", "X-Api-Key="+given)
	if s := seen(); !slices.Equal(s, []string{given}) {
		t.Errorf("-server-json with -header: the server got X-Api-Key %q, want %q", s, given)
	}
}

// TestCheckSecretEveryPath feeds one value the user gave (an environment
// variable a config's ${VAR} expands, its name saying nothing of a
// secret) through every path check prints: the server's arguments and
// stderr, the title of a section a profile's cut falls in, the
// instructions cut in the middle of the value (Claude Code 2.1.285's
// 2,048 UTF-16 units), a tool's description; in every format. Neither
// the value nor either half of it may be printed. On main the value was
// printed in the arguments, the stderr line and the -json loss's section
// title, and -show printed both halves.
func TestCheckSecretEveryPath(t *testing.T) {
	const secret = "acme-tenant-4242-prod"
	t.Setenv("TENANT", secret)
	head := "# Setup for " + secret + "\n"
	instr := head + strings.Repeat("x", 2040-len(head)) + secret + " " + strings.Repeat("y", 3000)
	instrFile := writeFile(t, "instr.txt", instr)
	descFile := writeFile(t, "desc.txt", "Looks up parts for "+secret+".")
	cfg := writeFile(t, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"parts": {"command": "sh",
  "args": ["-c", "echo \"starting for $1\" >&2; exec %s serve lab -eras legacy,modern -instr-file %s -tool-desc-file %s", "sh", "${TENANT}"]}}}`,
		binary, instrFile, descFile))
	for _, args := range [][]string{
		{"-config", cfg}, {"-v", "-config", cfg}, {"-show", "-config", cfg}, {"-json", "-config", cfg},
		{"-format", "md", "-config", cfg}, {"-format", "github", "-config", cfg}, {"-format", "sarif", "-config", cfg},
	} {
		out, stderr, _ := runCheckTest(t, args...)
		all := out + stderr
		if !strings.Contains(all, "parts") || !strings.Contains(all, "***") {
			t.Errorf("%q: no report, or nothing hidden:\n%s\n%s", args, out, stderr)
		}
		for _, part := range []string{secret, secret[:8], secret[len(secret)-8:]} {
			if i := strings.Index(all, part); i >= 0 {
				t.Errorf("%q prints %q: …%s…", args, part, all[max(0, i-60):min(len(all), i+40)])
			}
		}
	}
}

// TestCheckLearnsFromStderr: a value the server's stderr shows as a
// credential ("--token=VALUE") is hidden wherever else check prints it:
// in the instructions the server echoes it into, in text and JSON. On
// main it was hidden on the stderr line only.
func TestCheckLearnsFromStderr(t *testing.T) {
	const value = "pl41n-t0ken-value"
	instr := writeFile(t, "instr.txt", "Connect with "+value+" when asked.")
	script := `echo "starting with --token=` + value + `" >&2; exec "$0" serve lab -eras legacy,modern -instr-file "$1"`
	for _, args := range [][]string{{"-show"}, {"-json"}, {"-v"}} {
		out, stderr, _ := runCheckTest(t, append(args, "--", "sh", "-c", script, binary, instr)...)
		if strings.Contains(out+stderr, value) {
			t.Errorf("%q prints %q:\n%s\n%s", args, value, out, stderr)
		}
		if args[0] != "-v" && !strings.Contains(out, "Connect with ***") {
			t.Errorf("%q: the instructions are not shown with the value hidden:\n%s", args, out)
		}
	}
}
