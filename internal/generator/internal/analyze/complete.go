package analyze

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// completer checks complete=NAME on a field: NAME is a function of the
// package of the shape a completer has, and records it.
func (a *analyzer) completer(f *model.Field, c annotations.String) bool {
	if !c.Set {
		return true
	}
	fn, _ := a.in.Pkg.Scope().Lookup(c.Value).(*types.Func)
	if fn == nil && a.methodOwner(c.Value) != "" {
		// A method of the receiver, which methodCompleters checks once
		// the function the field belongs to is known.
		f.Complete, f.CompleteMethod = c.Value, true
		a.recordComplete(f, c.Pos)
		return true
	}
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
	a.recordComplete(f, c.Pos)
	return true
}

// recordComplete records where complete= was written on f.
func (a *analyzer) recordComplete(f *model.Field, pos token.Pos) {
	if a.completePos == nil {
		a.completePos = map[*model.Field]token.Pos{}
	}
	a.completePos[f] = pos
}

// methodCompleters checks the complete= of fn's arguments that name a
// method: fn must be a method too, and its receiver's type must have that
// method, of a completer's shape. The generated completer is a method of
// the same receiver, as tools' handlers are, so it calls the method there.
func (a *analyzer) methodCompleters(fn *ast.FuncDecl, sig *types.Signature, f *model.Func) bool {
	if f.Input == nil {
		return true
	}
	ok := true
	for _, fl := range f.Input.Fields {
		if !fl.CompleteMethod {
			continue
		}
		pos := a.completePos[fl]
		if sig.Recv() == nil {
			a.errorf(pos, "complete=%s names a method of %s, but %s is no method: a completer of a function is a function of package %s",
				fl.Complete, a.methodOwner(fl.Complete), fn.Name.Name, a.in.Pkg.Name())
			ok = false
			continue
		}
		recv := sig.Recv().Type()
		obj, _, _ := types.LookupFieldOrMethod(recv, true, a.in.Pkg, fl.Complete)
		m, _ := obj.(*types.Func)
		switch {
		case m == nil:
			a.errorf(pos, "complete=%s names no method of %s, the receiver of %s, and no function of package %s",
				fl.Complete, recvTypeName(recv), fn.Name.Name, a.in.Pkg.Name())
			ok = false
		case !isCompleter(m.Signature()):
			a.errorf(pos, "complete=%s: method %s of %s is %s; a completer is func(ctx context.Context, value string, args map[string]string) ([]string, error)",
				fl.Complete, fl.Complete, recvTypeName(recv), types.TypeString(m.Signature(), func(p *types.Package) string { return p.Name() }))
			ok = false
		}
	}
	return ok
}

// recvTypeName is the name of a receiver's type, without a pointer.
func recvTypeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return types.TypeString(t, nil)
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

// methodOwner returns the first type of the package, by name, with a
// method called name, or "" when none has one.
func (a *analyzer) methodOwner(name string) string {
	scope := a.in.Pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), false, a.in.Pkg, name)
		if _, isMethod := obj.(*types.Func); isMethod {
			return tn.Name()
		}
	}
	return ""
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
