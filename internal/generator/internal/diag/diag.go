// Package diag holds the generator's one diagnostic type. Every stage (load,
// analyze, schema), the command and the mcpcheck analyzer report problems
// as these values, so that a problem reads the same wherever it is found:
// file:line:col: message.
package diag

import (
	"cmp"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// Diagnostic is one problem found by a run, at a position. A zero Pos is a
// problem of the whole run, printed after "mcpgen: ".
type Diagnostic struct {
	Pos     token.Position
	Msg     string
	Warning bool
}

// Errorf returns an error at pos.
func Errorf(pos token.Position, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// Warningf returns a warning at pos.
func Warningf(pos token.Position, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Msg: fmt.Sprintf(format, args...), Warning: true}
}

// List is all the problems of one run.
type List []Diagnostic

// HasErrors reports whether any diagnostic is an error: warnings alone do
// not stop a run.
func (l List) HasErrors() bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return !d.Warning })
}

// Sorted sorts l by file, line, column and message, and drops duplicates:
// a type shared by two packages is reported by both, and printed once.
func (l List) Sorted() List {
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Pos.Filename, b.Pos.Filename), cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column), cmp.Compare(a.Msg, b.Msg))
	})
	return slices.CompactFunc(l, func(a, b Diagnostic) bool {
		return a.Pos == b.Pos && a.Msg == b.Msg && a.Warning == b.Warning
	})
}

// Print writes each diagnostic as file:line:col: message, with paths
// relative to dir when they lie inside it; warnings say so after the
// position.
func (l List) Print(w io.Writer, dir string) {
	for _, d := range l {
		msg := d.Msg
		if d.Warning {
			msg = "warning: " + msg
		}
		if pos := relPos(d.Pos, dir); pos != "" {
			fmt.Fprintf(w, "%s: %s\n", pos, msg)
		} else {
			fmt.Fprintf(w, "mcpgen: %s\n", msg)
		}
	}
}

// Where writes p as a diagnostic does, relative to dir when it lies
// inside it: for a message that names a second position.
func Where(p token.Position, dir string) string { return relPos(p, dir) }

// relPos writes p relative to dir, with as much of line and column as it
// has; "" when p names no file.
func relPos(p token.Position, dir string) string {
	if p.Filename == "" {
		return ""
	}
	name := p.Filename
	if rel, err := filepath.Rel(dir, name); err == nil && !strings.HasPrefix(rel, "..") {
		name = rel
	}
	switch {
	case p.Column > 0:
		return fmt.Sprintf("%s:%d:%d", name, p.Line, p.Column)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d", name, p.Line)
	}
	return name
}
