package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// localRecipe is how docs/guide.md's first step starts the command that
// makes a module use a local checkout of mcpgen.
const localRecipe = "go mod edit -replace github.com/mcpgen/mcpgen=PATH "

// guideBlock returns the first Go code block of guide after the line
// holding marker, without the indentation of the list item it is in.
func guideBlock(t *testing.T, guide, marker string) string {
	t.Helper()
	_, rest, ok := strings.Cut(guide, marker)
	if !ok {
		t.Fatalf("docs/guide.md has no %q", marker)
	}
	_, rest, ok = strings.Cut(rest, "```go\n")
	code, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatalf("docs/guide.md has no Go block after %q", marker)
	}
	var b strings.Builder
	for line := range strings.Lines(code) {
		b.WriteString(strings.TrimPrefix(line, "   "))
	}
	return b.String()
}

// TestLocalCheckoutRecipe runs the commands docs/guide.md gives for a
// module built against a local checkout of mcpgen, with the working tree
// as the checkout, then writes the guide's annotated tool and its test,
// generates, builds and runs the test.
func TestLocalCheckoutRecipe(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a module")
	}
	guide, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "guide.md"))
	if err != nil {
		t.Fatal(err)
	}
	var recipe string
	for line := range strings.Lines(string(guide)) {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, localRecipe) {
			recipe = l
		}
	}
	if recipe == "" {
		t.Fatalf("docs/guide.md has no line starting %q", localRecipe)
	}
	dir := t.TempDir()
	goCmd(t, dir, "mod", "init", "example.com/words")
	for cmd := range strings.SplitSeq(strings.ReplaceAll(recipe, "=PATH", "="+repoRoot(t)), " && ") {
		args := strings.Fields(cmd)
		if args[0] != "go" {
			t.Fatalf("the recipe runs %s, not the go command: %s", args[0], recipe)
		}
		goCmd(t, dir, args[1:]...)
	}
	writeFile(t, filepath.Join(dir, "main.go"), guideBlock(t, string(guide), "Write `main.go`"))
	writeFile(t, filepath.Join(dir, "main_test.go"), guideBlock(t, string(guide), "in `main_test.go`"))
	goCmd(t, dir, "generate", "./...")
	if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err != nil {
		t.Fatalf("go generate did not write %s", DefaultOutput)
	}
	goCmd(t, dir, "mod", "tidy") // the guide's third step
	goCmd(t, dir, "build", "./...")
	goCmd(t, dir, "test", "./...")
}
