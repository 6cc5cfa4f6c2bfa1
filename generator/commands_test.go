package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoc runs -doc: Markdown on stdout, nothing written.
func TestDoc(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": toolSource})
	code, stdout, stderr := runMain(t, dir, "-doc")
	want := "## Tools\n\n### `double`\n\nDoubles a number.\n\nHints: read-only.\n\nArguments:\n\n" +
		"| argument | type | required | constraints | description |\n|---|---|---|---|---|\n" +
		"| `n` | integer | yes |  | A number |\n"
	if code != ExitOK || stderr != "" || stdout != want {
		t.Errorf("-doc: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, stderr, stdout, want)
	}
	if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err == nil {
		t.Error("-doc wrote a file")
	}
}

// TestOneMode checks that the flags asking for an output other than
// generated files exclude each other.
func TestOneMode(t *testing.T) {
	t.Parallel()
	code, _, stderr := runMain(t, t.TempDir(), "-list", "-doc")
	if code != ExitUsage || !strings.Contains(stderr, "-list and -doc: give one of them") {
		t.Errorf("-list -doc: exit %d, stderr %q", code, stderr)
	}
}

// TestDiff saves a -list, changes the package, and checks what -diff
// says of each change and its exit status.
func TestDiff(t *testing.T) {
	t.Parallel()
	dir := miniModule(t, map[string]string{"a.go": toolSource})
	_, list, _ := runMain(t, dir, "-list")
	writeFile(t, filepath.Join(dir, "old.json"), list)
	wantRun(t, dir, []string{"-diff", "old.json"}, ExitOK, "", "")

	compatible := strings.Replace(toolSource, "// A number\n}", "// A number\n\tM *int `json:\"m\"` // Another number\n}", 1)
	writeFile(t, filepath.Join(dir, "a.go"), compatible)
	wantRun(t, dir, []string{"-diff", filepath.Join(dir, "old.json")}, ExitOK, "compatible: tool double: argument m: added\n", "")

	breaking := strings.Replace(toolSource, "int `json:\"n\"`", "int `json:\"n\" mcp:\"max=9\"`", 1)
	breaking = strings.Replace(breaking, "//mcp:tool readonly", "//mcp:tool", 1)
	writeFile(t, filepath.Join(dir, "a.go"), breaking)
	wantRun(t, dir, []string{"-diff", "old.json"}, ExitFail, "breaking: tool double: argument n: upper bound <= 9 added\n"+
		"breaking: tool double: no longer read-only\nbreaking: tool double: now destructive\n", "")

	code, stdout, stderr := runMain(t, dir, "-diff", "missing.json")
	if code != ExitFail || stdout != "" || !strings.HasPrefix(stderr, "mcpgen: -diff: ") {
		t.Errorf("-diff missing.json: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	writeFile(t, filepath.Join(dir, "bad.json"), "[]")
	if code, _, stderr := runMain(t, dir, "-diff", "bad.json"); code != ExitFail || !strings.Contains(stderr, "not the output of mcpgen -list") {
		t.Errorf("-diff bad.json: exit %d, stderr %q", code, stderr)
	}
}
