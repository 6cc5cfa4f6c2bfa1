package diag

import (
	"go/token"
	"strings"
	"testing"
)

// TestSortedPrint checks that diagnostics are sorted by file, line, column
// and message, that duplicates (one shared type reported by two packages)
// are printed once, and how positions and warnings are printed.
func TestSortedPrint(t *testing.T) {
	t.Parallel()
	pos := func(file string, line, col int) token.Position {
		return token.Position{Filename: file, Line: line, Column: col}
	}
	l := List{
		{Pos: pos("/m/b.go", 3, 1), Msg: "z"},
		{Pos: pos("/m/a.go", 10, 2), Msg: "y", Warning: true},
		{Pos: pos("/m/a.go", 2, 5), Msg: "undefined: X"},
		{Pos: pos("/m/a.go", 10, 2), Msg: "y", Warning: true},
		{Pos: pos("/m/a.go", 10, 2), Msg: "x"},
		{Pos: pos("/m/b.go", 3, 1), Msg: "z"},
		{Pos: pos("/m/c.json", 4, 0), Msg: "no column"},
		{Pos: pos("/elsewhere/d.go", 1, 1), Msg: "outside"},
		{Msg: "no position"},
	}
	var out strings.Builder
	l.Sorted().Print(&out, "/m")
	want := "mcpgen: no position\n/elsewhere/d.go:1:1: outside\n" +
		"a.go:2:5: undefined: X\na.go:10:2: x\na.go:10:2: warning: y\nb.go:3:1: z\nc.json:4: no column\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestHasErrors(t *testing.T) {
	t.Parallel()
	if (List{Warningf(token.Position{}, "w")}).HasErrors() {
		t.Error("a warning counts as an error")
	}
	if !(List{Warningf(token.Position{}, "w"), Errorf(token.Position{}, "e %d", 1)}).HasErrors() {
		t.Error("an error is not counted")
	}
}
