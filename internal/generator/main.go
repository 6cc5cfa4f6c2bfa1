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
	"github.com/mcpgen/mcpgen/internal/generator/internal/apidiff"
	"github.com/mcpgen/mcpgen/internal/generator/internal/lint"
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
	b.WriteString(usageLine() + "\n")
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
	writeFlags(&b)
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

const manualIntro = `
mcpgen turns Go functions annotated with //mcp:tool into Model Context
Protocol tools. For each package (default ".") with at least one tool or
form it writes one generated file (mcp_gen.go) declaring MCPTools()
[]mcprt.Tool, and (*T).MCPTools() for each type T with tool methods; it
removes a stale generated file from a package that no longer has either.
Run it from go generate, in each package:

	//go:generate go tool mcpgen

or once for the whole module, from one file at the module root: every
package is then loaded and type-checked in one go, which is much faster
than a run per package:

	//go:generate go tool mcpgen ./...

A new server module starts with "mcpgen init [-module PATH] [-replace DIR]
[dir]": a tool, a main serving stdio and HTTP, a test, generated and
tidied. It never overwrites a file.

Directives go at the end of a doc comment (of a top-level func or method,
or of a struct type for //mcp:form), after a "//" line, with no space after
the slashes:

`

const manualValues = `
Values are bare words or quoted; a bare boolean key means true, and
key=false may be written out. Directives and tags quote alike: 'single
quotes' hold any text but a single quote, with no escapes; "double quotes"
hold a Go string literal. pattern='^a,b$' and pattern="^a,b$" are one value.
`

const manualShapes = `
Handler shapes (ctx context.Context is an optional first parameter):
	func F(ctx, in In) (Out, error)        In a struct: its fields are the properties
	func F(ctx, a string, n int) (Out, error)
	                                       each parameter is a property; describe it with //mcp:param
	Out: a struct (structured result), string, number, bool, []byte,
	mcprt.Result, any other JSON value, or absent (F returns only error, or nothing)
	mcprt.Structured[Out]: Out a struct, pointer, slice or map; its Value is the
	                                       structured result, its Text the text block

Struct fields: the json tag names a property; the mcp tag constrains it with
keys separated by commas (a value holding a comma is single-quoted:
pattern='^[a-z]{1,3}$'). Keys that constrain a value apply to the items of
a slice or array field.

Enums from constants: a field of a named type declared in the module being
generated takes the type's constants as its enum, in declaration order.
A string type: every constant of the type in its package. An integer type:
only when its constants are all in one const block, with distinct,
consecutive values, written with iota or by hand (Low = 1; Normal = 2;
High = 3); bit flags (1 << iota), units (KB = 1024) and a lone constant
are plain integers. Types of the standard library and of dependencies
(os.FileMode, time.Month) have no enum. noenum turns the enum off for one
field; enum=a|b replaces it. A run reads no earlier generated file, so
its output depends only on the code written by hand.

mcp tag keys:
`

const manualEnd = `
Every problem of the run is printed as file:line:col: message, sorted,
paths relative to the working directory; warnings (a property without a
description, a description over 1024 characters) are printed as
file:line:col: warning: message. No file is written when there is an error.
The same checks run under go vet with the mcpvet command:
go vet -vettool=$(which mcpvet) ./...

-lint prints a line a tool saying which profiles accept its input schema,
and warns at the Go field of each thing a profile rejects, once for all
the tools that share the field; -lint=PROFILES checks only those. Each
warning ends with its rule, which nolint=RULE in the field's mcp tag (or
the tool's directive, for a warning there) silences. -lint also warns at
a tool that is not read-only and says nothing of destructive, which
clients then take for destructive. -portable rewrites in every input
schema what a profile rejects but can be said another way with the same
meaning.

Exit status: 0 success (warnings allowed, what -lint finds included), 1
errors, warnings under -strict (with -lint, anything a profile rejects),
stale files under -check, a change that breaks clients under -diff, or an
I/O failure, 2 bad usage.

Flags:
`

// Main runs the mcpgen command with args (without the program name) and
// returns its exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	return invocation{stdout: stdout, stderr: stderr}.main(args)
}

// main is Main in inv's directory: "init" starts a new module, anything
// else is a run of the generator.
func (inv invocation) main(args []string) int {
	if len(args) > 0 && args[0] == "init" {
		return inv.runInit(args[1:])
	}
	return inv.run(args)
}

