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
// new module in a temporary directory whose go.mod replaces this module
// with the working tree, and returns the directory. Imports of src's
// sub-packages are rewritten to the new module's paths, since testdata
// under internal/ cannot be imported from another module.
func tempModule(t testing.TB, src string) string {
	t.Helper()
	root := repoRoot(t)
	dir := t.TempDir()
	gomod := "module example.com/e2e\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n"
	writeFile(t, filepath.Join(dir, "go.mod"), gomod)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.sum"), string(sum))
	abs, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		t.Fatal(err)
	}
	copyPackages(t, abs, dir, `"github.com/mcpgen/mcpgen/`+filepath.ToSlash(rel)+`/`, `"example.com/e2e/`)
	goCmd(t, dir, "mod", "tidy")
	return dir
}

// copyPackages copies the files of src and its directories into dst, all
// but generated files, replacing from by to in Go files.
func copyPackages(t testing.TB, src, dst, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir():
			if err := os.Mkdir(filepath.Join(dst, name), 0o755); err != nil {
				t.Fatal(err)
			}
			copyPackages(t, filepath.Join(src, name), filepath.Join(dst, name), from, to)
			continue
		case name == DefaultOutput:
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".go") {
			data = bytes.ReplaceAll(data, []byte(from), []byte(to))
		}
		writeFile(t, filepath.Join(dst, name), string(data))
	}
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
	code := invocation{dir: dir, stdout: &stdout, stderr: &stderr, hook: hook}.run(args)
	return code, stdout.String(), stderr.String()
}
