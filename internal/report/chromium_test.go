package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/testutil"
)

// probeScript is put in a copy of the page (the page itself has no
// script): it records errors and console errors as they happen, and at
// load the widths that say whether anything scrolls sideways at the
// window's width, into an element that --dump-dom prints.
const probeScript = `<script>
window.__errs = [];
window.addEventListener("error", e => __errs.push("error: " + (e.message || (e.target && e.target.outerHTML) || e)), true);
const ce = console.error; console.error = (...a) => { __errs.push("console.error: " + a.join(" ")); ce(...a); };
window.addEventListener("load", () => {
  const s = document.querySelector("table.summary");
  const out = {errors: __errs, innerWidth: innerWidth, docScrollWidth: document.documentElement.scrollWidth,
    summaryScrollWidth: s ? s.scrollWidth : -1, summaryClientWidth: s ? s.clientWidth : -1, svgs: document.querySelectorAll("svg").length};
  const p = document.createElement("pre"); p.id = "probe"; p.textContent = JSON.stringify(out); document.body.appendChild(p);
});
</script>`

// TestPageInChromium opens the fixture page in headless Chromium at
// 1280 px: a screenshot is kept, the summary fits without scrolling
// sideways, and nothing logs an error. It runs with INSTRLAB_E2E=1 (CI
// installs the Debian package chromium); screenshots go to
// $INSTRLAB_ARTIFACTS/report when that is set.
// readProbe opens the probed copy of a page in Chromium and decodes what
// probeScript wrote into v; it returns the dumped DOM.
func readProbe(t *testing.T, bin, path string, v any) string {
	t.Helper()
	dom := testutil.Chromium(t, bin, "--window-size=1280,900", "--dump-dom", "file://"+path)
	mm := regexp.MustCompile(`<pre id="probe">([^<]*)</pre>`).FindStringSubmatch(dom)
	if mm == nil {
		t.Fatalf("no probe in the dumped DOM:\n%.2000s", dom)
	}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(mm[1], "&quot;", `"`)), v); err != nil {
		t.Fatalf("probe %q: %v", mm[1], err)
	}
	return dom
}

func TestPageInChromium(t *testing.T) {
	bin := testutil.ChromiumPath(t)
	out := t.TempDir()
	if a := os.Getenv("INSTRLAB_ARTIFACTS"); a != "" {
		out = filepath.Join(a, "report")
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, dir string
		m         *matrix.Matrix
	}{
		{"fixtures", fixtureDir, matrix.Seed()},
		{"diff-2.1.285", filepath.Join(diffDir, "2.1.285"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, results, _, err := Load(t.Context(), clients.New, tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			if tc.m != nil {
				m = tc.m
			}
			var page bytes.Buffer
			if err := New(m, results, tc.dir).HTML(&page); err != nil {
				t.Fatal(err)
			}
			html := page.String()
			pagePath := filepath.Join(out, tc.name+".html")
			if err := os.WriteFile(pagePath, []byte(html), 0o644); err != nil {
				t.Fatal(err)
			}
			probePath := filepath.Join(out, tc.name+".probe.html")
			probed := strings.Replace(html, "<head>", "<head>"+probeScript, 1)
			if err := os.WriteFile(probePath, []byte(probed), 0o644); err != nil {
				t.Fatal(err)
			}
			shot := filepath.Join(out, tc.name+".png")
			testutil.Chromium(t, bin, "--window-size=1280,2000", "--screenshot="+shot, "file://"+pagePath)
			if st, err := os.Stat(shot); err != nil || st.Size() < 10000 {
				t.Errorf("screenshot %s: %v", shot, err)
			}
			var got struct {
				Errors                                 []string
				InnerWidth, DocScrollWidth             int
				SummaryScrollWidth, SummaryClientWidth int
				SVGs                                   int
			}
			readProbe(t, bin, probePath, &got)
			t.Logf("probe: %+v; screenshot %s", got, shot)
			if len(got.Errors) > 0 {
				t.Errorf("errors in the page: %q", got.Errors)
			}
			if got.DocScrollWidth > got.InnerWidth || got.SummaryScrollWidth > got.SummaryClientWidth || got.SummaryClientWidth <= 0 {
				t.Errorf("the page scrolls sideways at %d px: document %d, summary %d in %d", got.InnerWidth, got.DocScrollWidth, got.SummaryScrollWidth, got.SummaryClientWidth)
			}
			if got.SVGs < 2*len(results) {
				t.Errorf("%d SVG figures for %d runs", got.SVGs, len(results))
			}
		})
	}
}
