package generator

import (
	"go/token"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/generator/internal/diag"
)

// Diagnostic is one problem found by a run, at a position: the one type
// every stage reports with.
type Diagnostic = diag.Diagnostic

// Diagnostics are all the problems of one run.
type Diagnostics = diag.List

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
