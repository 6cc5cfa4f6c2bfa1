package generator

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// moduleSource is an annotated package named pkg whose tool takes an item
// of the module's shared package, and which calls the generated
// MCPTools of the package named next, when there is one: a package of a
// module run may need another's generated file before it exists. Each
// tool has a name of its own, as tools served together must.
func moduleSource(pkg, next string) string {
	imports := "\t\"context\"\n\n\t\"example.com/x/shared\"\n"
	use := ""
	if next != "" {
		imports += "\t\"example.com/x/" + next + "\"\n"
		use = "\n// All lists this package's tools and the next one's.\nfunc All() int { return len(MCPTools()) + len(" + next + ".MCPTools()) }\n"
	}
	return "package " + pkg + "\n\nimport (\n" + imports + ")\n\n" +
		"// Get gets an item.\n//\n//mcp:tool readonly name=get_" + pkg + "\nfunc Get(ctx context.Context, in shared.Item) (string, error) { return in.ID, nil }\n" + use
}

const sharedSource = "package shared\n\n// Item is shared.\ntype Item struct {\n\tID string `json:\"id\"` // Item identifier\n}\n"

// TestModuleRun runs mcpgen ./... at the root of a module whose packages
// use each other's generated functions before they exist: one load of
// every package, a file in each annotated one, none in the others, and
// the module builds.
func TestModuleRun(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{
		"shared/s.go": sharedSource,
		"a/a.go":      moduleSource("a", "b"),
		"b/b.go":      moduleSource("b", "c"),
		"c/c.go":      moduleSource("c", ""),
		"gen.go":      "// Package x generates the module's MCP files.\npackage x\n\n//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen ./...\n",
	})
	var loads atomic.Int32
	hook := func(stage string) {
		if stage == "load" {
			loads.Add(1)
		}
	}
	if code, stdout, stderr := runHooked(t, dir, hook, "./..."); code != ExitOK || stdout != "" || stderr != "" {
		t.Fatalf("mcpgen ./...: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if n := loads.Load(); n != 1 {
		t.Errorf("mcpgen ./... loaded packages %d times; want once for the whole module", n)
	}
	for _, p := range []string{"a", "b", "c"} {
		if _, err := os.Stat(filepath.Join(dir, p, DefaultOutput)); err != nil {
			t.Errorf("%s/%s not written", p, DefaultOutput)
		}
	}
	for _, p := range []string{".", "shared"} {
		if _, err := os.Stat(filepath.Join(dir, p, DefaultOutput)); err == nil {
			t.Errorf("%s/%s written in a package without annotations", p, DefaultOutput)
		}
	}
	wantRun(t, dir, []string{"-check", "./..."}, ExitOK, "", "")
}

// TestChdir checks -C: patterns, generated files and printed paths are
// relative to the directory it names, as with the go command's -C.
func TestChdir(t *testing.T) {
	t.Parallel()
	mod := miniModule(t, map[string]string{"a/a.go": moduleSource("a", ""), "shared/s.go": sharedSource})
	parent := filepath.Dir(mod)
	rel := filepath.Base(mod)
	wantRun(t, parent, []string{"-C", rel, "./..."}, ExitOK, "", "")
	if _, err := os.Stat(filepath.Join(mod, "a", DefaultOutput)); err != nil {
		t.Fatalf("-C %s ./... did not write a/%s", rel, DefaultOutput)
	}
	writeFile(t, filepath.Join(mod, "a", DefaultOutput), readOrEmpty(filepath.Join(mod, "a", DefaultOutput))+"// edited\n")
	wantRun(t, parent, []string{"-C", rel, "-check", "./..."}, ExitFail, "", "a/mcp_gen.go: out of date: rerun go generate\n")
	wantRun(t, parent, []string{"-C", filepath.Join(rel, "a"), "-check"}, ExitFail, "", "mcp_gen.go: out of date: rerun go generate\n")
	code, _, stderr := runMain(t, parent, "-C", "no-such-dir")
	if code != ExitFail || !strings.HasPrefix(stderr, "mcpgen: -C ") {
		t.Errorf("-C no-such-dir: exit %d, stderr %q; want exit %d and the error", code, stderr, ExitFail)
	}
}

// TestREADMEFlags holds the reference's table of flags to the table of
// flags.go, which the flag set and -h are made from.
func TestREADMEFlags(t *testing.T) {
	t.Parallel()
	const path = "../../docs/reference.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	begin := "<!-- begin flags: generated from internal/generator/flags.go by go test ./internal/generator -run TestREADMEFlags -update -->\n"
	end := "<!-- end flags -->\n"
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("docs/reference.md lacks the lines that enclose the table of flags; put them where it goes:\n%s%s", begin, end)
	}
	i += len(begin)
	if *update {
		if err := os.WriteFile(path, []byte(readme[:i]+markdownFlags()+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(markdownFlags(), readme[i:j]); diff != "" {
		t.Errorf("docs/reference.md's table of flags differs from internal/generator/flags.go (-want +got); run go test ./internal/generator -run TestREADMEFlags -update:\n%s", diff)
	}
	if !strings.Contains(readme, "\n"+strings.TrimPrefix(usageLine(), "usage: ")+"\n") {
		t.Errorf("docs/reference.md lacks the usage line %q", usageLine())
	}
}

// TestManualListsEveryFlag checks that -h names every flag of the table
// and that the flag set defines each.
func TestManualListsEveryFlag(t *testing.T) {
	t.Parallel()
	for _, f := range flags {
		if !strings.Contains(usage, "\t"+f.Usage()+"\n\t\t"+f.Doc+"\n") {
			t.Errorf("-h lacks the flag %s", f.Usage())
		}
		arg := "-" + f.Name
		if f.Value != "" && !strings.HasPrefix(f.Value, "[") {
			arg += "=x"
		}
		if code, _, stderr := runMain(t, t.TempDir(), arg, "-h"); strings.Contains(stderr, "not defined") {
			t.Errorf("%s is in the table but not in the flag set (exit %d): %s", f.Usage(), code, stderr)
		}
	}
}
