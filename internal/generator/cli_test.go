package generator

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// toolSource is a package with one documented tool, whose directive is on
// line 12.
const toolSource = `package x

import "context"

// In is the input.
type In struct {
	N int ` + "`json:\"n\"`" + ` // A number
}

// Double doubles a number.
//
//mcp:tool readonly
func Double(ctx context.Context, in In) (int, error) { return 2 * in.N, nil }
`

// miniModule writes a module without requirements holding files (paths
// relative to the module root) and returns its directory. The generator
// needs no requirement: it reads only the user's packages.
func miniModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/x\n\ngo 1.26\n"
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, content)
	}
	return dir
}

func readOrEmpty(path string) string {
	data, _ := os.ReadFile(path)
	return string(data)
}

func wantRun(t *testing.T, dir string, args []string, wantCode int, wantStdout, wantStderr string) {
	t.Helper()
	code, stdout, stderr := runMain(t, dir, args...)
	if code != wantCode || stdout != wantStdout || stderr != wantStderr {
		t.Errorf("mcpgen %s: exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q",
			strings.Join(args, " "), code, stdout, stderr, wantCode, wantStdout, wantStderr)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": toolSource})
	gen := filepath.Join(dir, DefaultOutput)

	wantRun(t, dir, []string{"-check"}, ExitFail, "", "mcp_gen.go: missing: run go generate\n")
	if _, err := os.Stat(gen); err == nil {
		t.Fatal("-check wrote the generated file")
	}
	wantRun(t, dir, nil, ExitOK, "", "")
	wantRun(t, dir, []string{"-check"}, ExitOK, "", "")

	writeFile(t, gen, readOrEmpty(gen)+"// edited\n")
	wantRun(t, dir, []string{"-check"}, ExitFail, "", "mcp_gen.go: out of date: rerun go generate\n")
	if !strings.HasSuffix(readOrEmpty(gen), "// edited\n") {
		t.Error("-check rewrote a stale file")
	}

	writeFile(t, filepath.Join(dir, "a.go"), "package x\n\n// Double is no tool any more.\nfunc Double(n int) int { return 2 * n }\n")
	wantRun(t, dir, []string{"-check"}, ExitFail, "", "mcp_gen.go: the package has no tools any more: rerun go generate to remove the file\n")
	if _, err := os.Stat(gen); err != nil {
		t.Fatal("-check removed the stale file")
	}
	wantRun(t, dir, nil, ExitOK, "", "")
	if _, err := os.Stat(gen); err == nil {
		t.Error("the stale generated file was not removed")
	}
	wantRun(t, dir, []string{"-check"}, ExitOK, "", "")
}

func TestList(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": toolSource})
	code, stdout, stderr := runMain(t, dir, "-list")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
			Annotations map[string]any  `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
		t.Fatalf("-list output is not JSON: %v\n%s", err, stdout)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "double" || list.Tools[0].Annotations["readOnlyHint"] != true {
		t.Errorf("-list: %s", stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err == nil {
		t.Error("-list wrote a file")
	}
}

// TestListMeta checks that a descriptor with both an MCP App's _meta.ui
// and scopes lists one _meta holding both, not two members of that name,
// which JSON decoders read as the last alone.
func TestListMeta(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": `package x

// Viewer is the page.
//
//mcp:resource uri=ui://x/viewer scope=read
func Viewer() string { return "<!doctype html>" }

// Show shows an item.
//
//mcp:tool ui=ui://x/viewer scope=read
func Show(id int) (string, error) { return "item", nil }
`})
	code, stdout, stderr := runMain(t, dir, "-list")
	if code != ExitOK {
		t.Fatalf("-list: exit %d, stderr %q", code, stderr)
	}
	if n := strings.Count(stdout, `"_meta"`); n != 2 {
		t.Errorf("-list has %d _meta members, want one a descriptor:\n%s", n, stdout)
	}
	var list struct {
		Tools []struct {
			Meta map[string]any `json:"_meta"`
		} `json:"tools"`
		Resources []struct {
			Meta map[string]any `json:"_meta"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
		t.Fatal(err)
	}
	if meta := list.Tools[0].Meta; meta[ScopesMeta] == nil || meta["ui"] == nil {
		t.Errorf("the tool's _meta lacks the scopes or ui: %v\n%s", meta, stdout)
	}
	if meta := list.Resources[0].Meta; meta[ScopesMeta] == nil {
		t.Errorf("the resource's _meta lacks the scopes: %v\n%s", meta, stdout)
	}
}

