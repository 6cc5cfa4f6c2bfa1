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
