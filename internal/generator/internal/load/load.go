// Package load reads Go packages with golang.org/x/tools/go/packages. It is
// the only stage that imports go/packages: it hands the analysis its own
// small Package, with the loader's and type checker's errors already
// filtered and positioned, so nothing after it depends on how packages were
// loaded.
package load

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// mode is what the analysis needs: syntax with comments, and full type
// information for the packages named on the command line.
const mode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule |
	packages.NeedEmbedFiles

// Config says what to load.
type Config struct {
	Dir      string   // working directory; patterns are relative to it
	Patterns []string // package patterns; "." when empty
	Output   string   // name of the generated file, whose errors are not the user's
}

// Package is one loaded package: what the analysis reads of it.
type Package struct {
	Name    string // package name
	Path    string // import path
	Dir     string // directory of its files; "" when it has none
	GoFiles []string
	// EmbedFiles are the files the package's //go:embed lines embed,
	// absolute paths, which //mcp:skills reads.
	EmbedFiles []string
	Syntax     []*ast.File    // the files, parsed with comments
	Types      *types.Package // nil when the package could not be type-checked
	Info       *types.Info
	Module     string // path of the package's module; "" outside a module
	// Imports are the import paths of the packages its files import, as
	// the go command resolves them.
	Imports []string
	// Local returns the package of the given import path, type-checked
	// from source, when it belongs to the same module; nil otherwise.
	// Declarations of other packages are read from it rather than from
	// the export data of the imports, which holds only what the importing
	// package refers to.
	Local func(path string) *types.Package
	// Errors are the loader's and type checker's errors that are the
	// user's to fix (see errorsOf).
	Errors diag.List
}

// Packages loads the packages matching cfg.Patterns into one file set.
// Each package is loaded as if its generated file did not exist, so that
// what a run generates does not depend on what an earlier run wrote.
func Packages(cfg Config) (*token.FileSet, []*Package, error) {
	fset := token.NewFileSet()
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := loadWithout(cfg, fset, mode, patterns)
	if err != nil {
		return nil, nil, err
	}
	if len(pkgs) == 0 {
		return nil, nil, nothingLoaded(cfg.Dir, patterns)
	}
	loc := &locals{cfg: cfg, fset: fset, pkgs: map[string]*types.Package{}}
	out := make([]*Package, len(pkgs))
	for i, p := range pkgs {
		out[i] = convert(p, cfg.Output)
		module := out[i].Module
		out[i].Local = func(path string) *types.Package { return loc.lookup(module, path) }
		if module != "" && p.Types != nil {
			loc.pkgs[module+" "+p.PkgPath] = p.Types // loaded already, the same way
		}
	}
	return fset, out, nil
}

// loadWithout loads the packages matching patterns with every generated
// file among their files read as its bare package clause, so that its
// declarations and imports are absent from the type-checked package. The
// go command lists the files first, to learn the package name of the
// other files. The files are replaced as they are parsed rather than by an
// overlay, since with an overlay go/packages type-checks every dependency
// from source, which takes seconds where export data takes milliseconds.
// Only a stale file of another package name (the package was renamed
// since) takes the overlay: the go command itself must not see two
// package names.
func loadWithout(cfg Config, fset *token.FileSet, mode packages.LoadMode, patterns []string) ([]*packages.Package, error) {
	listed, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: cfg.Dir}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	bare := map[string][]byte{} // generated file -> its package clause alone
	renamed := false
	for _, p := range listed {
		for _, f := range p.GoFiles {
			if filepath.Base(f) == cfg.Output && IsGenerated(f) {
				name := userPackage(p, f)
				bare[f] = []byte("package " + name + "\n")
				renamed = renamed || packageName(f) != name
			}
		}
	}
	lc := &packages.Config{Mode: mode, Dir: cfg.Dir, Fset: fset}
	if renamed {
		lc.Overlay = bare
	} else {
		lc.ParseFile = func(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
			if clause, ok := bare[name]; ok {
				src = clause
			}
			return parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments)
		}
	}
	pkgs, err := packages.Load(lc, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	return pkgs, nil
}

