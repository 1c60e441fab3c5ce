package bench

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoInitTimeCompiles keeps regexps and templates out of package
// initialization in every package linked into instrlab: each costs every
// start of instrlab serve lab (the four in internal/fakeapi cost about
// 0.3 ms), and the lab's startup target is within 1 ms of a bare server.
// Compile them on first use (sync.OnceValue) instead.
func TestNoInitTimeCompiles(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.Dir}} {{.Module}}", "github.com/instrlab/instrlab/cmd/instrlab").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	banned := map[string]bool{"regexp.MustCompile": true, "regexp.Compile": true, "template.Must": true}
	fset := token.NewFileSet()
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		dir, mod, _ := strings.Cut(line, " ")
		if !strings.HasPrefix(mod, "github.com/instrlab/instrlab") {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				ast.Inspect(g, func(n ast.Node) bool {
					if _, ok := n.(*ast.FuncLit); ok {
						return false // runs on first use
					}
					if c, ok := n.(*ast.CallExpr); ok {
						if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
							if x, ok := sel.X.(*ast.Ident); ok && banned[x.Name+"."+sel.Sel.Name] {
								t.Errorf("%s: %s.%s at package initialization", fset.Position(c.Pos()), x.Name, sel.Sel.Name)
							}
						}
					}
					return true
				})
			}
		}
	}
}

// TestReferenceTokenizerNotLinked keeps the reference tokenizer (and the
// regexp engine it needs, whose tables are built at initialization) out of
// the commands: internal/tokens counts without them, and only its tests
// compare it with them.
func TestReferenceTokenizerNotLinked(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/instrlab/instrlab/cmd/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/tiktoken-go/") || strings.HasPrefix(pkg, "github.com/dlclark/regexp2") {
			t.Errorf("a command links %s", pkg)
		}
	}
}
