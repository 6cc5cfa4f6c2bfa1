package generator

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"text/template"

	"golang.org/x/mod/module"
)

// The module of mcpgen itself, which a new module requires as a tool.
const (
	selfModule = "github.com/mcpgen/mcpgen"
	// initGoVersion is the go line of a new module: the language version
	// mcpgen's own go.mod requires (a test holds them together).
	initGoVersion = "1.26"
	// pseudoVersion is the version a new module requires when it replaces
	// mcpgen with a local checkout, as go mod edit documents for modules
	// that have no release to name.
	pseudoVersion = "v0.0.0-00010101000000-000000000000"
)

// initFiles are the files of a new module besides go.mod, as templates.
//
//go:embed initmodule/*.tmpl
var initFiles embed.FS

// initModule is what the templates of a new module are filled with.
type initModule struct {
	Name string // the command's name: the module path's last element
}

// runInit is "mcpgen init [-module PATH] [-replace DIR] [dir]": it writes
// a new server module in dir, generates it and prints how to run and test
// it. It writes nothing when any file it would write exists.
func (inv invocation) runInit(args []string) int {
	fset := flag.NewFlagSet("mcpgen init", flag.ContinueOnError)
	fset.SetOutput(inv.stderr)
	modPath := fset.String("module", "", "the new module's path (default: the directory's name)")
	replace := fset.String("replace", "", "use the mcpgen checkout in `DIR` instead of a released version")
	fset.Usage = func() {
		fmt.Fprintln(inv.stderr, "usage: mcpgen init [-module PATH] [-replace DIR] [dir]")
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if fset.NArg() > 1 {
		fmt.Fprintln(inv.stderr, "mcpgen init: give at most one directory")
		return ExitUsage
	}
	wd, err := inv.workDir()
	if err != nil {
		fmt.Fprintf(inv.stderr, "mcpgen init: %v\n", err)
		return ExitFail
	}
	dir := wd
	if fset.NArg() == 1 {
		dir = inDir(wd, fset.Arg(0))
	}
	if err := inv.initModule(dir, *modPath, *replace); err != nil {
		fmt.Fprintf(inv.stderr, "mcpgen init: %v\n", err)
		return ExitFail
	}
	rel, err := filepath.Rel(wd, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = dir
	}
	fmt.Fprintf(inv.stdout, "wrote a new MCP server module in %s; run it, then test it:\n\n", rel)
	if rel != "." {
		fmt.Fprintf(inv.stdout, "\tcd %s\n", rel)
	}
	fmt.Fprintf(inv.stdout, "\tgo run .                       # stdio; -http localhost:8080 serves HTTP\n")
	fmt.Fprintf(inv.stdout, "\tgo test ./...\n")
	return ExitOK
}

// initModule writes the module, tidies it and generates its tools.
func (inv invocation) initModule(dir, modPath, replace string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if modPath == "" {
		modPath = filepath.Base(abs)
	}
	if err := module.CheckImportPath(modPath); err != nil {
		return fmt.Errorf("%v: name the module with -module", err)
	}
	require, err := mcpgenRequirement(replace)
	if err != nil {
		return err
	}
	files, err := moduleFiles(modPath, require)
	if err != nil {
		return err
	}
	// Nothing is written when anything would be overwritten: the check
	// names every file in the way.
	var there []string
	for _, name := range append(slices.Sorted(maps.Keys(files)), "go.sum", DefaultOutput) {
		if _, err := os.Lstat(filepath.Join(abs, name)); err == nil {
			there = append(there, name)
		}
	}
	if len(there) > 0 {
		return fmt.Errorf("%s already holds %s: init writes into a new or empty directory and never overwrites a file", dir, strings.Join(there, ", "))
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := os.WriteFile(filepath.Join(abs, name), files[name], 0o644); err != nil {
			return err
		}
	}
	// Tidy before generating, so that the packages load, and after, for
	// what the generated file imports.
	if err := goIn(abs, "mod", "tidy"); err != nil {
		return err
	}
	gen, diags := Generate(Config{Dir: abs, Output: DefaultOutput})
	if diags.HasErrors() {
		var b strings.Builder
		diags.Print(&b, abs)
		return fmt.Errorf("generating the new module failed (a bug in mcpgen init):\n%s", b.String())
	}
	if _, err := Write(gen); err != nil {
		return err
	}
	return goIn(abs, "mod", "tidy")
}

// requirement is how a new module depends on mcpgen.
type requirement struct {
	version string
	replace string // a local checkout, or ""
}

// mcpgenRequirement is the version of mcpgen a new module requires: the
// local checkout named by replace; else the version of this binary; else,
// for a build from a checkout (go run), that checkout.
func mcpgenRequirement(replace string) (requirement, error) {
	if replace != "" {
		root, err := filepath.Abs(replace)
		if err != nil {
			return requirement{}, err
		}
		if !isSelfModule(root) {
			return requirement{}, fmt.Errorf("-replace %s: not a checkout of %s (no go.mod declaring it)", replace, selfModule)
		}
		return requirement{version: pseudoVersion, replace: root}, nil
	}
	// A released or pseudo-versioned build (go install, go tool) knows
	// its version; a build from a checkout says "(devel)".
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == selfModule && strings.HasPrefix(bi.Main.Version, "v") {
		return requirement{version: bi.Main.Version}, nil
	}
	// A development build: this file's directory is in the checkout,
	// unless the binary was built with -trimpath.
	_, file, _, _ := runtime.Caller(0)
	if root := filepath.Dir(filepath.Dir(filepath.Dir(file))); filepath.IsAbs(root) && isSelfModule(root) {
		return requirement{version: pseudoVersion, replace: root}, nil
	}
	return requirement{}, errors.New("this mcpgen is a development build whose checkout is unknown: give -replace DIR with the checkout's directory")
}

// isSelfModule reports whether dir holds the go.mod of mcpgen.
func isSelfModule(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	return err == nil && bytes.HasPrefix(b, []byte("module "+selfModule+"\n"))
}

// moduleFiles are the new module's files by name, go.mod among them.
func moduleFiles(modPath string, req requirement) (map[string][]byte, error) {
	var gomod strings.Builder
	fmt.Fprintf(&gomod, "module %s\n\ngo %s\n\ntool %s/cmd/mcpgen\n\nrequire %s %s\n", modPath, initGoVersion, selfModule, selfModule, req.version)
	if req.replace != "" {
		fmt.Fprintf(&gomod, "\nreplace %s => %s\n", selfModule, req.replace)
	}
	files := map[string][]byte{"go.mod": []byte(gomod.String())}
	data := initModule{Name: path.Base(modPath)}
	err := fs.WalkDir(initFiles, "initmodule", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		t, err := template.ParseFS(initFiles, p)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		if err := t.Execute(&b, data); err != nil {
			return err
		}
		src, err := format.Source(b.Bytes())
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		files[strings.TrimSuffix(path.Base(p), ".tmpl")] = src
		return nil
	})
	return files, err
}

// goIn runs the go command in dir, with its output in the error.
func goIn(dir string, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return nil
}
