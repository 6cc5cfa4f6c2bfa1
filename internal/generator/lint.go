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
//
// Gemini's refusal of closed objects is one warning for the run, at the
// first tool it concerns, and no tool's count: mcpgen closes every object,
// so a warning per object would bury the findings the author can act on.
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
	var reports []LintReport
	var diags Diagnostics
	var closed []string // the tools with objects Gemini refuses as closed
	var closedPos token.Position
	for _, f := range files {
		for i, t := range f.Tools {
			findings, err := lint.Check(t.Name, t.InputSchema, profiles)
			var mt *model.Tool
			if i < len(f.models) {
				mt = f.models[i]
			}
			if err != nil {
				diags = append(diags, Diagnostic{Pos: toolPos(mt), Msg: internalError("lint", err)})
				continue
			}
			r := LintReport{Tool: t.Name, Rejected: map[lint.Profile]int{}}
			for _, fd := range findings {
				if fd.Closed {
					if len(closed) == 0 {
						closedPos = toolPos(mt)
					}
					if !slices.Contains(closed, t.Name) {
						closed = append(closed, t.Name)
					}
					continue
				}
				r.Rejected[fd.Profile]++
				diags = append(diags, Diagnostic{Pos: fieldPos(mt, fd.Path), Msg: lintMessage(t.Name, fd), Warning: true})
			}
			reports = append(reports, r)
		}
	}
	var note *Diagnostic
	if len(closed) > 0 {
		note = &Diagnostic{Pos: closedPos, Msg: closedMessage(len(closed)), Warning: true}
	}
	return reports, diags.Sorted(), note
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

// lintMessage says what a profile rejects, where: "tool x, argument
// changes[].price: anthropic-strict: minimum is not supported ...".
func lintMessage(tool string, fd lint.Finding) string {
	where := "tool " + tool
	if p := lint.Describe(fd.Path); p != "" {
		where += ", argument " + p
	}
	return fmt.Sprintf("%s: %s: %s", where, fd.Profile, fd.Msg)
}

func toolPos(mt *model.Tool) token.Position {
	if mt == nil {
		return token.Position{}
	}
	return mt.Pos
}

// fieldPos follows a schema path through the tool's input type to the Go
// field it ends at (or in): properties name fields, items the elements of
// a slice or array, additionalProperties the values of a map, and $defs
// the recursive struct types. Where the path leaves the type, the last
// field reached is the position, or the tool's directive.
func fieldPos(mt *model.Tool, path []string) token.Position {
	pos := toolPos(mt)
	if mt == nil {
		return pos
	}
	typ := mt.Input
	for i := 0; i < len(path) && typ != nil; i++ {
		typ = deref(typ)
		switch path[i] {
		case "properties":
			f := fieldNamed(typ, path, i+1)
			if f == nil {
				return pos
			}
			pos, typ = f.Pos, f.Type
			i++
		case "items":
			if typ.Kind != model.Slice && typ.Kind != model.Array {
				return pos
			}
			typ = typ.Elem
		case "additionalProperties":
			if typ.Kind != model.Map {
				return pos
			}
			typ = typ.Elem
		case "$defs":
			if i+1 >= len(path) {
				return pos
			}
			typ = definedType(mt.Input, path[i+1])
			i++
		default:
			return pos
		}
	}
	return pos
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
