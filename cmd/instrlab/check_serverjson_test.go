package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCheckServerJSON: check -server-json starts the npm package a
// registry server.json names through npx, as a client would, and checks
// it. npx here is a local command on PATH that starts the lab, so the
// test needs no registry; it records the arguments it was given.
func TestCheckServerJSON(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("npx stands in as a shell script")
	}
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "npx-args")
	npx := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + argsFile + "\nexec " + binary + " serve lab -instr ascii:1200\n"
	if err := os.WriteFile(filepath.Join(dir, "npx"), []byte(npx), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("LAB_TOKEN", "s3cret-value")
	sj := filepath.Join(dir, "server.json")
	os.WriteFile(sj, []byte(`{"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
	  "name": "io.github.example/parts-lab", "description": "the lab", "version": "1.0.0",
	  "packages": [
	    {"registryType": "npm", "identifier": "@example/parts-lab", "version": "1.0.0", "transport": {"type": "stdio"},
	     "packageArguments": [{"type": "named", "name": "--mode", "default": "fast"}],
	     "environmentVariables": [{"name": "LAB_TOKEN", "isRequired": true, "isSecret": true}]},
	    {"registryType": "pypi", "identifier": "parts-lab", "version": "1.0.0", "runtimeHint": "no-such-uvx", "transport": {"type": "stdio"}}]}`), 0o644)

	out, stderr, code := runCheckTest(t, "-json", "-server-json", sj)
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	var rep struct {
		Servers []struct {
			Target struct{ Name, Command string } `json:"target"`
			Legacy struct {
				Instructions string `json:"instructions"`
			} `json:"legacy"`
		} `json:"servers"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Servers) != 1 || rep.Servers[0].Target.Name != "parts-lab" || len([]rune(rep.Servers[0].Legacy.Instructions)) != 1200 {
		t.Errorf("servers %+v, want parts-lab with its 1,200 characters", rep.Servers)
	}
	args, _ := os.ReadFile(argsFile)
	if got, want := strings.Fields(string(args)), []string{"-y", "@example/parts-lab@1.0.0", "--mode", "fast"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("npx got %q, want %q", got, want)
	}
	if !strings.Contains(stderr, "packages[1] (pypi parts-lab@1.0.0): needs no-such-uvx, which is not on PATH") {
		t.Errorf("stderr does not say what was not checked:\n%s", stderr)
	}
	if strings.Contains(out+stderr, "s3cret-value") {
		t.Error("the secret environment variable was printed")
	}

	// Nothing that can start, and an invalid file: exit 2 with the reason.
	os.WriteFile(sj, []byte(`{"name": "io.github.example/x", "description": "d", "version": "1", "packages": [{"registryType": "mcpb", "identifier": "https://x/x.mcpb", "version": "1", "transport": {"type": "stdio"}}]}`), 0o644)
	out, _, code = runCheckTest(t, "-json", "-server-json", sj)
	if code != 2 || !strings.Contains(out, "does not start bundles") {
		t.Errorf("a bundle: exit %d, output %s; want 2 and the reason", code, out)
	}
	os.WriteFile(sj, []byte(`{"name": "x"`), 0o644)
	_, stderr, code = runCheckTest(t, "-server-json", sj)
	if code != 2 || !strings.Contains(stderr, "invalid server.json") {
		t.Errorf("invalid JSON: exit %d, stderr %s; want 2 and the reason", code, stderr)
	}
	_, stderr, code = runCheckTest(t, "-server-json", sj, "-config", sj)
	if code != 2 || !strings.Contains(stderr, "-server-json names the server") {
		t.Errorf("-server-json with -config: exit %d, stderr %s", code, stderr)
	}
}