// options are the flags of one run.
type options struct {
	chdir       string
	check, list bool
	stats       bool // with list
	budget      int  // with lint; 0: none
	doc         bool
	card        bool
	diff        string
	lint        lintFlag
	portable    bool
	strict      bool
	output      string
	client      string
	from        string
	packages    []string
}

// parse reads the flags; it returns ok false, with the exit code, when the
// run ends there (-h, or a usage error, both printed).
func (inv invocation) parse(args []string) (opts options, code int, ok bool) {
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(inv.stderr)
	doc := func(name string) string { return lookupFlag(name).Doc }
	fs.StringVar(&opts.chdir, "C", "", doc("C"))
	fs.BoolVar(&opts.check, "check", false, doc("check"))
	fs.BoolVar(&opts.list, "list", false, doc("list"))
	fs.BoolVar(&opts.stats, "stats", false, doc("stats"))
	fs.IntVar(&opts.budget, "budget", 0, doc("budget"))
	fs.BoolVar(&opts.doc, "doc", false, doc("doc"))
	fs.StringVar(&opts.diff, "diff", "", doc("diff"))
	fs.BoolVar(&opts.card, "card", false, doc("card"))
	fs.Var(&opts.lint, "lint", doc("lint"))
	fs.BoolVar(&opts.portable, "portable", false, doc("portable"))
	fs.BoolVar(&opts.strict, "strict", false, doc("strict"))
	fs.StringVar(&opts.client, "client", "", doc("client"))
	fs.StringVar(&opts.from, "from", "", doc("from"))
	fs.StringVar(&opts.output, "o", DefaultOutput, doc("o"))
	fs.Usage = func() {} // -h prints the manual; errors a short hint
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(inv.stdout, usage)
			return opts, ExitOK, false
		}
		return opts, inv.usageError(""), false
	}
	if opts.lint.err != nil {
		return opts, inv.usageError(opts.lint.err.Error()), false
	}
	opts.packages = fs.Args()
	if opts.output == "" || filepath.Base(opts.output) != opts.output || filepath.Ext(opts.output) != ".go" {
		return opts, inv.usageError(fmt.Sprintf("-o %q: want a file name ending in .go, without a directory", opts.output)), false
	}
	if opts.from != "" && opts.client == "" {
		return opts, inv.usageError("-from " + opts.from + ": give -client=DIR too"), false
	}
	if opts.client != "" {
		if modes := opts.modes(); len(modes) > 1 || len(modes) == 1 && !opts.check {
			return opts, inv.usageError(strings.Join(append(modes, "-client"), " and ") + ": -client takes only -check"), false
		}
	}
	if modes := opts.modes(); len(modes) > 1 {
		return opts, inv.usageError(strings.Join(modes, " and ") + ": give one of them"), false
	}
	switch {
	case opts.stats && !opts.list:
		return opts, inv.usageError("-stats goes with -list: mcpgen -list -stats"), false
	case opts.budget < 0:
		return opts, inv.usageError(fmt.Sprintf("-budget %d: want a number of tokens greater than 0", opts.budget)), false
	case opts.budget > 0 && !opts.lint.set:
		return opts, inv.usageError("-budget goes with -lint: mcpgen -lint -budget TOKENS"), false
	}
	return opts, 0, true
}

// modes are the flags given that each ask for a different output instead
// of generated files; a run takes one.
func (o options) modes() []string {
	var modes []string
	for _, m := range []struct {
		name string
		on   bool
	}{{"-check", o.check}, {"-list", o.list}, {"-doc", o.doc}, {"-diff", o.diff != ""}, {"-card", o.card}, {"-lint", o.lint.set}} {
		if m.on {
			modes = append(modes, m.name)
		}
	}
	return modes
}

// oneServer is the flag under which the run prints its packages as one
// server, or "" (see Config.OneServer).
func (o options) oneServer() string {
	switch {
	case o.list:
		return "-list"
	case o.doc:
		return "-doc"
	case o.diff != "":
		return "-diff"
	}
	return ""
}

// usageError prints msg, or when it is empty the hint after the flag
// package's own message, and returns ExitUsage.
func (inv invocation) usageError(msg string) int {
	if msg != "" {
		fmt.Fprintf(inv.stderr, "mcpgen: %s\n", msg)
		return ExitUsage
	}
	fmt.Fprintln(inv.stderr, usageLine()+"; mcpgen -h prints the manual")
	return ExitUsage
}

