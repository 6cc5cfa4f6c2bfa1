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

const usage = `usage: mcpgen [flags] [packages]

mcpgen writes MCP tool registrations for the functions annotated with
//mcp:tool in each package (default "."), into one generated file per
package.

Flags:
`

// Main runs the mcpgen command with args (without the program name) and
// returns its exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "write nothing; exit 1 naming each generated file that is missing or stale")
	list := fs.Bool("list", false, "write nothing; print the tools/list result as JSON")
	output := fs.String("o", DefaultOutput, "name of the generated file in each package")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if *output == "" || filepath.Base(*output) != *output || filepath.Ext(*output) != ".go" {
		fmt.Fprintf(stderr, "mcpgen: -o %q: want a file name ending in .go, without a directory\n", *output)
		return ExitUsage
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return ExitFail
	}
	files, diags := Generate(Config{Dir: dir, Patterns: fs.Args(), Output: *output})
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

func checkFiles(files []File, dir string, stderr io.Writer) int {
	stale := Stale(files)
	for _, path := range stale {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			rel = path
		}
		fmt.Fprintf(stderr, "%s: out of date: rerun go generate\n", rel)
	}
	if len(stale) > 0 {
		return ExitFail
	}
	return ExitOK
}
