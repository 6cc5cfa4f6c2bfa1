package generator

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// TestGolden generates each case of testdata/golden and compares the
// generated file, the -list output, the -doc output and the client of
// -client with the committed golden files.
func TestGolden(t *testing.T) {
	t.Parallel()
	cases, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			abs, _ := filepath.Abs(dir)
			files, diags := generated(abs)
			if diags.HasErrors() || len(files) != 1 {
				t.Fatalf("Generate: %d files, diagnostics %v", len(files), diags)
			}
			list, err := List(files)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join(abs, "mcp_gen.go.golden"), files[0].Content)
			compareGolden(t, filepath.Join(abs, "list.json.golden"), list)
			md, err := Doc(files)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join(abs, "doc.md.golden"), md)
			clients, diags := GenerateClient(ClientConfig{Dir: abs, Out: "client", Patterns: []string{"."}})
			if diags.HasErrors() || len(clients) != 1 {
				t.Fatalf("GenerateClient: %d files, diagnostics %v", len(clients), diags)
			}
			compareGolden(t, filepath.Join(abs, "client.go.golden"), clients[0].Content)
		})
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/generator -run TestGolden -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got); if the change is intended, run go test ./internal/generator -run TestGolden -update:\n%s", filepath.Base(path), diff)
	}
}

// TestGoldenCompiles builds each golden case with its generated file, in
// the shared module where each is a package of its own, and vets it.
func TestGoldenCompiles(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds modules")
	}
	b := sharedModule(t)
	cases, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			if !slices.Contains(b.cases, filepath.Base(dir)) {
				t.Fatalf("the shared module lacks the case %s", filepath.Base(dir))
			}
			if out := b.vetOf(filepath.Base(dir)); out != "" {
				t.Errorf("go vet:\n%s", out)
			}
		})
	}
	if b.vet != "" {
		t.Errorf("go vet over the golden cases failed:\n%s", b.vet)
	}
}
