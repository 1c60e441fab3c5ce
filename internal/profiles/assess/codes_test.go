package assess

import (
	"bytes"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the findings section of docs/check.md")

// TestEveryCodeHasDoc reads the package's source for every constant of
// type Code and checks that each has one Doc with a level, a short line
// and help, and that Docs documents no code that is not declared.
func TestEveryCodeHasDoc(t *testing.T) {
	declared := map[Code]bool{}
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				v := spec.(*ast.ValueSpec)
				if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Code" {
					continue
				}
				for _, val := range v.Values {
					lit, ok := val.(*ast.BasicLit)
					if !ok {
						t.Fatalf("%s: a Code constant that is not a string literal", fset.Position(val.Pos()))
					}
					declared[Code(strings.Trim(lit.Value, `"`))] = true
				}
			}
		}
	}
	if len(declared) < 20 {
		t.Fatalf("found %d Code constants; the parse is wrong", len(declared))
	}
	documented := map[Code]int{}
	kebab := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	for _, d := range Docs {
		documented[d.Code]++
		switch {
		case !declared[d.Code]:
			t.Errorf("Docs documents %q, which is not a declared Code", d.Code)
		case d.Short == "" || d.Help == "":
			t.Errorf("%s: no short line or no help", d.Code)
		case !slices.Contains(loss.Severities, d.Severity):
			t.Errorf("%s: severity %q", d.Code, d.Severity)
		case d.Why == "" || d.Fix == "":
			t.Errorf("%s: no reason for its severity, or no fix", d.Code)
		case d.Rule != "" && d.Fails != "always":
			t.Errorf("%s: a rule that does not fail", d.Code)
		case !kebab.MatchString(string(d.Code)):
			t.Errorf("%s: not a lower-case-dashed code", d.Code)
		case strings.HasSuffix(d.Short, "."), !strings.HasSuffix(d.Help, "."):
			t.Errorf("%s: the short line is not a fragment, or the help not sentences", d.Code)
		}
	}
	for c := range declared {
		if documented[c] != 1 {
			t.Errorf("code %q has %d docs, want 1", c, documented[c])
		}
	}
}

// TestWriteDocs: check -h lists every code, within 80 columns.
func TestWriteDocs(t *testing.T) {
	var b bytes.Buffer
	if err := WriteDocs(&b, 80); err != nil {
		t.Fatal(err)
	}
	for _, d := range Docs {
		if !strings.Contains(b.String(), " "+string(d.Code)+" ") {
			t.Errorf("check -h does not list %s", d.Code)
		}
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line over 80 columns: %q", l)
		}
	}
}

// TestDocsFindings holds docs/codes.md to what WriteDocsMarkdown writes
// (go test ./internal/profiles/assess -run DocsFindings -update rewrites
// it), and docs/check.md to linking it.
func TestDocsFindings(t *testing.T) {
	var page bytes.Buffer
	if err := WriteDocsMarkdown(&page); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "| `truncated` |") || !strings.Contains(page.String(), "### Severity") {
		t.Errorf("the codes' page lacks the code truncated or the severity table:\n%s", page.String())
	}
	testutil.Golden(t, filepath.Join("..", "..", "..", "docs", "codes.md"), page.Bytes(), *update)
	check, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "check.md"))
	if err != nil || !bytes.Contains(check, []byte("(codes.md)")) {
		t.Errorf("docs/check.md does not link docs/codes.md (%v)", err)
	}
}
