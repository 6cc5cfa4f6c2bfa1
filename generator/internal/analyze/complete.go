package analyze

import (
	"go/token"
	"go/types"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/generator/internal/model"
)

// completer checks complete=NAME on a field: NAME is a function of the
// package of the shape a completer has, and records it.
func (a *analyzer) completer(f *model.Field, c annotations.String) bool {
	if !c.Set {
		return true
	}
	fn, _ := a.in.Pkg.Scope().Lookup(c.Value).(*types.Func)
	if fn == nil {
		a.errorf(c.Pos, "complete=%s names no function of package %s%s", c.Value, a.in.Pkg.Name(), annotations.DidYouMean(c.Value, a.packageFuncs()))
		return false
	}
	if !isCompleter(fn.Signature()) {
		a.errorf(c.Pos, "complete=%s: %s is %s; a completer is func(ctx context.Context, value string, args map[string]string) ([]string, error)",
			c.Value, c.Value, types.TypeString(fn.Type(), func(p *types.Package) string { return p.Name() }))
		return false
	}
	f.Complete = c.Value
	if a.completePos == nil {
		a.completePos = map[*model.Field]token.Pos{}
	}
	a.completePos[f] = c.Pos
	return true
}

// isCompleter reports whether sig is func(context.Context, string,
// map[string]string) ([]string, error).
func isCompleter(sig *types.Signature) bool {
	ps, rs := sig.Params(), sig.Results()
	if sig.TypeParams().Len() > 0 || sig.Variadic() || ps.Len() != 3 || rs.Len() != 2 {
		return false
	}
	str := types.Typ[types.String]
	return isContext(ps.At(0).Type()) && types.Identical(ps.At(1).Type(), str) &&
		types.Identical(ps.At(2).Type(), types.NewMap(str, str)) &&
		types.Identical(rs.At(0).Type(), types.NewSlice(str)) && isError(rs.At(1).Type())
}

// packageFuncs lists the package-level functions, for suggestions.
func (a *analyzer) packageFuncs() []string {
	var out []string
	scope := a.in.Pkg.Scope()
	for _, n := range scope.Names() {
		if _, ok := scope.Lookup(n).(*types.Func); ok {
			out = append(out, n)
		}
	}
	return out
}

// noCompleters reports complete= on the fields reachable from a tool's
// input: tools have no completions.
func (a *analyzer) noCompleters(t *model.Type, seen map[*model.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	for _, f := range t.Fields {
		if pos, ok := a.completePos[f]; ok {
			a.errorf(pos, "complete= on %s, a property of a tool: completions are for prompt arguments and resource template variables", f.WireName)
		}
		a.noCompleters(valueType(f.Type), seen)
		if e := valueType(f.Type).Elem; e != nil {
			a.noCompleters(valueType(e), seen)
		}
	}
}

// headerPos records where header= was written on f.
func (a *analyzer) headerPos(f *model.Field, pos token.Pos) {
	if a.headerAt == nil {
		a.headerAt = map[*model.Field]token.Pos{}
	}
	a.headerAt[f] = pos
}

// checkHeaders holds header= to where the transport allows it: on a
// top-level string, integer or bool property of a tool, each name once
// (case-insensitively); anywhere else it is an error.
func (a *analyzer) checkHeaders(t *model.Tool) {
	seen := map[string]string{}
	for _, f := range t.Input.Fields {
		if f.Header == "" {
			continue
		}
		pos := a.headerAt[f]
		switch valueType(f.Type).Kind {
		case model.String, model.Int, model.Uint, model.Bool:
		default:
			a.errorf(pos, "header= on %s, %s: only a string, integer or bool property is mirrored in a header", f.WireName, typeText(f.Type))
			continue
		}
		key := strings.ToLower(f.Header)
		if other, dup := seen[key]; dup {
			a.errorf(pos, "header=%s on %s: property %s has that header already (header names are case-insensitive)", f.Header, f.WireName, other)
			continue
		}
		seen[key] = f.WireName
	}
	top := map[*model.Field]bool{}
	for _, f := range t.Input.Fields {
		top[f] = true
	}
	a.noNested(t.Input, top, map[*model.Type]bool{})
}

// noNested reports header= on fields below the top level of a tool's
// input.
func (a *analyzer) noNested(t *model.Type, top map[*model.Field]bool, seen map[*model.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	for _, f := range t.Fields {
		if pos, ok := a.headerAt[f]; ok && !top[f] {
			a.errorf(pos, "header= on %s, which is not a top-level property of a tool: only those are mirrored in headers", f.WireName)
		}
		v := valueType(f.Type)
		a.noNested(v, top, seen)
		if v.Elem != nil {
			a.noNested(valueType(v.Elem), top, seen)
		}
	}
}
