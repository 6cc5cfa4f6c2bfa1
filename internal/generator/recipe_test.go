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

// recipeMain is a server of one annotated tool, as the guide's second step
// writes one.
const recipeMain = `// Command words counts words.
package main

import (
	"context"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

//go:generate go tool mcpgen

// CountInput is the text to count.
type CountInput struct {
	Text string ` + "`json:\"text\"`" + ` // Text to count the words of
}

// CountWords counts the words of a text.
//
//mcp:tool readonly
func CountWords(ctx context.Context, in CountInput) (int, error) { return len(strings.Fields(in.Text)), nil }

func main() {
	_ = mcpserver.New(mcprt.Identity{Name: "words", Version: "0.1.0"}, MCPTools()...).ServeStdio(context.Background())
}
`

// TestLocalCheckoutRecipe runs the commands docs/guide.md gives for a
// module built against a local checkout of mcpgen, with the working tree
// as the checkout, then writes an annotated tool, generates and builds.
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
	writeFile(t, filepath.Join(dir, "main.go"), recipeMain)
	goCmd(t, dir, "generate", "./...")
	if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err != nil {
		t.Fatalf("go generate did not write %s", DefaultOutput)
	}
	goCmd(t, dir, "build", "./...")
}