// run is Main in inv's directory.
func (inv invocation) run(args []string) int {
	stdout, stderr := inv.stdout, inv.stderr
	opts, code, ok := inv.parse(args)
	if !ok {
		return code
	}
	dir, err := inv.workDir()
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return ExitFail
	}
	if dir, err = chdir(dir, opts.chdir); err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return ExitFail
	}
	if opts.client != "" {
		return inv.runClient(opts, dir)
	}
	files, diags := Generate(Config{Dir: dir, Patterns: opts.packages, Output: opts.output, Strict: opts.strict,
		Portable: opts.portable, OneServer: opts.oneServer(), Card: opts.card, hook: inv.hook})
	if opts.lint.set && !diags.HasErrors() {
		return inv.lint(files, diags, opts, dir)
	}
	diags.Print(stderr, dir)
	if diags.HasErrors() {
		return ExitFail
	}
	switch {
	case opts.list && opts.stats:
		if err := Stats(stdout, files); err != nil {
			fmt.Fprintf(stderr, "mcpgen: %v\n", err)
			return ExitFail
		}
		return ExitOK
	case opts.list:
		return printList(files, stdout, stderr)
	case opts.doc:
		return printDoc(files, stdout, stderr)
	case opts.diff != "":
		return printDiff(files, inDir(dir, opts.diff), stdout, stderr)
	case opts.card:
		return printCard(files, dir, stdout, stderr)
	case opts.check:
		return checkFiles(files, dir, stderr)
	}
	if _, err := Write(files); err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return ExitFail
	}
	return ExitOK
}

// inDir is path relative to dir, unless it is absolute.
func inDir(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// chdir is the directory -C names, relative to dir, as the go command
// reads its -C; dir itself when -C is not given.
func chdir(dir, to string) (string, error) {
	if to == "" {
		return dir, nil
	}
	to = inDir(dir, to)
	fi, err := os.Stat(to)
	if err != nil {
		return "", fmt.Errorf("-C %s: %w", to, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("-C %s: not a directory", to)
	}
	return to, nil
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

// lint prints the -lint report on stdout and its warnings, with the
// run's, on stderr; under -strict they are errors and fail the run.
func (inv invocation) lint(files []File, diags Diagnostics, opts options, dir string) int {
	reports, found, note := lintFiles(files, opts.lint.profiles)
	if opts.budget > 0 {
		found = append(found, budgetWarnings(files, opts.budget)...)
	}
	if opts.strict {
		for i := range found {
			found[i].Warning = false
		}
	}
	if note != nil {
		found = append(found, *note)
	}
	all := append(diags, found...).Sorted()
	all.Print(inv.stderr, dir)
	printLintReport(inv.stdout, reports, opts.lint.profiles)
	if all.HasErrors() {
		return ExitFail
	}
	return ExitOK
}

// lintFlag is -lint, whose value is optional: -lint checks every
// profile, -lint=gemini,anthropic those named.
type lintFlag struct {
	set      bool
	profiles []lint.Profile
	// err is a bad value, kept for parse to report: returned from Set,
	// the flag package would call it an invalid boolean value.
	err error
}

func (f *lintFlag) String() string {
	var names []string
	for _, p := range f.profiles {
		names = append(names, string(p))
	}
	return strings.Join(names, ",")
}

// Set reads the value; the flag package passes "true" for a bare -lint.
func (f *lintFlag) Set(s string) error {
	if s == "false" {
		*f = lintFlag{}
		return nil
	}
	if s == "true" {
		s = ""
	}
	ps, err := lint.ParseProfiles(s)
	if err != nil {
		f.err = fmt.Errorf("-lint=%s: %w", s, err)
		return nil
	}
	f.set, f.profiles, f.err = true, ps, nil
	return nil
}

// IsBoolFlag lets -lint stand alone, as a boolean flag does.
func (f *lintFlag) IsBoolFlag() bool { return true }

// printDoc prints the Markdown documentation of what the packages serve.
func printDoc(files []File, stdout, stderr io.Writer) int {
	md, err := Doc(files)
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return ExitFail
	}
	stdout.Write(md)
	return ExitOK
}

// printDiff prints each change from the list saved at oldPath to what the
// packages serve now, and fails when one breaks clients.
func printDiff(files []File, oldPath string, stdout, stderr io.Writer) int {
	old, err := os.ReadFile(oldPath)
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen: -diff: %v\n", err)
		return ExitFail
	}
	changes, err := Diff(old, files)
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen: -diff %s: %v\n", oldPath, err)
		return ExitFail
	}
	for _, c := range changes {
		fmt.Fprintln(stdout, c)
	}
	if apidiff.Breaking(changes) {
		return ExitFail
	}
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
