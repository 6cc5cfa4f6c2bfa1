package generator

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Exit codes of the command.
const (
	ExitOK    = 0 // files generated, or -check found nothing stale
	ExitFail  = 1 // diagnostics with errors, stale files under -check, or I/O failure
	ExitUsage = 2 // bad flags
)

// usage is the manual printed by -h.
const usage = `usage: mcpgen [-check] [-list] [-strict] [-o name.go] [packages]

mcpgen turns Go functions annotated with //mcp:tool into Model Context
Protocol tools. For each package (default ".") with at least one tool it
writes one generated file (mcp_gen.go) declaring MCPTools() []mcprt.Tool,
and (*T).MCPTools() for each type T with tool methods; it removes a stale
generated file from a package that no longer has tools. Run it from
go generate:

	//go:generate go tool mcpgen

Directives go at the end of a top-level func's or method's doc comment,
after a "//" line, with no space after the slashes:

	//mcp:tool [key[=value]]...
	//mcp:param NAME [key[=value]]...     (positional parameters only)
	//mcp:icon src=URL [mime=TYPE] [sizes=WxH[,WxH]] [theme=light|dark]

Values are bare words or Go quoted strings; a bare boolean key means true.

//mcp:tool keys:
	name=NAME          tool name, 1-128 of [A-Za-z0-9_.-]; default: snake_case of the Go name
	title=TEXT         human-readable title
	description=TEXT   replaces the doc comment as the description
	readonly, destructive, idempotent, openworld
	                   behaviour hints, published only when written
	task=forbidden|optional|required
	input=FILE, output=FILE
	                   a JSON Schema file (relative to the Go file) replacing the generated one

Handler shapes (ctx context.Context is an optional first parameter):
	func F(ctx, in In) (Out, error)        In a struct: its fields are the properties
	func F(ctx, a string, n int) (Out, error)
	                                       each parameter is a property; describe it with //mcp:param
	Out: a struct (structured result), string, number, bool, []byte,
	mcprt.Result, any other JSON value, or absent (F returns only error, or nothing)

Struct fields: the json tag names a property; the mcp tag constrains it:
	required, optional, enum=a|b|c, desc=, title=, default=, min=, max=,
	exclusiveMin=, exclusiveMax=, multipleOf=, minLength=, maxLength=,
	pattern=, format=, minItems=, maxItems=, uniqueItems
(a value holding a comma is single-quoted: pattern='^[a-z]{1,3}$').

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
