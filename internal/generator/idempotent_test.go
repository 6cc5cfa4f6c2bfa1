package generator

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// TestIdempotent generates each golden case and each example three times,
// all as packages of one module, in one run each: without a generated
// file, over the file the first run wrote, and over a stale generated file
// that imports io/fs and does not compile. Generation depends only on the
// user's code, so the three runs give the same bytes.
func TestIdempotent(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds modules")
	}
	cases, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	examples, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*"))
	if len(cases) == 0 || len(examples) == 0 {
		t.Fatal("no golden cases or examples")
	}
	mod := t.TempDir()
	if err := copyTemplate(mod); err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, dir := range append(cases, examples...) {
		if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err != nil {
			continue // an example of a client alone: nothing to generate
		}
		pkg := filepath.Base(filepath.Dir(dir)) + "-" + filepath.Base(dir) // golden-x, examples-y
		if err := copySources(dir, filepath.Join(mod, pkg), modulePath+"/"+pkg); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, pkg)
	}
	first := generateAll(t, mod, pkgs)
	for _, pkg := range pkgs {
		writeFile(t, filepath.Join(mod, pkg, DefaultOutput), string(first[pkg]))
	}
	again := generateAll(t, mod, pkgs)
	for _, pkg := range pkgs {
		writeFile(t, filepath.Join(mod, pkg, DefaultOutput), names.Header+"\n\npackage stale\n\nimport \"io/fs\"\n\nvar _ fs.FileMode = undefinedName\n")
	}
	overStale := generateAll(t, mod, pkgs)
	for _, pkg := range pkgs {
		t.Run(pkg, func(t *testing.T) {
			if !bytes.Equal(first[pkg], again[pkg]) {
				t.Errorf("generating over the previous output gave different bytes")
			}
			if !bytes.Equal(first[pkg], overStale[pkg]) {
				t.Errorf("generating over a stale output gave different bytes")
			}
		})
	}
}

// generateAll generates every package of the module in dir in one run,
// which must give one file for each of pkgs, and returns them by package.
func generateAll(t *testing.T, dir string, pkgs []string) map[string][]byte {
	t.Helper()
	files, diags := Generate(Config{Dir: dir, Patterns: []string{"./..."}})
	if diags.HasErrors() || len(files) != len(pkgs) {
		t.Fatalf("Generate: %d files for %d packages, diagnostics %v", len(files), len(pkgs), diags)
	}
	out := map[string][]byte{}
	for _, f := range files {
		out[filepath.Base(filepath.Dir(f.Path))] = f.Content
	}
	for _, pkg := range pkgs {
		if out[pkg] == nil {
			t.Fatalf("Generate wrote no file for %s", pkg)
		}
	}
	return out
}
