package lab

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPublicAPI holds the lab's exported top-level names to
// testdata/api.txt, one "kind name" a line, so that the public API a
// server author or client builder imports grows only on purpose (docs/lab.md,
// The lab as a library): a word only instrlab's analysis needs belongs to
// internal/labvocab. go test ./lab -run PublicAPI -update rewrites it.
func TestPublicAPI(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					got = append(got, "func "+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							got = append(got, "type "+s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								got = append(got, d.Tok.String()+" "+n.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.SortFunc(got, func(a, b string) int {
		_, an, _ := strings.Cut(a, " ")
		_, bn, _ := strings.Cut(b, " ")
		return strings.Compare(an, bn)
	})
	// A name declared in files for other systems (proctree_other.go) is
	// counted once.
	got = slices.Compact(got)
	const golden = "testdata/api.txt"
	text := strings.Join(got, "\n") + "\n"
	if *update {
		if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), text); diff != "" {
		t.Errorf("lab's exported names mismatch (-want +got); if on purpose, run go test ./lab -run PublicAPI -update:\n%s", diff)
	}
}