func TestOutputFlag(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": toolSource})
	wantRun(t, dir, []string{"-o", "tools_gen.go"}, ExitOK, "", "")
	if !strings.HasPrefix(readOrEmpty(filepath.Join(dir, "tools_gen.go")), "// Code generated by mcpgen. DO NOT EDIT.\n") {
		t.Error("-o tools_gen.go did not write tools_gen.go")
	}
	wantRun(t, dir, []string{"-o", "tools_gen.go", "-check"}, ExitOK, "", "")
	for _, bad := range []string{"", "sub/x.go", "x.txt", "../x.go"} {
		wantRun(t, dir, []string{"-o", bad}, ExitUsage, "",
			"mcpgen: -o \""+bad+"\": want a file name ending in .go, without a directory\n")
	}
	if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err == nil {
		t.Error("a bad -o wrote the default file")
	}
}

func TestStrict(t *testing.T) {
	t.Parallel()
	src := strings.Replace(toolSource, " // A number", "", 1)
	dir := miniModule(t, map[string]string{"a.go": src})
	warning := "a.go:7:2: warning: property n has no description: add a doc or line comment, or desc= in its mcp tag\n"
	wantRun(t, dir, []string{"-strict"}, ExitFail, "", strings.Replace(warning, "warning: ", "", 1))
	if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err == nil {
		t.Error("-strict wrote a file despite a warning")
	}
	wantRun(t, dir, nil, ExitOK, "", warning)
	if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err != nil {
		t.Error("a warning stopped the file from being written")
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runMain(t, t.TempDir(), "-h")
	if code != ExitOK || stderr != "" {
		t.Fatalf("-h: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"usage: mcpgen", "//mcp:tool", "//mcp:param", "//mcp:icon", "readonly", "task=", "minLength=",
		"-C DIR", "-check", "-list", "-strict", "-o NAME", "Exit status: 0", "2 bad usage", "mcpvet"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-h output lacks %q", want)
		}
	}
}

func TestUnknownFlag(t *testing.T) {
	t.Parallel()
	wantRun(t, t.TempDir(), []string{"-frobnicate"}, ExitUsage, "",
		"flag provided but not defined: -frobnicate\n"+usageLine()+"; mcpgen -h prints the manual\n")
}

// TestInternalError makes each stage panic through the test hook and
// checks that the panic becomes one positioned internal error, exit 1, with
// nothing written.
func TestInternalError(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": toolSource})
	for _, stage := range []string{"analyze", "schema", "emit"} {
		t.Run(stage, func(t *testing.T) {
			hook := func(s string) {
				if s == stage {
					panic("boom")
				}
			}
			code, stdout, stderr := runHooked(t, dir, hook)
			want := "a.go:12:1: internal error in " + stage + ": boom (this is a bug in mcpgen; please report it)\n"
			if code != ExitFail || stdout != "" || stderr != want {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stderr %q", code, stdout, stderr, ExitFail, want)
			}
			if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err == nil {
				t.Error("a file was written after an internal error")
			}
		})
	}
}

// TestSeveralPackages runs mcpgen ./... over packages with errors, a good
// one and a shared type used by two of them: every diagnostic is printed
// once, sorted across packages, relative to the working directory, and no
// package gets a file until all are fixed.
func TestSeveralPackages(t *testing.T) {
	t.Parallel()
	shared := "package shared\n\n// Item is shared.\ntype Item struct {\n\tID string `json:\"id\"`\n}\n"
	user := func(pkg, directive string) string {
		return "package " + pkg + "\n\nimport (\n\t\"context\"\n\n\t\"example.com/x/shared\"\n)\n\n" +
			"// Get gets an item.\n//\n" + directive + "\nfunc Get(ctx context.Context, in shared.Item) error { return nil }\n"
	}
	dir := miniModule(t, map[string]string{
		"shared/s.go": shared,
		"b/b.go":      user("b", "//mcp:tool titel=x"),
		"a/a.go":      user("a", "//mcp:tool task=never"),
		"c/c.go":      user("c", "//mcp:tool"),
	})
	wantRun(t, dir, []string{"./..."}, ExitFail, "", ""+
		"a/a.go:11:12: bad value \"never\" for key \"task\" (valid: forbidden, optional, required)\n"+
		"b/b.go:11:12: unknown key \"titel\"; did you mean \"title\"? (valid keys: name, title, description, readonly, destructive, idempotent, openworld, task, input, output, ui, visibility, scope, nolint, group, pin)\n")
	for _, p := range []string{"a", "b", "c"} {
		if _, err := os.Stat(filepath.Join(dir, p, DefaultOutput)); err == nil {
			t.Errorf("%s/%s written despite errors elsewhere", p, DefaultOutput)
		}
	}
	writeFile(t, filepath.Join(dir, "a", "a.go"), user("a", "//mcp:tool"))
	writeFile(t, filepath.Join(dir, "b", "b.go"), user("b", "//mcp:tool"))
	wantRun(t, dir, []string{"./..."}, ExitOK, "", "")
	for _, p := range []string{"a", "b", "c"} {
		if _, err := os.Stat(filepath.Join(dir, p, DefaultOutput)); err != nil {
			t.Errorf("%s/%s not written", p, DefaultOutput)
		}
	}
}

// declsSource is a package declaring a tool, a prompt, a resource and a
// template, whose directives are on lines 7, 12, 17 and 22.
func declsSource(pkg string) string {
	return "package " + pkg + `

import "context"

// Get gets.
//
//mcp:tool
func Get(ctx context.Context) (string, error) { return "", nil }

// Greet greets.
//
//mcp:prompt
func Greet(ctx context.Context) (string, error) { return "hi", nil }

// Page is a page.
//
//mcp:resource uri=kb://page
func Page(ctx context.Context) (string, error) { return "", nil }

// Item is an item.
//
//mcp:resource uri=kb://items/{id}
func Item(ctx context.Context, id string) (string, error) { return id, nil }
`
}

// TestDuplicatesAcrossPackages checks that two packages declaring a tool,
// prompt, resource or template of one name are an error at both
// declarations where they are served together: always under -list, -doc
// and -diff, which print the run as one server, and when a package of the
// run imports both, whatever the mode; never for packages apart.
func TestDuplicatesAcrossPackages(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a/a.go": declsSource("a"), "b/b.go": declsSource("b")})
	decls := []struct{ line, what, fix string }{
		{"7", `tool name "get"`, "set name= on one of them"},
		{"12", `prompt name "greet"`, "set name= on one of them"},
		{"17", `resource uri "kb://page"`, "change the uri of one of them"},
		{"22", `resource template "kb://items/{id}"`, "change the uri of one of them"},
	}
	both := func(why string) string {
		var b strings.Builder
		for _, at := range [][2]string{{"a", "b"}, {"b", "a"}} {
			for _, d := range decls {
				fmt.Fprintf(&b, "%s/%s.go:%s:1: %s is also declared at %s/%s.go:%s:1, and %s: %s\n", at[0], at[0], d.line, d.what, at[1], at[1], d.line, why, d.fix)
			}
		}
		return b.String()
	}
	oneServer := func(mode string) string {
		return both(mode + " prints the packages of the run as one server (run it on each server's packages apart)")
	}
	wantRun(t, dir, []string{"-list", "./a", "./b"}, ExitFail, "", oneServer("-list"))
	wantRun(t, dir, []string{"-doc", "./..."}, ExitFail, "", oneServer("-doc"))
	writeFile(t, filepath.Join(dir, "old.json"), `{"tools":[]}`)
	wantRun(t, dir, []string{"-diff", "old.json", "./..."}, ExitFail, "", oneServer("-diff"))
	// Apart, each package is its own server's.
	wantRun(t, dir, []string{"./..."}, ExitOK, "", "")
	if code, _, stderr := runMain(t, dir, "-list", "./a"); code != ExitOK {
		t.Errorf("-list ./a: exit %d, stderr %q", code, stderr)
	}
	// A main package serving both makes them one server's.
	writeFile(t, filepath.Join(dir, "main.go"), "package main\n\nimport (\n\t\"example.com/x/a\"\n\t\"example.com/x/b\"\n)\n\n"+
		"func main() { _, _ = a.MCPTools(), b.MCPTools() }\n")
	wantRun(t, dir, []string{"./..."}, ExitFail, "", both("package example.com/x imports both"))
	wantRun(t, dir, []string{"-check", "./..."}, ExitFail, "", both("package example.com/x imports both"))
	wantRun(t, dir, []string{"-check", "./a", "./b"}, ExitOK, "", "")
	// So does one package importing the other.
	writeFile(t, filepath.Join(dir, "main.go"), "package main\n\nfunc main() {}\n")
	writeFile(t, filepath.Join(dir, "b/use.go"), "package b\n\nimport \"example.com/x/a\"\n\n// All is every tool.\nfunc All() int { return len(a.MCPTools()) + len(MCPTools()) }\n")
	wantRun(t, dir, []string{"-check", "./..."}, ExitFail, "", both("package example.com/x/b imports package example.com/x/a"))
}

// TestGoListFailureIsReported checks that a package the go command cannot
// list is an error that says why, not a silent run that writes nothing:
// here a module requiring mcpgen without a go.sum, once its generated file
// imports the runtime.
func TestGoListFailureIsReported(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := miniModule(t, map[string]string{
		"a.go":       toolSource,
		"mcp_gen.go": "// Code generated by mcpgen. DO NOT EDIT.\n\npackage x\n\nimport _ \"github.com/mcpgen/mcpgen/runtime/mcprt\"\n",
	})
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/x\n\ngo 1.26\n\n"+
		"require github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => "+root+"\n")
	code, stdout, stderr := runMain(t, dir)
	if code != ExitFail || stdout != "" || !strings.Contains(stderr, "go mod tidy") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and the go command's advice to run go mod tidy",
			code, stdout, stderr, ExitFail)
	}
	// A pattern that matches nothing says so.
	dir = miniModule(t, map[string]string{"a.go": toolSource, "sub/README": "no Go here"})
	wantRun(t, dir, []string{"./sub/..."}, ExitFail, "", "mcpgen: no Go package matches ./sub/...\n")
}
