package generator

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestInitRefusesToOverwrite: a directory holding any file init would
// write is left as it was, and the error names every such file.
func TestInitRefusesToOverwrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.go"), "package main\n")
	writeFile(t, filepath.Join(dir, DefaultOutput), "package main\n")
	code, stdout, stderr := runMain(t, dir, "init", "-replace", repoRoot(t))
	if code != ExitFail || stdout != "" {
		t.Fatalf("init over main.go: exit %d, stdout %q, want %d and nothing", code, stdout, ExitFail)
	}
	if !strings.Contains(stderr, "already holds main.go, "+DefaultOutput+":") || !strings.Contains(stderr, "never overwrites") {
		t.Errorf("init over main.go: stderr %q, want the files in the way named", stderr)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("init over main.go wrote files: the directory holds %d entries, want 2", len(entries))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) != "package main\n" {
		t.Errorf("main.go changed to %q", b)
	}
}

// TestInitUsage: bad flags, two directories and a module path Go refuses
// are errors before anything is written.
func TestInitUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"init", "a", "b"}, ExitUsage, "give at most one directory"},
		{[]string{"init", "-nope"}, ExitUsage, "flag provided but not defined: -nope"},
		{[]string{"init", "-module", "bad path!", "x"}, ExitFail, "name the module with -module"},
		{[]string{"init", "-replace", ".", "x"}, ExitFail, "-replace .: not a checkout of github.com/mcpgen/mcpgen"},
	} {
		dir := t.TempDir()
		code, _, stderr := runMain(t, dir, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("mcpgen %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("mcpgen %s wrote %d files", strings.Join(c.args, " "), len(entries))
		}
	}
}

// TestInitGoVersion: a new module's go line is the one mcpgen's own
// go.mod requires.
func TestInitGoVersion(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(b)
	if m == nil || string(m[1]) != initGoVersion {
		t.Errorf("go.mod's go line is %q, init writes go %s", m, initGoVersion)
	}
}

// TestInitModule runs init in an empty directory and then the commands it
// prints, as a new user would: the server answers over stdio, its test
// passes, and go generate rewrites nothing.
func TestInitModule(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a module")
	}
	parent := t.TempDir()
	code, stdout, stderr := runMain(t, parent, "init", "-replace", repoRoot(t), "hello")
	if code != ExitOK {
		t.Fatalf("mcpgen init hello: exit %d\n%s", code, stderr)
	}
	dir := filepath.Join(parent, "hello")
	gen, err := os.ReadFile(filepath.Join(dir, DefaultOutput))
	if err != nil {
		t.Fatalf("init generated nothing: %v", err)
	}
	var cmds []string
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "\t"); ok {
			cmd, _, _ := strings.Cut(line, "#")
			cmds = append(cmds, strings.TrimSpace(cmd))
		}
	}
	if want := []string{"cd hello", "go run .", "go test ./..."}; strings.Join(cmds, "\n") != strings.Join(want, "\n") {
		t.Fatalf("init printed the commands %q, want %q; all it printed:\n%s", cmds, want, stdout)
	}

	t.Run("run", func(t *testing.T) {
		in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}
`
		cmd := exec.Command("go", strings.Fields(cmds[1])[1:]...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(in)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", cmds[1], err, errOut.String())
		}
		if !strings.Contains(out.String(), `"serverInfo":{"name":"hello","version":"0.1.0"}`) || !strings.Contains(out.String(), `"text":"Hello, Ada."`) {
			t.Errorf("%s answered:\n%s", cmds[1], out.String())
		}
	})
	t.Run("test", func(t *testing.T) {
		if out := goCmd(t, dir, strings.Fields(cmds[2])[1:]...); !strings.Contains(out, "ok") {
			t.Errorf("%s printed %q", cmds[2], out)
		}
	})
	t.Run("generate", func(t *testing.T) {
		goCmd(t, dir, "generate", "./...")
		again, err := os.ReadFile(filepath.Join(dir, DefaultOutput))
		if err != nil || !bytes.Equal(gen, again) {
			t.Errorf("go generate changed %s (err %v)", DefaultOutput, err)
		}
	})
}
