package bench

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNoInitTimeCompiles keeps regexps and templates out of package
// initialization in every package linked into instrlab: each costs every
// start of instrlab serve lab (the four in internal/fakeapi cost about
// 0.3 ms; github.com/Masterminds/semver/v3's six, in its init, 1.1-1.8 ms),
// and the lab's startup target is within 1 ms of a bare server. Compile
// them on first use (sync.OnceValue) instead. Our own packages and the
// modules they link are checked alike (package-level variables and init
// functions); the standard library is not.
func TestNoInitTimeCompiles(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	// The files each package compiles here (GoFiles): not a generator
	// behind //go:build ignore, as golang.org/x/sys/unix holds.
	out, err := exec.Command(goTool, "list", "-deps", "-f", `{{if not .Standard}}{{.Dir}} {{.ImportPath}} {{join .GoFiles " "}}{{end}}`, "github.com/instrlab/instrlab/cmd/instrlab").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	// Compiles at init that we cannot move, with why.
	allowed := map[string]string{
		// One small regexp, linked by the go-sdk (the bare server pays it too).
		"github.com/google/jsonschema-go/jsonschema disallowedPrefixRegexp": "go-sdk",
	}
	fset := token.NewFileSet()
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		dir, pkg := fields[0], fields[1]
		for _, name := range fields[2:] {
			file := filepath.Join(dir, name)
			f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range initCompiles(f) {
				if allowed[pkg+" "+c.name] == "" {
					t.Errorf("%s: %s at package initialization (%s)", fset.Position(c.pos), c.call, pkg)
				}
			}
		}
	}
}

type initCompile struct {
	pos        token.Pos
	call, name string // "regexp.MustCompile", the variable set or "init"
}

// initCompiles finds the regexp and template compiles in f that run at
// package initialization: in package-level variables' initializers and in
// init functions, outside function literals (which run on first use).
func initCompiles(f *ast.File) []initCompile {
	banned := map[string]map[string]bool{
		"regexp":        {"MustCompile": true, "Compile": true, "MustCompilePOSIX": true, "CompilePOSIX": true},
		"text/template": {"Must": true},
		"html/template": {"Must": true},
	}
	local := map[string]map[string]bool{} // the name a file imports a banned package by
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if banned[path] == nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = banned[path]
	}
	if len(local) == 0 {
		return nil
	}
	var found []initCompile
	find := func(n ast.Node, name string) {
		ast.Inspect(n, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && local[x.Name][sel.Sel.Name] {
						found = append(found, initCompile{c.Pos(), x.Name + "." + sel.Sel.Name, name})
					}
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, spec := range d.Specs {
				vs := spec.(*ast.ValueSpec)
				for _, v := range vs.Values {
					find(v, vs.Names[0].Name)
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" && d.Body != nil {
				find(d.Body, "init")
			}
		}
	}
	return found
}

// TestInitCompilesFound holds initCompiles to what it must find: the
// forms Masterminds/semver (in init) and our packages used (variables),
// under an alias too, and not what runs on first use.
func TestInitCompilesFound(t *testing.T) {
	src := `package p

import (
	re "regexp"
	"sync"
	"text/template"
)

var a = re.MustCompile("a")
var b, c = template.Must(template.New("b").Parse("")), 1
var d *re.Regexp
var e = sync.OnceValue(func() *re.Regexp { return re.MustCompile("e") })

func init() {
	d = re.MustCompile("d")
	go func() { re.MustCompile("later") }()
}

func f() { re.MustCompile("f") }
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range initCompiles(f) {
		got = append(got, c.call+" "+c.name)
	}
	want := []string{"re.MustCompile a", "template.Must b", "re.MustCompile init"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("initCompiles mismatch (-want +got):\n%s", diff)
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
