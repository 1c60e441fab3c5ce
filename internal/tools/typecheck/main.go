// Command typecheck type-checks packages and their tests for other
// systems, from source, compiling nothing. CI (.ci/run) runs it for darwin
// and windows: go vet for a system compiles every dependency for it
// (modernc.org/sqlite and the standard library included), which cost about
// 230 s of a 2-core cold CI, while a type error that only one system sees
// (a file behind a build tag, a symbol that system lacks) is caught by the
// type checker alone.
//
//	go run ./internal/tools/typecheck [-goos darwin,windows] [-goarch amd64] [packages]
//
// The packages of the main module are checked in full, function bodies
// included; their dependencies outside it are checked for their
// declarations only, which is all an importer needs. It exits 1 on any
// error, printing each with its system.
package main

import (
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	goos := flag.String("goos", "darwin,windows", "the systems to check, comma-separated")
	goarch := flag.String("goarch", "amd64", "the architecture to check them on")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	failed := false
	for _, sys := range strings.Split(*goos, ",") {
		res, err := check(".", sys, *goarch, patterns)
		if err != nil {
			fmt.Fprintf(os.Stderr, "typecheck: %s/%s: %v\n", sys, *goarch, err)
			os.Exit(2)
		}
		for _, e := range res.errors {
			fmt.Fprintf(os.Stderr, "%s/%s: %s\n", sys, *goarch, e)
		}
		failed = failed || len(res.errors) > 0
		fmt.Printf("%s/%s: %d packages of the module type-checked with their tests (%d dependencies, declarations only), %d errors\n",
			sys, *goarch, res.module, res.deps, len(res.errors))
	}
	if failed {
		os.Exit(1)
	}
}

// result is what check found for one system.
type result struct {
	module, deps int      // packages checked in full, and dependencies
	errors       []string // "file:line:col: message", in the order found
}

// check loads patterns in dir with their tests for goos/goarch (go list,
// no compile: go/packages asks for no export data when it needs no types)
// and type-checks them.
func check(dir, goos, goarch string, patterns []string) (result, error) {
	cfg := &packages.Config{
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir:   dir,
		Env:   append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0"),
		Tests: true,
	}
	roots, err := packages.Load(cfg, patterns...)
	if err != nil {
		return result{}, err
	}
	c := &checker{
		fset:  token.NewFileSet(),
		sizes: types.SizesFor("gc", goarch),
		done:  map[string]*types.Package{},
		seen:  map[string]bool{},
	}
	if c.sizes == nil {
		return result{}, fmt.Errorf("unknown architecture %q", goarch)
	}
	for _, p := range roots {
		if p.Module == nil || !p.Module.Main {
			c.report(fmt.Sprintf("%s: not a package of the main module", p.PkgPath))
			continue
		}
		if strings.HasSuffix(p.ID, ".test") { // the generated test main
			continue
		}
		c.check(p)
	}
	return c.res, nil
}

// checker type-checks each package once, its imports first.
type checker struct {
	fset  *token.FileSet
	sizes types.Sizes
	done  map[string]*types.Package // by package ID
	seen  map[string]bool           // errors reported
	res   result
}

// report records an error once: a package and its test variant share
// files, and so their errors.
func (c *checker) report(msg string) {
	if !c.seen[msg] {
		c.seen[msg] = true
		c.res.errors = append(c.res.errors, msg)
	}
}

func (c *checker) check(p *packages.Package) *types.Package {
	if t, ok := c.done[p.ID]; ok {
		return t
	}
	if p.PkgPath == "unsafe" {
		c.done[p.ID] = types.Unsafe
		return types.Unsafe
	}
	for _, e := range p.Errors { // go list's own: a missing file, a bad import
		c.report(e.Error())
	}
	own := p.Module != nil && p.Module.Main
	var files []*ast.File
	for _, name := range p.GoFiles { // cgo is off: these are all it compiles
		f, err := parser.ParseFile(c.fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			c.report(err.Error())
			continue
		}
		files = append(files, f)
	}
	conf := types.Config{
		Importer:         importer{c, p},
		IgnoreFuncBodies: !own,
		Sizes:            c.sizes,
		Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) && te.Soft && !own {
				return // an unused import or variable in a body not checked
			}
			c.report(err.Error())
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	t, _ := conf.Check(p.PkgPath, c.fset, files, nil) // errors went to conf.Error
	c.done[p.ID] = t
	if own {
		c.res.module++
	} else {
		c.res.deps++
	}
	return t
}

// importer resolves an import of one package through go list's answer for
// it (which picks the test variant a test imports).
type importer struct {
	c *checker
	p *packages.Package
}

func (im importer) Import(path string) (*types.Package, error) {
	dep, ok := im.p.Imports[path]
	if !ok {
		return nil, fmt.Errorf("%s imports %s, which go list did not resolve", im.p.PkgPath, path)
	}
	return im.c.check(dep), nil
}
