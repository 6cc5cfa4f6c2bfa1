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
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/generator/internal/diag"
	"github.com/mcpgen/mcpgen/generator/internal/names"
)

// mode is what the analysis needs: syntax with comments, and full type
// information for the packages named on the command line.
const mode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports

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
	Syntax  []*ast.File    // the files, parsed with comments
	Types   *types.Package // nil when the package could not be type-checked
	Info    *types.Info
	// Errors are the loader's and type checker's errors that are the
	// user's to fix (see errorsOf).
	Errors diag.List
}

// Packages loads the packages matching cfg.Patterns into one file set.
func Packages(cfg Config) (*token.FileSet, []*Package, error) {
	fset := token.NewFileSet()
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: cfg.Dir, Fset: fset}, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("loading packages: %w", err)
	}
	if len(pkgs) == 0 {
		return nil, nil, nothingLoaded(cfg.Dir, patterns)
	}
	out := make([]*Package, len(pkgs))
	for i, p := range pkgs {
		out[i] = convert(p, cfg.Output)
	}
	return fset, out, nil
}

// convert keeps what the analysis needs of p.
func convert(p *packages.Package, output string) *Package {
	lp := &Package{Name: p.Name, Path: p.PkgPath, GoFiles: p.GoFiles, Syntax: p.Syntax,
		Types: p.Types, Info: p.TypesInfo, Errors: errorsOf(p.Errors, output)}
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
