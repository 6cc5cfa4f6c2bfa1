package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClientGolden makes the client of each listing of testdata/client,
// a case a schema keyword the mapping handles, and compares it and its
// warnings with the golden files.
func TestClientGolden(t *testing.T) {
	t.Parallel()
	cases, err := filepath.Glob(filepath.Join("testdata", "client", "*"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no client cases: %v", err)
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			abs, _ := filepath.Abs(dir)
			list, err := os.ReadFile(filepath.Join(abs, "listing.json"))
			if err != nil {
				t.Fatal(err)
			}
			files, diags, err := ClientFromSchemas(list, abs, ".")
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join(abs, "mcp_client.go.golden"), files[0].Content)
			var warnings strings.Builder
			diags.Print(&warnings, abs)
			compareGolden(t, filepath.Join(abs, "warnings.golden"), []byte(warnings.String()))
		})
	}
}

// TestClientGoldenCompiles vets the client of each listing of
// testdata/client, made in the shared module.
func TestClientGoldenCompiles(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds modules")
	}
	b := sharedModule(t)
	cases, _ := filepath.Glob(filepath.Join("testdata", "client", "*"))
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			if out := b.vetOf("clients/" + filepath.Base(dir)); out != "" {
				t.Errorf("go vet:\n%s", out)
			}
		})
	}
}
