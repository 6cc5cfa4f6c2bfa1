package generator

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/mcpgen/mcpgen/internal/generator/internal/apidiff"
	"github.com/mcpgen/mcpgen/internal/generator/internal/emit"
	"github.com/mcpgen/mcpgen/internal/generator/internal/fromgo"
	"github.com/mcpgen/mcpgen/internal/generator/internal/fromschema"
	"github.com/mcpgen/mcpgen/internal/generator/internal/listing"
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
	ClientPkg string             // the client package's name; from Out when empty
	hook      func(stage string) // see Config.hook; called with "client"
}

// GenerateClient loads the one package of cfg.Patterns and returns the
// client package's file for its declarations.
func GenerateClient(cfg ClientConfig) (result []File, diags Diagnostics) {
	defer func() {
		if r := recover(); r != nil { // a bug in mcpgen
			result, diags = nil, append(diags, Diagnostic{Msg: internalError("client", r)})
		}
	}()
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
	if cfg.hook != nil {
		cfg.hook("client")
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
	files, diags := GenerateClient(ClientConfig{Dir: dir, Out: opts.client, Patterns: opts.packages, Output: opts.output, Portable: opts.portable, hook: inv.hook})
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

// TokenEnv is the environment variable whose value -from sends as a
// bearer token to an HTTP server.
const TokenEnv = "MCPGEN_TOKEN"

// ClientFromSchemas returns the client package's files for the server
// whose listing is list: the client, and the listing beside it, which
// -check compares a server with.
func ClientFromSchemas(list []byte, dir, out string) (files []File, diags Diagnostics, err error) {
	defer func() {
		if r := recover(); r != nil { // a bug in mcpgen
			files, err = nil, errors.New(internalError("client", r))
		}
	}()
	outDir := inDir(dir, out)
	name, err := clientPackageName(outDir, "")
	if err != nil {
		return nil, nil, err
	}
	c, warnings, err := fromschema.Client(list, name, clientPath(name))
	if err != nil {
		return nil, nil, err
	}
	for _, w := range warnings {
		diags = append(diags, Diagnostic{Msg: w, Warning: true})
	}
	content, err := emit.ClientFile(c, emit.Config{EnforcesFormat: mcpimpl.EnforcesFormat})
	if err != nil {
		return nil, diags, err
	}
	return []File{
		{Path: filepath.Join(outDir, names.ClientFile), Content: content},
		{Path: filepath.Join(outDir, names.ClientListing), Content: list},
	}, diags, nil
}

// fetchTimeout bounds fetching a server's listing: a command may first
// download the server.
const fetchTimeout = 3 * time.Minute

// runClientFrom is the run of -client with -from.
func (inv invocation) runClientFrom(opts options, dir string) int {
	ctx, cancel := context.WithTimeout(context.Background(), fetchTimeout)
	defer cancel()
	live, err := listing.Fetch(ctx, listing.Source{Text: opts.from, Dir: dir, Token: os.Getenv(TokenEnv)})
	if err != nil {
		fmt.Fprintf(inv.stderr, "mcpgen: -from %s: %v\n", opts.from, err)
		return ExitFail
	}
	if opts.check {
		return inv.checkClientFrom(live, dir, opts.client)
	}
	files, diags, err := ClientFromSchemas(live.JSON, dir, opts.client)
	diags.Print(inv.stderr, dir)
	if err != nil {
		fmt.Fprintf(inv.stderr, "mcpgen: -from %s: %v\n", opts.from, err)
		return ExitFail
	}
	return inv.writeClient(files)
}

// checkClientFrom compares the server's listing now with the one the
// client in out was made from, printing each change as -diff does, and
// checks that the client is what that listing makes. It fails when a
// change breaks the client or the client is stale.
func (inv invocation) checkClientFrom(live *listing.Listing, dir, out string) int {
	saved := filepath.Join(inDir(dir, out), names.ClientListing)
	old, err := os.ReadFile(saved)
	if err != nil {
		fmt.Fprintf(inv.stderr, "mcpgen: -check: %v: make the client with mcpgen -client=%s -from=SOURCE\n", err, out)
		return ExitFail
	}
	changes, err := apidiff.Compare(old, live.JSON)
	if err != nil {
		fmt.Fprintf(inv.stderr, "mcpgen: -check: %v\n", err)
		return ExitFail
	}
	for _, c := range changes {
		fmt.Fprintln(inv.stdout, c)
	}
	code := ExitOK
	if apidiff.Breaking(changes) {
		code = ExitFail
	}
	files, _, err := ClientFromSchemas(old, dir, out)
	if err != nil {
		fmt.Fprintf(inv.stderr, "mcpgen: -check: %s: %v\n", saved, err)
		return ExitFail
	}
	if checkFiles(files[:1], dir, inv.stderr) != ExitOK {
		code = ExitFail
	}
	return code
}
