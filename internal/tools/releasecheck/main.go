// Command releasecheck checks .goreleaser.yaml with GoReleaser's own
// configuration loader and builds one target of it, as `goreleaser check`
// and a one-target snapshot would, without compiling GoReleaser (about 13
// minutes of CPU, more than this project's cold CI may take:
// docs/release.md). It is a module of its own, so that GoReleaser's
// packages are no requirement of instrlab's.
//
//	cd internal/tools/releasecheck && go run . -config ../../../.goreleaser.yaml -out DIR
//
// It loads the file strictly (pkg/config.Load: an unknown or misspelt
// field is an error, as in goreleaser check), then for every build of the
// target (linux/amd64 by default) runs go build from the repository root
// with the build's main, binary name, env, flags and ldflags as the
// config gives them, and checks that each archive's files patterns match
// a file. The binaries go to -out; the exit status is 1 on any failure.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/goreleaser/goreleaser/v2/pkg/config"
)

func main() {
	cfg := flag.String("config", "../../../.goreleaser.yaml", "the GoReleaser configuration")
	out := flag.String("out", "", "where the built binaries go (required)")
	target := flag.String("target", "linux/amd64", "the one target to build, GOOS/GOARCH")
	flag.Parse()
	if err := run(*cfg, *out, *target); err != nil {
		fmt.Fprintln(os.Stderr, "releasecheck:", err)
		os.Exit(1)
	}
}

func run(cfg, out, target string) error {
	if out == "" {
		return errors.New("-out is required")
	}
	goos, goarch, ok := strings.Cut(target, "/")
	if !ok {
		return fmt.Errorf("-target %q: want GOOS/GOARCH", target)
	}
	p, err := config.Load(cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", cfg, err)
	}
	root := filepath.Dir(cfg)
	if len(p.Builds) == 0 {
		return fmt.Errorf("%s: no builds", cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var names []string
	for _, b := range p.Builds {
		if !slices.Contains(b.Goos, goos) || !slices.Contains(b.Goarch, goarch) {
			return fmt.Errorf("build %s does not build %s", b.ID, target)
		}
		if slices.Contains(names, b.Binary) {
			return fmt.Errorf("build %s: binary %s named twice", b.ID, b.Binary)
		}
		names = append(names, b.Binary)
		bin, err := filepath.Abs(filepath.Join(out, b.Binary))
		if err != nil {
			return err
		}
		args := append([]string{"build"}, b.BuildDetails.Flags...)
		if len(b.BuildDetails.Ldflags) > 0 {
			args = append(args, "-ldflags", strings.Join(b.BuildDetails.Ldflags, " "))
		}
		args = append(args, "-o", bin, b.Main)
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = root
		cmd.Env = append(append(os.Environ(), b.BuildDetails.Env...), "GOOS="+goos, "GOARCH="+goarch)
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: go %s: %v\n%s", b.ID, strings.Join(args, " "), err, msg)
		}
		fmt.Printf("build %s: %s (%s, %s)\n", b.ID, bin, target, strings.Join(b.BuildDetails.Env, " "))
	}
	for _, a := range p.Archives {
		for _, f := range a.Files {
			m, err := filepath.Glob(filepath.Join(root, f.Source))
			if err != nil || len(m) == 0 {
				return fmt.Errorf("archive %s: files pattern %q matches nothing (%v)", a.ID, f.Source, err)
			}
		}
	}
	fmt.Printf("%s: loaded by GoReleaser's own loader (strict); %d builds for %s; %d archives' files present\n", cfg, len(p.Builds), target, len(p.Archives))
	return nil
}
