// Package load reads Go packages with golang.org/x/tools/go/packages. It is
// the only stage that imports go/packages.
package load

import (
	"bytes"
	"fmt"
	"go/token"
	"os/exec"
	"strings"

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
	if len(pkgs) == 0 {
		return nil, nil, nothingLoaded(dir, patterns)
	}
	return pkgs, fset, nil
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