// packageName is the name in the package clause of a file, or "".
func packageName(file string) string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly)
	if err != nil {
		return ""
	}
	return f.Name.Name
}

// userPackage is the package name of the files of p other than the
// generated file gen; p.Name when p has no other file.
func userPackage(p *packages.Package, gen string) string {
	for _, f := range p.GoFiles {
		if name := packageName(f); f != gen && name != "" {
			return name
		}
	}
	return p.Name
}

// Locals returns a Package.Local for a package that another tool loaded
// (go vet): the module is that of the package in dir, looked up on the
// first call, and packages are loaded into fset.
func Locals(dir, output string, fset *token.FileSet) func(path string) *types.Package {
	loc := &locals{cfg: Config{Dir: dir, Output: output}, fset: fset, pkgs: map[string]*types.Package{}}
	module := sync.OnceValue(func() string {
		pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedModule, Dir: dir}, ".")
		if err != nil || len(pkgs) != 1 || pkgs[0].Module == nil {
			return ""
		}
		return pkgs[0].Module.Path
	})
	return func(path string) *types.Package { return loc.lookup(module(), path) }
}

// locals loads other packages of a module on demand, once each.
type locals struct {
	cfg  Config
	fset *token.FileSet
	mu   sync.Mutex
	pkgs map[string]*types.Package // by module and import path; nil when not local
}

// lookup returns the package path of module, loaded from source as the
// packages named on the command line are, or nil when it is of another
// module or cannot be type-checked.
func (l *locals) lookup(module, path string) *types.Package {
	if module == "" || path != module && !strings.HasPrefix(path, module+"/") {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	key := module + " " + path
	if p, ok := l.pkgs[key]; ok {
		return p
	}
	l.pkgs[key] = nil
	pkgs, err := loadWithout(l.cfg, l.fset, mode, []string{path})
	if err == nil && len(pkgs) == 1 && pkgs[0].Module != nil && pkgs[0].Module.Path == module && pkgs[0].Types != nil {
		l.pkgs[key] = pkgs[0].Types
	}
	return l.pkgs[key]
}

// convert keeps what the analysis needs of p.
func convert(p *packages.Package, output string) *Package {
	lp := &Package{Name: p.Name, Path: p.PkgPath, GoFiles: p.GoFiles, EmbedFiles: p.EmbedFiles, Syntax: p.Syntax,
		Types: p.Types, Info: p.TypesInfo, Errors: errorsOf(p.Errors, output)}
	if p.Module != nil {
		lp.Module = p.Module.Path
	}
	for _, imp := range p.Imports {
		lp.Imports = append(lp.Imports, imp.PkgPath)
	}
	slices.Sort(lp.Imports)
	if len(p.GoFiles) > 0 {
		lp.Dir = filepath.Dir(p.GoFiles[0])
	}
	return lp
}

// nothingLoaded explains why packages.Load found no package. When it asks
// the go command for export data it keeps quiet about a failing go list
// (a go.mod that needs go mod tidy, or does not parse), so go list is run
// again here to tell the user what it said.
func nothingLoaded(dir string, patterns []string) error {
	cmd := exec.Command("go", append([]string{"list", "-e", "--"}, patterns...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return fmt.Errorf("loading packages: %s", msg)
		}
		return fmt.Errorf("loading packages: go list: %v", err)
	}
	return fmt.Errorf("no Go package matches %s", strings.Join(patterns, " "))
}

// ReadFile reads a file named as go/packages and export data name files:
// a standard library file may be named "$GOROOT/src/...".
func ReadFile(name string) ([]byte, error) {
	if rest, ok := strings.CutPrefix(name, "$GOROOT"); ok {
		name = filepath.Join(build.Default.GOROOT, filepath.FromSlash(rest))
	}
	return os.ReadFile(name)
}

// IsGenerated reports whether path holds a file mcpgen generated, which it
// may overwrite or remove.
func IsGenerated(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && bytes.HasPrefix(data, []byte(names.Header+"\n"))
}
