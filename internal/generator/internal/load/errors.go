package load

import (
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// errorsOf passes on the loader's and type checker's errors, except those
// in the generated file itself (it may be stale: regenerating is the fix)
// and those about the names it declares, which are missing until it is
// generated. The go command's own compile output ("# pkg" followed by
// compiler lines, from building export data) is dropped too: the type
// checker reports the same problems with positions.
func errorsOf(errs []packages.Error, output string) diag.List {
	var out diag.List
	for _, e := range errs {
		if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
			continue
		}
		if mentionsGenerated(e.Msg) {
			continue
		}
		file, _, _ := strings.Cut(e.Pos, ":")
		if filepath.Base(file) == output && IsGenerated(file) {
			continue
		}
		out = append(out, diag.Diagnostic{Pos: parsePos(e.Pos), Msg: e.Msg})
	}
	return out
}

// mentionsGenerated reports whether a type checker's message is about a
// name the generated file declares.
func mentionsGenerated(msg string) bool {
	return slices.ContainsFunc(append(names.Exported(), names.Prefix), func(name string) bool {
		return strings.Contains(msg, name)
	})
}

// parsePos reads a position as the loader prints it: "file:line:col" or
// "file:line"; a file name may hold colons itself.
func parsePos(s string) token.Position {
	parts := strings.Split(s, ":")
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
	var p token.Position
	p.Filename = strings.Join(parts[:len(parts)-nums], ":")
	if nums >= 1 {
		p.Line, _ = strconv.Atoi(parts[len(parts)-nums])
	}
	if nums == 2 {
		p.Column, _ = strconv.Atoi(parts[len(parts)-1])
	}
	return p
}
