package check_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVetTool builds cmd/mcpvet, runs go vet -vettool with it over the
// generator's diagnostics cases, and checks that it reports, for each case,
// exactly the lines mcpgen prints (its want.txt), in any order.
func TestVetTool(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds mcpvet and runs go vet")
	}
	root, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	bin := filepath.Join(t.TempDir(), "mcpvet")
	if out, err := command(root, "go", "build", "-o", bin, "./cmd/mcpvet"); err != nil {
		t.Fatalf("building mcpvet: %v\n%s", err, out)
	}
	cases, _ := filepath.Glob(filepath.Join(root, "internal", "generator", "testdata", "diag", "*"))
	args := []string{"vet", "-vettool=" + bin}
	for _, c := range cases {
		args = append(args, "./"+filepath.ToSlash(mustRel(t, root, c)))
	}
	out, err := command(root, "go", args...)
	if err == nil {
		t.Fatalf("go vet found nothing:\n%s", out)
	}
	got := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		dir, rest, ok := strings.Cut(line, ": ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		file := strings.Split(dir, ":")[0]
		name := filepath.Base(filepath.Dir(file))
		if inner := otherFile.FindString(rest); inner != "" {
			// reported at the directive naming a non-Go file, with the
			// file's own position first in the message
			got[name] = append(got[name], rest)
			continue
		}
		got[name] = append(got[name], filepath.Base(dir)+": "+rest)
	}
	for _, c := range cases {
		want, err := os.ReadFile(filepath.Join(c, "want.txt"))
		if err != nil {
			t.Fatal(err)
		}
		var wantLines []string
		for _, l := range strings.Split(strings.TrimSpace(string(want)), "\n") {
			if !vetCannotSee(filepath.Base(c), l) {
				wantLines = append(wantLines, l)
			}
		}
		slices.Sort(wantLines)
		gotLines := got[filepath.Base(c)]
		slices.Sort(gotLines)
		if diff := cmp.Diff(wantLines, gotLines); diff != "" {
			t.Errorf("%s: go vet -vettool=mcpvet differs from mcpgen (-mcpgen +vet):\n%s", filepath.Base(c), diff)
		}
	}
}

// vetCannotSee reports whether go vet cannot give mcpgen's diagnostic line
// of case name, for a reason outside mcpvet:
//   - a skill's files are embedded, and an analysis pass lists a
//     package's Go files and other files, never its embedded ones, so
//     nothing read from them (and no check that needs them) reaches vet;
//   - a problem positioned in another package's file (types: hidden) is
//     not one of the analyzed package's, so vet drops it.
func vetCannotSee(name, line string) bool {
	switch name {
	case "skills":
		return true
	case "skillsplace":
		return strings.Contains(line, "a second //mcp:skills") || strings.Contains(line, "no SKILL.md below")
	case "types":
		return strings.HasPrefix(line, "hidden/")
	}
	return false
}

// otherFile matches the position of a non-Go file at the start of a
// message.
var otherFile = regexp.MustCompile(`^[^ :]+\.json:[0-9]+:[0-9]+: `)

func command(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustRel(t *testing.T, base, path string) string {
	rel, err := filepath.Rel(base, path)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}
