// Package load reads Go packages with golang.org/x/tools/go/packages. It is
// the only stage that imports go/packages.
package load

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/packages"
)

// Mode is what the analysis needs: syntax with comments, and full type
// information for the packages named on the command line.
const Mode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule

// Packages loads the packages matching patterns, relative to dir.
func Packages(dir string, patterns []string) ([]*packages.Package, *token.FileSet, error) {
	fset := token.NewFileSet()
	cfg := &packages.Config{Mode: Mode, Dir: dir, Fset: fset}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("loading packages: %w", err)
	}
	return pkgs, fset, nil
}
