package generator

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStaleFileBreaksBuild generates a package, changes a tool function's
// signature without regenerating, and checks that the build fails in the
// generated file with a message telling the user to rerun go generate.
func TestStaleFileBreaksBuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a module")
	}
	mod := tempModule(t, filepath.Join("testdata", "golden", "shapes"))
	if code, _, stderr := runMain(t, mod); code != ExitOK {
		t.Fatalf("mcpgen exit %d:\n%s", code, stderr)
	}
	goCmd(t, mod, "build", ".")
	src := filepath.Join(mod, "shapes.go")
	old := readOrEmpty(src)
	changed := strings.Replace(old, "func Repeat(word string, times int) string {", "func Repeat(word string, times int64) string {", 1)
	if changed == old {
		t.Fatal("the case no longer declares Repeat as expected")
	}
	writeFile(t, src, changed)
	cmd := exec.Command("go", "build", ".")
	cmd.Dir = mod
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err == nil {
		t.Fatal("a stale generated file still builds")
	}
	if !strings.Contains(out.String(), "mcp_gen.go:") || !strings.Contains(out.String(), "mcpgen_Repeat_changed_rerun_go_generate") {
		t.Errorf("build output does not point at the guard:\n%s", out.String())
	}
	if code, _, stderr := runMain(t, mod); code != ExitOK {
		t.Fatalf("regenerating: exit %d:\n%s", code, stderr)
	}
	goCmd(t, mod, "build", ".")
}
