package generator

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// repoRoot is the root of this module's working tree.
func repoRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// tempModule copies the files of src, its sub-packages included, into a
// new module in a temporary directory, with the go.mod and go.sum of the
// shared module (which replace this module with the working tree), and
// returns the directory. Imports of src's sub-packages are rewritten to
// the new module's paths, since testdata under internal/ cannot be
// imported from another module.
func tempModule(t testing.TB, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := copyTemplate(dir); err != nil {
		t.Fatal(err)
	}
	if err := copySources(src, dir, modulePath); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goCmd runs the go command in dir and fails the test on error.
func goCmd(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out.String())
	}
	return out.String()
}

// runMain runs the command in process in dir and returns its exit code,
// standard output and standard error.
func runMain(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	return runHooked(t, dir, nil, args...)
}

// runHooked is runMain with a hook into the stages (see Config.hook).
func runHooked(t *testing.T, dir string, hook func(stage string), args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := invocation{dir: dir, stdout: &stdout, stderr: &stderr, hook: hook}.main(args)
	return code, stdout.String(), stderr.String()
}
