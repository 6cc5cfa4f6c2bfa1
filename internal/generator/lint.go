package generator

import (
	"fmt"
	"go/token"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/mcpgen/mcpgen/internal/generator/internal/lint"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// LintReport says, for one tool, how many things each profile rejects in
// its input schema; a profile with none accepts it.
type LintReport struct {
	Tool     string
	Rejected map[lint.Profile]int
}

// Lint checks each tool's published input schema against the profiles and
// returns a report a tool and a warning a finding, positioned at the Go
// field the finding is about, or at the tool's directive when it is about
// the whole schema or a schema from an input= file that names no field.
// A finding at one field that several tools share (a struct type of
// their inputs) is one warning naming them all. A field's or a
// directive's nolint= silences the rules it names there.
//
// Gemini's refusal of closed objects is one warning for the run, at the
// first tool it concerns, and no tool's count: mcpgen closes every object,
// so a warning per object would bury the findings the author can act on.
//
// Lint also warns at a tool that is not read-only and does not say
// whether it is destructive: every client takes it for destructive.
func Lint(files []File, profiles []lint.Profile) ([]LintReport, Diagnostics) {
	reports, diags, note := lintFiles(files, profiles)
	if note != nil {
		diags = append(diags, *note).Sorted()
	}
	return reports, diags
}

// lintFiles is Lint with the warning about closed objects apart, since
// -strict leaves it a warning: no change to the Go code removes it.
func lintFiles(files []File, profiles []lint.Profile) ([]LintReport, Diagnostics, *Diagnostic) {
	var l linter
	var reports []LintReport
	for _, f := range files {
		for i := range f.Tools {
			var mt *model.Tool
			if i < len(f.models) {
				mt = f.models[i]
			}
			if r, ok := l.tool(&f.Tools[i], mt, profiles); ok {
				reports = append(reports, r)
			}
		}
	}
	diags := append(l.diags, l.found.diagnostics()...)
	var note *Diagnostic
	if len(l.closed) > 0 {
		note = &Diagnostic{Pos: l.closedPos, Msg: closedMessage(len(l.closed)), Warning: true}
	}
	return reports, diags.Sorted(), note
}

// linter holds what -lint has found so far.
type linter struct {
	diags     Diagnostics // internal errors
	found     findings
	closed    []string // the tools with objects Gemini refuses as closed
	closedPos token.Position
}

// tool lints one tool, whose analyzed form is mt, and returns its line of
// the report; ok is false after an internal error.
func (l *linter) tool(t *mcprt.Tool, mt *model.Tool, profiles []lint.Profile) (r LintReport, ok bool) {
	checked, err := lint.Check(t.Name, t.InputSchema, profiles)
	if err != nil {
		l.diags = append(l.diags, Diagnostic{Pos: toolPos(mt), Msg: internalError("lint", err)})
		return r, false
	}
	r = LintReport{Tool: t.Name, Rejected: map[lint.Profile]int{}}
	for _, fd := range checked {
		if fd.Closed {
			if len(l.closed) == 0 {
				l.closedPos = toolPos(mt)
			}
			if !slices.Contains(l.closed, t.Name) {
				l.closed = append(l.closed, t.Name)
			}
			continue
		}
		pos, field := fieldAt(mt, fd.Path)
		if silenced(mt, field, fd.Rule()) {
			continue
		}
		r.Rejected[fd.Profile]++
		l.found.add(pos, fmt.Sprintf("%s: %s", fd.Profile, fd.Msg), fd.Rule(), t.Name, lint.Describe(fd.Path))
	}
	if mayDestroy(mt) && !slices.Contains(mt.Nolint, lint.DestructiveRule) {
		l.found.add(mt.Pos, destructiveMessage, lint.DestructiveRule, t.Name, "")
	}
	return r, true
}

// mayDestroy reports whether a client takes mt for destructive only by
// the specification's default: it is not read-only and says nothing of
// destructive.
func mayDestroy(mt *model.Tool) bool {
	if mt == nil || mt.Hints.Destructive != nil {
		return false
	}
	return mt.Hints.ReadOnly == nil || !*mt.Hints.ReadOnly
}

// closedMessage explains Gemini's refusal of closed objects, found in the
// input schemas of n tools, and what the author can do about it.
func closedMessage(n int) string {
	tools := "1 tool"
	if n > 1 {
		tools = fmt.Sprintf("%d tools", n)
	}
	return fmt.Sprintf("%s: the input schemas of %s close their objects with additionalProperties: false, "+
		"which Gemini's parameters field refuses; mcpgen writes it on every object, since openai-strict and "+
		"anthropic-strict need it, so a Gemini client must send the schema as parametersJsonSchema or drop the keyword "+
		"(said once, in no tool's count, and no error under -strict)", lint.Gemini, tools)
}

// destructiveMessage is the warning at a tool that is neither read-only
// nor says whether it is destructive.
const destructiveMessage = "not read-only and says nothing of destructive, so every client takes it for destructive, " +
	"the specification's default: write destructive=false if it only adds, or destructive if it may delete or overwrite"

// silenced reports whether nolint= silences rule where the finding is:
// at the field, or at the tool when no field holds it.
func silenced(mt *model.Tool, field *model.Field, rule string) bool {
	if field != nil {
		return slices.Contains(field.Nolint, rule)
	}
	return mt != nil && slices.Contains(mt.Nolint, rule)
}

// findings gathers what -lint warns of, one warning for each finding at
// each position, naming every tool and argument it is found in.
type findings struct {
	order []findingKey
	where map[findingKey][]place
}

// findingKey is one finding at one position: the message without the
// tool, and the rule that silences it.
type findingKey struct {
	pos       token.Position
	msg, rule string
}

// place is a tool, and the argument in it, where a finding is.
type place struct{ tool, arg string }

func (fs *findings) add(pos token.Position, msg, rule, tool, arg string) {
	k := findingKey{pos, msg, rule}
	if fs.where == nil {
		fs.where = map[findingKey][]place{}
	}
	if _, ok := fs.where[k]; !ok {
		fs.order = append(fs.order, k)
	}
	if p := (place{tool, arg}); !slices.Contains(fs.where[k], p) {
		fs.where[k] = append(fs.where[k], p)
	}
}

// diagnostics returns a warning a finding: "tools a and b, argument
// page.limit: anthropic-strict: maximum is not supported ...
// (nolint=anthropic-strict:maximum)".
func (fs *findings) diagnostics() Diagnostics {
	var out Diagnostics
	for _, k := range fs.order {
		msg := fmt.Sprintf("%s: %s (nolint=%s)", places(fs.where[k]), k.msg, k.rule)
		out = append(out, Diagnostic{Pos: k.pos, Msg: msg, Warning: true})
	}
	return out
}

// places says where a finding is: "tool a, argument x", "tools a, b and
// c, argument x", "12 tools (a, b, c and 9 more), argument x", and, for
// places of different arguments, each of them, separated by semicolons.
func places(ps []place) string {
	var args []string
	tools := map[string][]string{}
	for _, p := range ps {
		if _, ok := tools[p.arg]; !ok {
			args = append(args, p.arg)
		}
		tools[p.arg] = append(tools[p.arg], p.tool)
	}
	var parts []string
	for _, arg := range args {
		part := toolList(tools[arg])
		if arg != "" {
			part += ", argument " + arg
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// toolList names tools: all of them up to three, else three and how many
// more.
func toolList(names []string) string {
	const shown = 3
	switch n := len(names); {
	case n == 1:
		return "tool " + names[0]
	case n <= shown:
		return "tools " + strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	default:
		return fmt.Sprintf("%d tools (%s and %d more)", n, strings.Join(names[:shown], ", "), n-shown)
	}
}

func toolPos(mt *model.Tool) token.Position {
	if mt == nil {
		return token.Position{}
	}
	return mt.Pos
}

// fieldAt follows a schema path through the tool's input type to the Go
// field it ends at (or in), and returns its position and the field:
// properties name fields, items the elements of a slice or array,
// additionalProperties the values of a map, and $defs the recursive
// struct types. Where the path leaves the type, the last field reached
// is the answer, or the tool's directive and no field.
func fieldAt(mt *model.Tool, path []string) (token.Position, *model.Field) {
	pos := toolPos(mt)
	if mt == nil {
		return pos, nil
	}
	var field *model.Field
	typ := mt.Input
	for i := 0; i < len(path) && typ != nil; i++ {
		typ = deref(typ)
		switch path[i] {
		case "properties":
			f := fieldNamed(typ, path, i+1)
			if f == nil {
				return pos, field
			}
			pos, typ, field = f.Pos, f.Type, f
			i++
		case "items":
			if typ.Kind != model.Slice && typ.Kind != model.Array {
				return pos, field
			}
			typ = typ.Elem
		case "additionalProperties":
			if typ.Kind != model.Map {
				return pos, field
			}
			typ = typ.Elem
		case "$defs":
			if i+1 >= len(path) {
				return pos, field
			}
			typ = definedType(mt.Input, path[i+1])
			i++
		default:
			return pos, field
		}
	}
	return pos, field
}

// fieldNamed returns the field of the struct typ whose wire name is
// path[i], or nil.
func fieldNamed(typ *model.Type, path []string, i int) *model.Field {
	if typ.Kind != model.Struct || i >= len(path) {
		return nil
	}
	for _, f := range typ.Fields {
		if f.WireName == path[i] {
			return f
		}
	}
	return nil
}

func deref(t *model.Type) *model.Type {
	for t != nil && t.Kind == model.Pointer {
		t = t.Elem
	}
	return t
}

// definedType finds the struct type reachable from root that the schema
// stage defined as name in $defs: its Ident, with a number after it when
// two types share one.
func definedType(root *model.Type, name string) *model.Type {
	var found *model.Type
	seen := map[*model.Type]bool{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil || seen[t] || found != nil {
			return
		}
		seen[t] = true
		if t.Kind == model.Struct && t.Named != nil && strings.HasPrefix(name, t.Ident()) &&
			strings.Trim(name[len(t.Ident()):], "0123456789") == "" {
			found = t
			return
		}
		walk(t.Elem)
		for _, f := range t.Fields {
			walk(f.Type)
		}
	}
	walk(root)
	return found
}

// printLintReport writes one line a tool, saying for each profile whether
// it accepts the tool's input schema or how many things it rejects.
func printLintReport(w io.Writer, reports []LintReport, profiles []lint.Profile) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "tool")
	for _, p := range profiles {
		fmt.Fprintf(tw, "\t%s", p)
	}
	fmt.Fprintln(tw)
	for _, r := range reports {
		fmt.Fprint(tw, r.Tool)
		for _, p := range profiles {
			if n := r.Rejected[p]; n > 0 {
				fmt.Fprintf(tw, "\trejects (%d)", n)
			} else {
				fmt.Fprint(tw, "\taccepts")
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
