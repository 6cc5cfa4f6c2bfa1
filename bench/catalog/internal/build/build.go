// Package build writes the generated files of package catalog, which are
// not committed: tools.go, the 500 annotated tools of surfaces.go, and
// mcp_gen.go, what mcpgen generates from them (1.4 MiB). Overlay writes
// both into a directory with an overlay file that lays them over the
// package, for go build, go vet and go test -overlay.
package build

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/mcpgen/mcpgen/internal/generator"
)

// Package is the import path of package catalog.
const Package = "github.com/mcpgen/mcpgen/bench/catalog"

// Tag is the build tag under which the files that use the generated
// declarations build: without it the package holds its doc alone.
const Tag = "catalog"

// Overlay writes tools.go and mcp_gen.go of the package in pkgDir into
// dir, with overlay.json, which maps pkgDir/tools.go and
// pkgDir/mcp_gen.go to them, and returns the overlay file's path. It
// generates in a module of its own in dir, of the same go version, which
// holds the package's doc.go (its //mcp:search) and tools.go.
func Overlay(pkgDir, dir string) (string, error) {
	pkgDir, err := filepath.Abs(pkgDir)
	if err != nil {
		return "", err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	src, err := Tools()
	if err != nil {
		return "", err
	}
	doc, err := os.ReadFile(filepath.Join(pkgDir, "doc.go"))
	if err != nil {
		return "", err
	}
	goVersion, err := moduleGo(pkgDir)
	if err != nil {
		return "", err
	}
	mod := filepath.Join(dir, "module")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		return "", err
	}
	for name, b := range map[string][]byte{
		"go.mod":   fmt.Appendf(nil, "module catalog\n\ngo %s\n", goVersion),
		"doc.go":   doc,
		"tools.go": src,
	} {
		if err := os.WriteFile(filepath.Join(mod, name), b, 0o644); err != nil {
			return "", err
		}
	}
	files, diags := generator.Generate(generator.Config{Dir: mod})
	if len(diags) > 0 { // warnings too: the catalog has none
		var b bytes.Buffer
		diags.Print(&b, mod)
		return "", fmt.Errorf("generating the catalog:\n%s", b.Bytes())
	}
	if len(files) != 1 || files[0].Content == nil {
		return "", errors.New("generating the catalog: want one generated file")
	}
	replace := map[string]string{}
	for name, b := range map[string][]byte{"tools.go": src, generator.DefaultOutput: files[0].Content} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return "", err
		}
		replace[filepath.Join(pkgDir, name)] = p
	}
	overlay, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "overlay.json")
	return p, os.WriteFile(p, overlay, 0o644)
}

// moduleGo returns the go version of the module that holds dir.
func moduleGo(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			f, err := modfile.ParseLax(filepath.Join(d, "go.mod"), b, nil)
			if err != nil {
				return "", err
			}
			if f.Go == nil {
				return "", fmt.Errorf("%s: no go line", filepath.Join(d, "go.mod"))
			}
			return f.Go.Version, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is in no module", dir)
		}
	}
}

// Dir returns the directory of package catalog, as the go command finds
// it from the working directory.
func Dir() (string, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}", Package)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %v: %s", Package, err, stderr.Bytes())
	}
	return strings.TrimSpace(string(out)), nil
}
