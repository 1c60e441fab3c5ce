package testutil

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ChromiumPath is headless Chromium's executable for the tests that open
// a page in it: they run with INSTRLAB_E2E=1 (CI installs the Debian
// package chromium) and skip otherwise.
func ChromiumPath(t *testing.T) string {
	t.Helper()
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to open the page in headless Chromium")
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("chromium not found (.ci/run installs the Debian package chromium)")
	return ""
}

// Chromium runs headless Chromium with a fresh profile and no network of
// its own, and returns its standard output.
func Chromium(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %q: %v\n%s", bin, args, err, stderr.String())
	}
	return stdout.String()
}

// errorProbe records errors (a resource that fails to load included) and
// console errors as they happen, and at load writes them into an element
// that --dump-dom prints.
const errorProbe = `<script>
window.__errs = [];
window.addEventListener("error", e => __errs.push("error: " + (e.message || (e.target && e.target.outerHTML) || e)), true);
const ce = console.error; console.error = (...a) => { __errs.push("console.error: " + a.join(" ")); ce(...a); };
window.addEventListener("load", () => { const p = document.createElement("pre"); p.id = "errprobe"; p.textContent = JSON.stringify(__errs); document.body.appendChild(p); });
</script>`

// PageErrors opens the page at path in Chromium (a copy beside it with
// errorProbe added, so relative links resolve as the page's own) and
// returns the errors it logged while loading.
func PageErrors(t *testing.T, bin, path string) []string {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(filepath.Dir(path), ".probe-"+filepath.Base(path))
	if err := os.WriteFile(probe, []byte(strings.Replace(string(page), "<head>", "<head>"+errorProbe, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(probe)
	dom := Chromium(t, bin, "--window-size=1280,900", "--dump-dom", "file://"+probe)
	m := regexp.MustCompile(`<pre id="errprobe">([^<]*)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("%s: no probe in the dumped DOM:\n%.2000s", path, dom)
	}
	var errs []string
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &errs); err != nil {
		t.Fatalf("%s: probe %q: %v", path, m[1], err)
	}
	return errs
}

// widthProbe lays the page out %d pixels wide (the root element's width:
// headless Chromium keeps its window at least 500 pixels wide) and, at
// load, writes how wide the page then is into an element that --dump-dom
// prints.
const widthProbe = `<script>
document.documentElement.style.width = "%dpx";
window.addEventListener("load", () => { const p = document.createElement("pre"); p.id = "widthprobe"; p.textContent = String(document.body.scrollWidth); document.body.appendChild(p); });
</script>`

// PageWidth lays the page at path out width pixels wide in headless
// Chromium (a copy beside it with widthProbe added) and returns how wide
// it is then: a page wider than width scrolls sideways on a screen of
// that width.
func PageWidth(t *testing.T, bin, path string, width int) int {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(filepath.Dir(path), ".width-"+filepath.Base(path))
	if err := os.WriteFile(probe, []byte(strings.Replace(string(page), "<head>", "<head>"+fmt.Sprintf(widthProbe, width), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(probe)
	dom := Chromium(t, bin, "--window-size=1280,900", "--dump-dom", "file://"+probe)
	m := regexp.MustCompile(`<pre id="widthprobe">(\d+)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("%s: no width probe in the dumped DOM:\n%.2000s", path, dom)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
