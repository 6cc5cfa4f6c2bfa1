package generator

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/internal/generator/internal/emit"
	"github.com/mcpgen/mcpgen/internal/generator/internal/fromgo"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
	"github.com/mcpgen/mcpgen/internal/generator/internal/schema"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// ClientConfig says what client to generate.
type ClientConfig struct {
	Dir       string // working directory; patterns, Out and printed paths are relative to it
	Out       string // the client package's directory
	Patterns  []string
	Output    string // the server's generated file name, which the packages' loading skips
	Portable  bool
	ClientPkg string // the client package's name; from Out when empty
}

// GenerateClient loads the one package of cfg.Patterns and returns the
// client package's file for its declarations.
func GenerateClient(cfg ClientConfig) ([]File, Diagnostics) {
	files, diags := Generate(Config{Dir: cfg.Dir, Patterns: cfg.Patterns, Output: cfg.Output, Portable: cfg.Portable})
	if diags.HasErrors() {
		return nil, diags
	}
	var pkgs []File
	for _, f := range files {
		if f.pkg != nil {
			pkgs = append(pkgs, f)
		}
	}
	if len(pkgs) != 1 {
		var paths []string
		for _, f := range pkgs {
			paths = append(paths, f.pkg.Path)
		}
		msg := "-client: no package with tools, prompts or resources"
		if len(pkgs) > 1 {
			msg = "-client: one package at a time, got " + strings.Join(paths, ", ")
		}
		return nil, append(diags, Diagnostic{Msg: msg})
	}
	src := pkgs[0].pkg
	out := inDir(cfg.Dir, cfg.Out)
	if filepath.Clean(out) == filepath.Clean(src.Dir) {
		return nil, append(diags, Diagnostic{Msg: "-client " + cfg.Out + ": the client goes in a directory of its own, not the package's"})
	}
	name, err := clientPackageName(out, cfg.ClientPkg)
	if err != nil {
		return nil, append(diags, Diagnostic{Msg: err.Error()})
	}
	schemas := schema.Package(src, nil)
	c, errs := fromgo.Client(src, schemas, name, clientPath(name))
	for _, e := range errs {
		diags = append(diags, Diagnostic{Pos: e.Pos, Msg: e.Msg})
	}
	if diags.HasErrors() {
		return nil, diags.Sorted()
	}
	content, err := emit.ClientFile(c, emit.Config{EnforcesFormat: mcpimpl.EnforcesFormat})
	if err != nil {
		return nil, append(diags, Diagnostic{Msg: err.Error()})
	}
	return []File{{Path: filepath.Join(out, names.ClientFile), Content: content}}, diags
}

// clientPath is the stand-in import path of a client package: the client
// names no type by its own path, so any path that is not another
// package's will do, and this one keeps the output the same wherever the
// directory is.
func clientPath(name string) string { return "mcpgen.client/" + name }

// clientPackageName is the package name of the client in dir: that of
// the Go files already there other than the generated one, else want,
// else the directory's name made an identifier.
func clientPackageName(dir, want string) (string, error) {
	entries, _ := os.ReadDir(dir)
	fset := token.NewFileSet()
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || n == names.ClientFile {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.PackageClauseOnly)
		if err != nil {
			return "", err
		}
		return f.Name.Name, nil
	}
	if want != "" {
		return want, nil
	}
	var b strings.Builder
	for _, r := range strings.ToLower(filepath.Base(dir)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 || token.IsKeyword(b.String()) {
		return "", fmt.Errorf("-client %s: no package name can be made from the directory's name: give the directory a Go file with a package clause", dir)
	}
	return b.String(), nil
}

// runClient is the run of -client: write the client, or with -check
// report it stale.
func (inv invocation) runClient(opts options, dir string) int {
	if opts.from != "" {
		return inv.runClientFrom(opts, dir)
	}
	files, diags := GenerateClient(ClientConfig{Dir: dir, Out: opts.client, Patterns: opts.packages, Output: opts.output, Portable: opts.portable})
	diags.Print(inv.stderr, dir)
	if diags.HasErrors() {
		return ExitFail
	}
	if opts.check {
		return checkFiles(files, dir, inv.stderr)
	}
	return inv.writeClient(files)
}

// writeClient writes the client's files, making its directory.
func (inv invocation) writeClient(files []File) int {
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			fmt.Fprintf(inv.stderr, "mcpgen: %v\n", err)
			return ExitFail
		}
	}
	if _, err := Write(files); err != nil {
		fmt.Fprintf(inv.stderr, "mcpgen: %v\n", err)
		return ExitFail
	}
	return ExitOK
}

var _ = bytes.Equal

// TokenEnv is the environment variable whose value -from sends as a
// bearer token to an HTTP server.
const TokenEnv = "MCPGEN_TOKEN"

func (inv invocation) runClientFrom(opts options, dir string) int {
	fmt.Fprintln(inv.stderr, "mcpgen: -from: not yet")
	return ExitFail
}
