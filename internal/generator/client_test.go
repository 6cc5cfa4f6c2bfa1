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

// TestClientCheckFrom makes a client from a saved listing, then checks it
// against listings that changed: nothing, something compatible, something
// breaking, and a client edited by hand.
func TestClientCheckFrom(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	v1 := `{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}},{"name":"drop","inputSchema":{"type":"object"}}]}`
	writeFile(t, filepath.Join(dir, "v1.json"), v1)
	if code, _, stderr := runMain(t, dir, "-client=calc", "-from=v1.json"); code != ExitOK {
		t.Fatalf("-client -from: exit %d\n%s", code, stderr)
	}
	for _, f := range []string{"calc/mcp_client.go", "calc/mcp_client.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, listing string
		code          int
		stdout        string
	}{
		{"same", v1, ExitOK, ""},
		{"compatible", strings.Replace(v1, `"required":["a"]`, `"required":["a"],"x":1`, 1), ExitOK, ""},
		{"argument", strings.Replace(v1, `"a":{"type":"integer"}}`, `"a":{"type":"integer"},"b":{"type":"string"}}`, 1), ExitOK, "compatible: tool add: argument b: added\n"},
		{"breaking", `{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}}]}`, ExitFail, "breaking: tool drop: removed\n"},
		{"added", `{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}},{"name":"drop","inputSchema":{"type":"object"}},{"name":"more","inputSchema":{"type":"object"}}]}`, ExitOK, "compatible: tool more: added\n"},
	} {
		writeFile(t, filepath.Join(dir, tc.name+".json"), tc.listing)
		code, stdout, stderr := runMain(t, dir, "-check", "-client=calc", "-from="+tc.name+".json")
		if code != tc.code || stdout != tc.stdout {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d, stdout %q", tc.name, code, stdout, stderr, tc.code, tc.stdout)
		}
	}
	client := filepath.Join(dir, "calc", "mcp_client.go")
	src, _ := os.ReadFile(client)
	writeFile(t, client, strings.Replace(string(src), "calls the tool add", "calls add", 1))
	code, _, stderr := runMain(t, dir, "-check", "-client=calc", "-from=v1.json")
	if code != ExitFail || !strings.Contains(stderr, "calc/mcp_client.go: out of date") {
		t.Errorf("an edited client: exit %d, stderr %q; want exit 1 naming the file", code, stderr)
	}
}

// TestClientCheck checks a client of a package's declarations: missing,
// current, and stale after an edit.
func TestClientCheck(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "shapesclient")
	pkg, _ := filepath.Abs(filepath.Join("testdata", "golden", "shapes"))
	if code, _, stderr := runMain(t, pkg, "-check", "-client="+out, "."); code != ExitFail || !strings.Contains(stderr, "missing") {
		t.Errorf("-check of a client not made: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runMain(t, pkg, "-client="+out, "."); code != ExitOK {
		t.Fatalf("-client: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runMain(t, pkg, "-check", "-client="+out, "."); code != ExitOK {
		t.Errorf("-check of the client just made: exit %d\n%s", code, stderr)
	}
	src, _ := os.ReadFile(filepath.Join(out, "mcp_client.go"))
	writeFile(t, filepath.Join(out, "mcp_client.go"), string(src)+"\n// edited\n")
	if code, _, stderr := runMain(t, pkg, "-check", "-client="+out, "."); code != ExitFail || !strings.Contains(stderr, "out of date") {
		t.Errorf("-check of an edited client: exit %d, stderr %q", code, stderr)
	}
}

// TestClientUsage refuses what -client cannot do.
func TestClientUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-from=x.json"}, ExitUsage, "-from x.json: give -client=DIR too"},
		{[]string{"-client=c", "-list"}, ExitUsage, "-list and -client: -client takes only -check"},
		{[]string{"-client=c", "-from=missing.json"}, ExitFail, "-from missing.json"},
	} {
		code, _, stderr := runMain(t, dir, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("mcpgen %s: exit %d, stderr %q; want exit %d saying %q", strings.Join(tc.args, " "), code, stderr, tc.code, tc.want)
		}
	}
	pkg, _ := filepath.Abs(filepath.Join("testdata", "golden", "shapes"))
	if code, _, stderr := runMain(t, pkg, "-client=.", "."); code != ExitFail || !strings.Contains(stderr, "a directory of its own") {
		t.Errorf("-client=. in the package: exit %d, stderr %q", code, stderr)
	}
}

// TestClientCannotCopy refuses a client that would have to declare again
// a type of a main package that decodes itself, at the tool.
func TestClientCannotCopy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := copyTemplate(dir); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "main.go"), `package main

import "context"

// Stamp decodes itself.
type Stamp struct{ n int }

func (s *Stamp) UnmarshalJSON(b []byte) error { return nil }
func (s Stamp) MarshalJSON() ([]byte, error) { return []byte("1"), nil }

// In is the input.
type In struct {
	At Stamp `+"`json:\"at\" mcp:\"format=date-time\"`"+` // When
}

// Mark marks.
//
//mcp:tool
func Mark(ctx context.Context, in In) (string, error) { return "", nil }

func main() {}
`)
	code, _, stderr := runMain(t, dir, "-client=c", ".")
	want := "main.go:18:1: type Stamp decodes itself and cannot be declared again in the client"
	if code != ExitFail || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 1 saying %q", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "c")); err == nil {
		t.Error("the client's directory was made")
	}
}

// TestClientInternalError turns a panic while making a client into an
// internal error, and writes nothing.
func TestClientInternalError(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "c")
	pkg, _ := filepath.Abs(filepath.Join("testdata", "golden", "shapes"))
	hook := func(stage string) {
		if stage == "client" {
			panic("boom")
		}
	}
	code, _, stderr := runHooked(t, pkg, hook, "-client="+out, ".")
	if code != ExitFail || !strings.Contains(stderr, "internal error in client: boom (this is a bug in mcpgen; please report it)") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the client's directory was made")
	}
}
