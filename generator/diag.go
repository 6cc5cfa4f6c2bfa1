package generator

import (
	"cmp"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/generator/internal/model"
)

// Diagnostic is one problem found by a run, at a position.
type Diagnostic struct {
	Pos     token.Position
	PosText string // a position as the loader printed it, when Pos is unset
	Msg     string
	Warning bool
}

// Diagnostics are all the problems of one run.
type Diagnostics []Diagnostic

func fromModel(ds []model.Diagnostic) Diagnostics {
	out := make(Diagnostics, len(ds))
	for i, d := range ds {
		out[i] = Diagnostic{Pos: d.Pos, Msg: d.Msg, Warning: d.Warning}
	}
	return out
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool { return !d.Warning })
}

// normalize parses loader positions, sorts by file, line and column, and
// drops duplicates.
func (ds Diagnostics) normalize() Diagnostics {
	for i := range ds {
		if ds[i].PosText != "" && !ds[i].Pos.IsValid() {
			ds[i].Pos = parsePos(ds[i].PosText)
		}
	}
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Pos.Filename, b.Pos.Filename), cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column), cmp.Compare(a.Msg, b.Msg))
	})
	return slices.CompactFunc(ds, func(a, b Diagnostic) bool {
		return a.Pos == b.Pos && a.Msg == b.Msg && a.Warning == b.Warning
	})
}

// parsePos reads "file:line:col" or "file:line".
func parsePos(s string) token.Position {
	parts := strings.Split(s, ":")
	var p token.Position
	if len(parts) < 2 {
		return token.Position{Filename: s}
	}
	nums := 0
	for i := len(parts) - 1; i > 0 && nums < 2; i-- {
		if _, err := strconv.Atoi(parts[i]); err != nil {
			break
		}
		nums++
	}
	p.Filename = strings.Join(parts[:len(parts)-nums], ":")
	if nums >= 1 {
		p.Line, _ = strconv.Atoi(parts[len(parts)-nums])
	}
	if nums == 2 {
		p.Column, _ = strconv.Atoi(parts[len(parts)-1])
	}
	return p
}

// Print writes each diagnostic as file:line:col: message, with paths
// relative to dir.
func (ds Diagnostics) Print(w io.Writer, dir string) {
	for _, d := range ds {
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
