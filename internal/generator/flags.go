package generator

import (
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/lint"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// cmdFlag is one flag of the command. The table below is the one statement
// of the flags: the flag set is built from it, -h prints it, the usage line
// is made from it, and a test holds docs/reference.md's table of flags to it, as
// annotations/keys.go does for the directives.
type cmdFlag struct {
	Name  string // as written after "-"
	Value string // what follows it, as the manual writes it; "" for a boolean; "[=X]" for an optional value
	Doc   string // what it does, in one line
}

// Usage returns the flag as the manual writes it: "-o NAME", "-lint[=PROFILES]",
// or "-check".
func (f cmdFlag) Usage() string {
	switch {
	case f.Value == "":
		return "-" + f.Name
	case strings.HasPrefix(f.Value, "["):
		return "-" + f.Name + f.Value
	}
	return "-" + f.Name + " " + f.Value
}

// flags are the flags, in the order of the manual.
var flags = []cmdFlag{
	{"C", "DIR", "run in DIR, as the go command's -C does: packages and printed paths are relative to it"},
	{"check", "", "write nothing; exit 1 naming each generated file that is missing or stale, or stale to remove"},
	{"list", "", "write nothing; print as JSON what the packages serve: the tools/list result, with prompts, resources and resourceTemplates"},
	{"stats", "", "with -list: print instead, for each tool and in total, the bytes and estimated tokens a host pays to list it on each revision, and what tool search mode lists"},
	{"doc", "", "write nothing; print Markdown reference documentation of every tool, prompt, resource and template: arguments, types, constraints, hints, task support"},
	{"diff", "OLD.json", "write nothing; compare what the packages serve with OLD.json, a saved -list output (relative to -C), print each change as breaking or compatible, and exit 1 if one breaks clients"},
	{"card", "", "write nothing; print the package's Server Card (SEP-2127, draft) as Server.Card serves it, made from its mcprt.Identity and mcpserver.Card literals"},
	{"lint", "[=PROFILES]", "write nothing; report which model providers accept each tool's input schema, and warn at the Go field of each thing one rejects (nolint= silences a rule there) and at a tool that says nothing of destructive; PROFILES is a comma-separated list of " + lint.Names() + " (default: all)"},
	{"budget", "TOKENS", "with -lint: also warn at each tool whose descriptor costs more than TOKENS estimated tokens to list on the latest revision"},
	{"portable", "", "publish each input schema in its portable form, which more providers accept with the same meaning (see -lint); give it to every run of the package, -check included"},
	{"strict", "", "treat warnings as errors, what -lint finds included"},
	{"client", "DIR", "write a typed Go client package into DIR (" + names.ClientFile + ") for the one package's tools, prompts and resources, or with -from for any server; with -check, write nothing and report a stale client"},
	{"from", "SOURCE", "with -client: make the client from a server's schemas, SOURCE a saved tools/list or -list file, an http(s) URL (bearer token from $" + TokenEnv + ") or a command serving stdio; with -check, print each change since the client was made as -diff does"},
	{"o", "NAME", "name of the generated file in each package (default " + DefaultOutput + ")"},
}

// lookupFlag returns the table's row for name.
func lookupFlag(name string) cmdFlag {
	for _, f := range flags {
		if f.Name == name {
			return f
		}
	}
	panic("generator: no flag " + name) // the flag set is built from the table: a bug
}

// usageLine is the synopsis, made from the table.
func usageLine() string {
	var b strings.Builder
	b.WriteString("usage: mcpgen")
	for _, f := range flags {
		fmt.Fprintf(&b, " [%s]", f.Usage())
	}
	b.WriteString(" [packages]")
	return b.String()
}

// writeFlags writes the flags for -h, each with its meaning on the next line.
func writeFlags(b *strings.Builder) {
	for _, f := range flags {
		fmt.Fprintf(b, "\t%s\n\t\t%s\n", f.Usage(), f.Doc)
	}
}

// markdownFlags renders the table of flags for docs/reference.md.
func markdownFlags() string {
	var b strings.Builder
	b.WriteString("| flag | meaning |\n|---|---|\n")
	for _, f := range flags {
		fmt.Fprintf(&b, "| `%s` | %s |\n", f.Usage(), strings.ReplaceAll(f.Doc, "|", `\|`))
	}
	return b.String()
}
