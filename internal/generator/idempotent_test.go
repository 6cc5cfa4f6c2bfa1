package generator

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// TestIdempotent generates each golden case and each example three times
// in a module of its own: without a generated file, over the file the
// first run wrote, and over a stale generated file that imports io/fs and
// does not compile. Generation depends only on the user's code, so the
// three runs give the same bytes.
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
	for _, dir := range append(cases, examples...) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			abs, _ := filepath.Abs(dir)
			mod := tempModule(t, abs)
			first := generateOne(t, mod)
			path := filepath.Join(mod, DefaultOutput)
			writeFile(t, path, string(first))
			if again := generateOne(t, mod); !bytes.Equal(first, again) {
				t.Errorf("generating over the previous output gave different bytes")
			}
			writeFile(t, path, names.Header+"\n\npackage stale\n\nimport \"io/fs\"\n\nvar _ fs.FileMode = undefinedName\n")
			if again := generateOne(t, mod); !bytes.Equal(first, again) {
				t.Errorf("generating over a stale output gave different bytes")
			}
		})
	}
}

// generateOne generates the package of dir, which must give one file.
func generateOne(t *testing.T, dir string) []byte {
	t.Helper()
	files, diags := Generate(Config{Dir: dir})
	if diags.HasErrors() || len(files) != 1 {
		t.Fatalf("Generate: %d files, diagnostics %v", len(files), diags)
	}
	return files[0].Content
}
