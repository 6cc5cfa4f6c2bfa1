package generator

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
)

// Exit codes of the command.
const (
	ExitOK    = 0 // files generated, or -check found nothing stale
	ExitFail  = 1 // diagnostics with errors, stale files under -check, or I/O failure
	ExitUsage = 2 // bad flags
)

// usage is the manual printed by -h. Its directives and keys are printed
// from the tables the annotations package parses by, so the manual says
// what the parser accepts.
var usage = manual()

// manual assembles the text of -h around the tables of the annotations
// package.
func manual() string {
	var b strings.Builder
	b.WriteString(manualIntro)
	for _, d := range annotations.Directives() {
		fmt.Fprintf(&b, "\t%s\n\t\t%s\n", d.Usage(), d.Doc)
	}
	b.WriteString(manualValues)
	for _, d := range annotations.Directives() {
		if len(d.Keys) == 0 && !d.TagKeys {
			continue
		}
		fmt.Fprintf(&b, "\n//mcp:%s keys:\n", d.Name)
		if d.TagKeys {
			b.WriteString("\tthe keys of the mcp tag (below), and\n")
		}
		writeKeys(&b, d.Keys)
	}
	b.WriteString(manualShapes)
	writeKeys(&b, annotations.TagKeys())
	b.WriteString(manualEnd)
	return b.String()
}

// writeKeys writes one key a line with its meaning in a column, or on the
// next line when the key is too long for the column.
func writeKeys(b *strings.Builder, keys []annotations.Key) {
	const width = 21
	for _, k := range keys {
		u := k.Usage()
		if len(u) > width-2 {
			fmt.Fprintf(b, "\t%s\n\t%*s%s\n", u, width, "", k.Doc)
			continue
		}
		fmt.Fprintf(b, "\t%-*s%s\n", width, u, k.Doc)
	}
}

const manualIntro = `usage: mcpgen [-check] [-list] [-strict] [-o name.go] [packages]

mcpgen turns Go functions annotated with //mcp:tool into Model Context
Protocol tools. For each package (default ".") with at least one tool or
form it writes one generated file (mcp_gen.go) declaring MCPTools()
[]mcprt.Tool, and (*T).MCPTools() for each type T with tool methods; it
removes a stale generated file from a package that no longer has either.
Run it from go generate:

	//go:generate go tool mcpgen

Directives go at the end of a doc comment (of a top-level func or method,
or of a struct type for //mcp:form), after a "//" line, with no space after
the slashes:

`

const manualValues = `
Values are bare words or Go quoted strings; a bare boolean key means true,
and key=false may be written out.
`

const manualShapes = `
Handler shapes (ctx context.Context is an optional first parameter):
	func F(ctx, in In) (Out, error)        In a struct: its fields are the properties
	func F(ctx, a string, n int) (Out, error)
	                                       each parameter is a property; describe it with //mcp:param
	Out: a struct (structured result), string, number, bool, []byte,
	mcprt.Result, any other JSON value, or absent (F returns only error, or nothing)

Struct fields: the json tag names a property; the mcp tag constrains it with
keys separated by commas (a value holding a comma is single-quoted:
pattern='^[a-z]{1,3}$'). Keys that constrain a value apply to the items of
a slice or array field.

mcp tag keys:
`

const manualEnd = `
Every problem of the run is printed as file:line:col: message, sorted,
paths relative to the working directory; warnings (a property without a
description, a description over 1024 characters) are printed as
file:line:col: warning: message. No file is written when there is an error.
The same checks run under go vet with the mcpvet command:
go vet -vettool=$(which mcpvet) ./...

Exit status: 0 success (warnings allowed), 1 errors, warnings under -strict,
stale files under -check, or an I/O failure, 2 bad usage.

Flags:
`

// Main runs the mcpgen command with args (without the program name) and
// returns its exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	return invocation{stdout: stdout, stderr: stderr}.run(args)
}

// run is Main in inv's directory.
func (inv invocation) run(args []string) int {
	stdout, stderr := inv.stdout, inv.stderr
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "write nothing; exit 1 naming each generated file that is missing or stale, or stale to remove")
	list := fs.Bool("list", false, "write nothing; print the tools/list result as JSON")
	strict := fs.Bool("strict", false, "treat warnings as errors")
	output := fs.String("o", DefaultOutput, "name of the generated file in each package")
	fs.Usage = func() {} // -h prints the manual below; errors a short hint
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return ExitOK
		}
		fmt.Fprintln(stderr, "usage: mcpgen [-check] [-list] [-strict] [-o name.go] [packages]; mcpgen -h prints the manual")
		return ExitUsage
	}
	if *output == "" || filepath.Base(*output) != *output || filepath.Ext(*output) != ".go" {
		fmt.Fprintf(stderr, "mcpgen: -o %q: want a file name ending in .go, without a directory\n", *output)
		return ExitUsage
	}
	dir, err := inv.workDir()
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return ExitFail
	}
	files, diags := Generate(Config{Dir: dir, Patterns: fs.Args(), Output: *output, Strict: *strict, hook: inv.hook})
	diags.Print(stderr, dir)
	if diags.HasErrors() {
		return ExitFail
	}
	switch {
	case *list:
		return printList(files, stdout, stderr)
	case *check:
		return checkFiles(files, dir, stderr)
	}
	if _, err := Write(files); err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return ExitFail
	}
	return ExitOK
}

func printList(files []File, stdout, stderr io.Writer) int {
	js, err := List(files)
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return ExitFail
	}
	stdout.Write(js)
	return ExitOK
}

// checkFiles names each file that -check finds missing, out of date, or to
// be removed.
func checkFiles(files []File, dir string, stderr io.Writer) int {
	stale := Stale(files)
	byPath := map[string]File{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	for _, path := range stale {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			rel = path
		}
		_, statErr := os.Stat(path)
		switch {
		case byPath[path].Content == nil:
			fmt.Fprintf(stderr, "%s: the package has no tools any more: rerun go generate to remove the file\n", rel)
		case statErr != nil:
			fmt.Fprintf(stderr, "%s: missing: run go generate\n", rel)
		default:
			fmt.Fprintf(stderr, "%s: out of date: rerun go generate\n", rel)
		}
	}
	if len(stale) > 0 {
		return ExitFail
	}
	return ExitOK
}
