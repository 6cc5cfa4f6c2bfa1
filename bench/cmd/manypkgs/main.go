// Command manypkgs writes a module of many annotated packages, to time
// mcpgen on a whole module: one run for every package (mcpgen ./...)
// against one run a package, as a //go:generate line in each package makes
// go generate ./... do. Each package has its own tools, whose inputs use
// a struct of a shared package, and a main package serves them all.
//
//	go run ./bench/cmd/manypkgs -dir /tmp/many -packages 20 -tools 10
//
// -each puts a //go:generate line in every package; without it the module
// has one, at its root, for ./... . The module requires mcpgen from -mcpgen
// (default: this working tree) with a replace directive and lists it as a
// tool, so that go generate can run go tool mcpgen; run go mod tidy in it
// before timing. The module is not meant to be committed.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	dir := flag.String("dir", "", "directory to write the module into (created; must not hold a go.mod)")
	npkg := flag.Int("packages", 20, "annotated packages")
	ntool := flag.Int("tools", 10, "tools in each package")
	each := flag.Bool("each", false, "a //go:generate line in each package, instead of one at the root")
	repo := flag.String("mcpgen", ".", "the mcpgen working tree the module's replace directive names")
	flag.Parse()
	if *dir == "" || *npkg < 1 || *ntool < 1 {
		log.Fatal("manypkgs: give -dir, and -packages and -tools of at least 1")
	}
	root, err := filepath.Abs(*repo)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(*dir, "go.mod")); err == nil {
		log.Fatalf("manypkgs: %s already holds a module", *dir)
	}
	for path, content := range module(root, *npkg, *ntool, *each) {
		write(filepath.Join(*dir, path), content)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		log.Fatal(err)
	}
	write(filepath.Join(*dir, "go.sum"), string(sum))
}

func write(path, content string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		log.Fatal(err)
	}
}

// module returns the files of the module by path.
func module(repo string, npkg, ntool int, each bool) map[string]string {
	files := map[string]string{
		"go.mod": "module example.com/many\n\ngo 1.26\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n\n" +
			"require github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + repo + "\n",
		"common/common.go": commonSource,
	}
	var imports, adds strings.Builder
	for p := range npkg {
		name := pkgName(p)
		files[name+"/tools.go"] = packageSource(name, ntool, each)
		fmt.Fprintf(&imports, "\t\"example.com/many/%s\"\n", name)
		fmt.Fprintf(&adds, "\tsrv.AddTools(%s.MCPTools()...)\n", name)
	}
	gen := ""
	if !each {
		gen = "\n//go:generate go tool mcpgen ./...\n"
	}
	files["main.go"] = "// Command many serves the tools of every package.\npackage main\n\nimport (\n\t\"context\"\n\n" +
		"\t\"github.com/mcpgen/mcpgen/runtime/mcprt\"\n\t\"github.com/mcpgen/mcpgen/runtime/mcpserver\"\n\n" + imports.String() + ")\n" + gen +
		"\nfunc main() {\n\tsrv := mcpserver.New(mcprt.Identity{Name: \"many\", Version: \"1.0.0\"})\n" + adds.String() +
		"\tsrv.ServeStdio(context.Background())\n}\n"
	return files
}

func pkgName(i int) string { return fmt.Sprintf("p%02d", i+1) }

const commonSource = `// Package common holds the types the tools share.
package common

import "time"

// Page selects a page of results.
type Page struct {
	Offset int       ` + "`json:\"offset,omitempty\" mcp:\"min=0\"`" + `     // Results to skip
	Limit  int       ` + "`json:\"limit,omitempty\" mcp:\"min=1,max=100\"`" + ` // Results to return
	Since  time.Time ` + "`json:\"since,omitzero\"`" + `                  // Only results after this time
}
`

// packageSource is one annotated package of ntool tools, named after the
// package, since the server serves the tools of every package together.
func packageSource(name string, ntool int, each bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Package %s is one of the module's tool packages.\npackage %s\n\n", name, name)
	b.WriteString("import (\n\t\"context\"\n\n\t\"example.com/many/common\"\n)\n")
	if each {
		b.WriteString("\n//go:generate go tool mcpgen\n")
	}
	for i := range ntool {
		fmt.Fprintf(&b, `
// In%[1]d is the input of tool %[1]d.
type In%[1]d struct {
	Query string      `+"`json:\"query\" mcp:\"minLength=1\"`"+`       // Words to find
	Kind  string      `+"`json:\"kind\" mcp:\"enum=a|b|c\"`"+`          // Kind of thing
	Tags  []string    `+"`json:\"tags,omitempty\" mcp:\"maxItems=8\"`"+` // Labels to match
	Page  common.Page `+"`json:\"page\"`"+`                              // Which results
}

// Find%[1]d finds things of kind %[1]d.
//
//mcp:tool readonly name=%[2]s_find%[1]d
func Find%[1]d(ctx context.Context, in In%[1]d) (int, error) { return len(in.Tags), nil }
`, i, name)
	}
	return b.String()
}
