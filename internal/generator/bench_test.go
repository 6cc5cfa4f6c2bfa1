package generator

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/generator/internal/load"
)

// BenchmarkGenerate measures mcpgen on synthetic packages of 100 and 1000
// tools: "load" is packages.Load of the package alone, "generate" is the
// whole of Generate (load, analyze, schema, emit, format). Their ratio, in
// the same run, is the generator's own cost over what loading costs anyway.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{100, 1000} {
		dir := b.TempDir()
		writeFile(b, filepath.Join(dir, "go.mod"), "module example.com/bench\n\ngo 1.26\n")
		writeFile(b, filepath.Join(dir, "tools.go"), syntheticTools(n))
		b.Run(fmt.Sprintf("load/tools=%d", n), func(b *testing.B) {
			for b.Loop() {
				_, pkgs, err := load.Packages(load.Config{Dir: dir, Output: DefaultOutput})
				if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
					b.Fatalf("load: %v %v", err, pkgs)
				}
			}
		})
		b.Run(fmt.Sprintf("generate/tools=%d", n), func(b *testing.B) {
			for b.Loop() {
				files, diags := Generate(Config{Dir: dir})
				if len(diags) > 0 || len(files) != 1 {
					b.Fatalf("generate: %d files, %v", len(files), diags)
				}
			}
		})
	}
}

// BenchmarkGenerateClient measures mcpgen -client on the same synthetic
// packages of 100 and 1000 tools, and on bench/hundred: the whole of
// GenerateClient, loading included.
func BenchmarkGenerateClient(b *testing.B) {
	dirs := map[string]string{}
	for _, n := range []int{100, 1000} {
		dir := b.TempDir()
		writeFile(b, filepath.Join(dir, "go.mod"), "module example.com/bench\n\ngo 1.26\n")
		writeFile(b, filepath.Join(dir, "tools.go"), syntheticTools(n))
		dirs[fmt.Sprintf("tools=%d", n)] = dir
	}
	dirs["bench/hundred"] = filepath.Join(repoRoot(b), "bench", "hundred")
	for _, name := range []string{"tools=100", "tools=1000", "bench/hundred"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				files, diags := GenerateClient(ClientConfig{Dir: dirs[name], Out: "client", Patterns: []string{"."}})
				if diags.HasErrors() || len(files) != 1 {
					b.Fatalf("GenerateClient: %d files, %v", len(files), diags)
				}
			}
		})
	}
}

// syntheticTools is a package of n name-keyed tools, each with its own
// input struct of four constrained, described properties.
func syntheticTools(n int) string {
	var b strings.Builder
	b.WriteString("package bench\n\nimport \"context\"\n")
	for i := range n {
		fmt.Fprintf(&b, `
// In%[1]d is the input of tool %[1]d.
type In%[1]d struct {
	Name  string   `+"`json:\"name\" mcp:\"minLength=1,maxLength=64\"`"+` // Name of the thing
	Count int      `+"`json:\"count\" mcp:\"min=0,max=1000\"`"+`            // How many
	Tags  []string `+"`json:\"tags,omitempty\" mcp:\"maxItems=8\"`"+`        // Labels to attach
	Mode  string   `+"`json:\"mode\" mcp:\"enum=fast|slow\"`"+`              // Processing mode
}

// Tool%[1]d does job %[1]d.
//
//mcp:tool readonly
func Tool%[1]d(ctx context.Context, in In%[1]d) (int, error) { return in.Count, nil }
`, i)
	}
	return b.String()
}
