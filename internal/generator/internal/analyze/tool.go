package analyze

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

var sprintf = fmt.Sprintf

// tool analyzes one function carrying //mcp:tool. It returns nil when the
// function cannot be a tool; the reasons are recorded as diagnostics.
func (a *analyzer) tool(fn *ast.FuncDecl, d *annotations.Tool, params []*annotations.Param, icons []*annotations.Icon) *model.Tool {
	obj, _ := a.in.Info.Defs[fn.Name].(*types.Func)
	if obj == nil {
		a.errorf(fn.Name.Pos(), "%s has no type information", fn.Name.Name)
		return nil
	}
	t := &model.Tool{Pos: a.in.Fset.Position(d.Pos), Func: model.Func{FuncName: fn.Name.Name}}
	if !a.signature(fn, obj.Signature(), &t.Func, toolKind) {
		return nil
	}
	ok := a.params(fn, obj.Signature(), params, &t.Func, toolKind)
	ok = a.results(fn, obj.Signature(), t) && ok
	ok = a.describe(fn, d, t) && ok
	t.Icons = iconList(icons)
	a.noCompleters(t.Input, map[*model.Type]bool{})
	if t.Input != nil {
		a.checkHeaders(t)
	}
	a.overrides(d, t) // last: an input= file replaces t.Input with a clone, whose fields the checks above do not know
	if !ok {
		return nil
	}
	return t
}

// funcKind says what a function is annotated as, in the words of its
// diagnostics: what it is, and what its parameters' values are called.
type funcKind struct {
	name   string // "tool"
	values string // "properties"
	value  string // "property"
}

var (
	toolKind     = funcKind{"tool", "properties", "property"}
	promptKind   = funcKind{"prompt", "arguments", "argument"}
	resourceKind = funcKind{"resource template", "variables", "variable"}
)

// signature checks what every annotated function must be, non-generic,
// and records the receiver of a method.
func (a *analyzer) signature(fn *ast.FuncDecl, sig *types.Signature, f *model.Func, k funcKind) bool {
	if fn.Type.TypeParams != nil {
		a.errorf(fn.Name.Pos(), "%s is generic: a %s must be a non-generic function or method", fn.Name.Name, k.name)
		return false
	}
	return fn.Recv == nil || a.receiver(fn, sig, f, k)
}

// receiver records the named type of a method.
func (a *analyzer) receiver(fn *ast.FuncDecl, sig *types.Signature, t *model.Func, k funcKind) bool {
	rt := sig.Recv().Type()
	ptr, isPtr := rt.(*types.Pointer)
	if isPtr {
		rt = ptr.Elem()
	}
	named, ok := types.Unalias(rt).(*types.Named)
	if !ok || named.TypeParams().Len() > 0 {
		a.errorf(fn.Recv.Pos(), "method %s has a generic or unnamed receiver: a %s method needs a receiver of a non-generic named type", fn.Name.Name, k.name)
		return false
	}
	t.Recv = &model.Receiver{Name: named.Obj().Name(), Pointer: isPtr}
	return true
}

// params decides the handler shape and maps the parameters.
func (a *analyzer) params(fn *ast.FuncDecl, sig *types.Signature, ds []*annotations.Param, t *model.Func, k funcKind) bool {
	vars := tupleVars(sig.Params())
	if len(vars) > 0 && isContext(vars[0].Type()) {
		t.HasCtx = true
		vars = vars[1:]
	}
	if sig.Variadic() {
		a.errorf(fn.Type.Params.Pos(), "%s is variadic: a %s takes (ctx, in Struct) or named parameters, never ...T", fn.Name.Name, k.name)
		return false
	}
	for _, v := range vars {
		if isContext(v.Type()) {
			a.errorf(v.Pos(), "context.Context must be the first parameter of %s", fn.Name.Name)
			return false
		}
	}
	if len(vars) == 1 && isStructLike(vars[0].Type()) {
		for _, d := range ds {
			a.errorf(d.Pos, "//mcp:param on %s, whose %s are the fields of its struct parameter: describe the fields with doc comments and mcp tags instead", fn.Name.Name, k.values)
		}
		return a.nameKeyed(vars[0], t) && len(ds) == 0
	}
	return a.positional(fn, vars, ds, t, k)
}

// nameKeyed maps the one struct parameter of a name-keyed function.
func (a *analyzer) nameKeyed(v *types.Var, t *model.Func) bool {
	typ := v.Type()
	if p, ok := typ.(*types.Pointer); ok {
		t.InputPtr = true
		typ = p.Elem()
	}
	t.Shape = model.NameKeyed
	t.Input = a.typeOf(typ, v.Name(), v.Pos())
	return t.Input != nil
}

// positional maps each parameter to a property of a synthetic struct.
func (a *analyzer) positional(fn *ast.FuncDecl, vars []*types.Var, ds []*annotations.Param, t *model.Func, k funcKind) bool {
	t.Shape = model.Positional
	in := &model.Type{Kind: model.Struct, Local: true, Named: &model.GoName{Name: names.Args(t.GoIdent())}}
	byName := map[string]*annotations.Param{}
	ok := true
	for _, d := range ds {
		if !d.Name.Set {
			continue // reported by the parser
		}
		if !paramNamed(vars, d.Name.Value) {
			a.errorf(d.Name.Pos, "//mcp:param %s names no parameter of %s%s (parameters: %s)", d.Name.Value, fn.Name.Name, annotations.DidYouMean(d.Name.Value, paramNames(vars)), paramList(vars))
			ok = false
			continue
		}
		if byName[d.Name.Value] != nil {
			a.errorf(d.Name.Pos, "repeated //mcp:param %s", d.Name.Value)
			ok = false
		}
		byName[d.Name.Value] = d
	}
	for _, v := range vars {
		if v.Name() == "" || v.Name() == "_" {
			a.errorf(v.Pos(), "parameter of %s has no name: a positional %s names every parameter, the name is the %s name", fn.Name.Name, k.name, k.value)
			ok = false
			continue
		}
		f := a.paramField(v, byName[v.Name()])
		if f == nil {
			ok = false
			continue
		}
		in.Fields = append(in.Fields, f)
	}
	t.Input = in
	return ok
}

// paramField maps one positional parameter and its //mcp:param directive.
func (a *analyzer) paramField(v *types.Var, d *annotations.Param) *model.Field {
	typ := a.typeOf(v.Type(), v.Name(), v.Pos())
	if typ == nil {
		return nil
	}
	f := &model.Field{
		Pos:      a.in.Fset.Position(v.Pos()),
		Path:     []model.Step{{Name: v.Name()}},
		WireName: v.Name(),
		Type:     typ,
		Required: typ.Kind != model.Pointer,
	}
	if d != nil {
		if !a.applyTag(f, d.Tag, false) {
			return nil
		}
	}
	a.warnUntyped(f, v.Name())
	return f
}

func paramNamed(vars []*types.Var, name string) bool {
	for _, v := range vars {
		if v.Name() == name {
			return true
		}
	}
	return false
}

func paramNames(vars []*types.Var) []string {
	names := make([]string, len(vars))
	for i, v := range vars {
		names[i] = v.Name()
	}
	return names
}

func paramList(vars []*types.Var) string {
	var names []string
	for _, v := range vars {
		names = append(names, v.Name())
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// results classifies what the function returns.
func (a *analyzer) results(fn *ast.FuncDecl, sig *types.Signature, t *model.Tool) bool {
	vars := tupleVars(sig.Results())
	if n := len(vars); n > 0 && isError(vars[n-1].Type()) {
		t.HasError = true
		vars = vars[:n-1]
	}
	if len(vars) > 1 {
		a.manyResults(fn, vars, t.HasError, "tool returns (Out, error), Out, error or nothing")
		return false
	}
	if len(vars) == 0 {
		t.Out = model.OutNone
		return true
	}
	return a.out(fn, vars[0].Type(), t)
}

// manyResults reports a function with more results than Out and an error;
// vars are its results without the last when that is an error (hadErr).
// Two results of which the second is no error are most likely (Out, error)
// misread, so that is what the message says. shape completes "a ..." with
// the accepted forms.
func (a *analyzer) manyResults(fn *ast.FuncDecl, vars []*types.Var, hadErr bool, shape string) {
	switch {
	case slices.ContainsFunc(vars, func(v *types.Var) bool { return isError(v.Type()) }):
		a.errorf(fn.Type.Results.Pos(), "%s returns an error before its last result: a %s", fn.Name.Name, shape)
	case len(vars) == 2 && !hadErr:
		a.errorf(resultPos(fn, vars[1]), "the second result of %s is %s: it must be error (a %s)", fn.Name.Name, resultWords(vars[1].Type()), shape)
	default:
		a.errorf(fn.Type.Results.Pos(), "%s returns too many values: a %s", fn.Name.Name, shape)
	}
}

// resultPos is where result v of fn is written, else where the results are.
func resultPos(fn *ast.FuncDecl, v *types.Var) token.Pos {
	for _, f := range fn.Type.Results.List {
		for _, n := range f.Names {
			if n.Pos() == v.Pos() {
				return f.Type.Pos()
			}
		}
		if len(f.Names) == 0 && f.Type.Pos() == v.Pos() {
			return f.Type.Pos()
		}
	}
	return fn.Type.Results.Pos()
}

// out classifies the one non-error result.
func (a *analyzer) out(fn *ast.FuncDecl, typ types.Type, t *model.Tool) bool {
	if isNamed(typ, names.RuntimePath, "Result") {
		t.Out = model.OutResult
		return true
	}
	if isNamed(typ, names.RuntimePath, "Structured") {
		return a.structuredOut(fn, typ, t)
	}
	if p, ok := typ.(*types.Pointer); ok && isPlainStruct(p.Elem()) {
		t.Out, t.OutPtr = model.OutStructured, true
		typ = p.Elem()
	} else if isPlainStruct(typ) {
		t.Out = model.OutStructured
	}
	if what := noJSON(typ); what != "" {
		a.errorf(fn.Type.Results.Pos(), "%s returns %s, which has no JSON form: a tool returns (Out, error), Out, error or nothing, where Out is a struct, string, number, bool, []byte, mcprt.Result, or a slice or map of those", fn.Name.Name, what)
		return false
	}
	mt := a.typeOf(typ, "result", fn.Type.Results.Pos())
	if mt == nil {
		return false
	}
	t.OutType = mt
	if t.Out == model.OutStructured {
		return true
	}
	t.Out = outKind(mt)
	return true
}

// structuredOut classifies mcprt.Structured[Out]: Out as a result of its
// own, which must have an output schema, since the wrapper's only use is
// to send a text block of the author's beside the structured content.
func (a *analyzer) structuredOut(fn *ast.FuncDecl, typ types.Type, t *model.Tool) bool {
	args := types.Unalias(typ).(*types.Named).TypeArgs()
	if args.Len() != 1 {
		return false // the type checker reported the instantiation
	}
	value := args.At(0)
	wrapper := isNamed(value, names.RuntimePath, "Result") || isNamed(value, names.RuntimePath, "Structured")
	if !wrapper && !a.out(fn, value, t) {
		return false
	}
	t.OutText = true
	if !wrapper && t.Out == model.OutStructured {
		return true
	}
	if !wrapper && t.Out == model.OutJSON {
		switch t.OutType.Kind {
		case model.Slice, model.Array, model.Map:
			return true
		}
	}
	name := types.TypeString(value, func(p *types.Package) string {
		if p == a.in.Pkg {
			return ""
		}
		return p.Name()
	})
	a.errorf(fn.Type.Results.Pos(), "%s returns mcprt.Structured[%s], whose value has no output schema: mcprt.Structured holds a struct, a pointer to one, a slice or a map; return %s itself instead", fn.Name.Name, name, name)
	return false
}

func outKind(mt *model.Type) model.OutKind {
	switch mt.Kind {
	case model.String:
		return model.OutString
	case model.Int:
		return model.OutInt
	case model.Uint:
		return model.OutUint
	case model.Float:
		return model.OutFloat
	case model.Bool:
		return model.OutBool
	case model.Bytes, model.Raw:
		return model.OutBytes
	}
	return model.OutJSON
}

// describe fills in the name, title, description, hints and task support.
func (a *analyzer) describe(fn *ast.FuncDecl, d *annotations.Tool, t *model.Tool) bool {
	t.Name = model.ToolName(snakeCase(fn.Name.Name))
	if d.Name.Set {
		t.Name = model.ToolName(d.Name.Value)
	} else if p := annotations.ToolNameProblem(string(t.Name)); p != "" {
		a.errorf(d.Pos, "tool name %q derived from %s is not valid, %s: set name=", t.Name, fn.Name.Name, p)
	}
	t.Title = d.Title.Value
	t.Description = d.Description.Value
	if !d.Description.Set {
		t.Description = docDescription(fn.Doc.Text(), fn.Name.Name)
	}
	if strings.TrimSpace(t.Description) == "" {
		a.errorf(d.Pos, "tool %s has no description: write a doc comment on %s or set description=", t.Name, fn.Name.Name)
		return false
	}
	if n := utf8.RuneCountInString(t.Description); n > 1024 {
		a.warnf(d.Pos, "description of tool %s is %d characters long; models read it on every request, keep it under 1024", t.Name, n)
	}
	t.Hints = model.Hints{
		ReadOnly:    boolPtr(d.ReadOnly),
		Destructive: boolPtr(d.Destructive),
		Idempotent:  boolPtr(d.Idempotent),
		OpenWorld:   boolPtr(d.OpenWorld),
	}
	if d.Task.Value != "forbidden" {
		t.TaskSupport = d.Task.Value
	}
	if d.UI.Set {
		t.UI = &model.ToolUI{Pos: a.in.Fset.Position(d.UI.Pos), ResourceURI: d.UI.Value, Visibility: d.Visibility.Values}
	}
	t.Scopes = a.scopes(d.Scopes, "tool "+string(t.Name))
	t.Nolint = a.nolint(d.Nolint)
	return true
}

func boolPtr(b annotations.Bool) *bool {
	if !b.Set {
		return nil
	}
	v := b.Value
	return &v
}

// docDescription is the doc comment of a function or type, without
// directives, as prose and without the Go name it starts with.
func docDescription(doc, name string) string {
	return withoutName(prose(doc), name, true)
}

// overrides reads the input= and output= schema files.
func (a *analyzer) overrides(d *annotations.Tool, t *model.Tool) {
	if d.Input.Set {
		if js := a.schemaFile(d.Input, true); js != nil {
			t.InputFile = js
			a.inputFile(d.Input, t)
		}
	}
	if d.Output.Set {
		if js := a.schemaFile(d.Output, false); js != nil {
			t.OutputFile = js
			if t.Out == model.OutStructured {
				a.checkOverride(d.Output, t.OutType)
			}
		}
	}
}

// schemaFile reads a JSON Schema file named relative to the Go file holding
// the directive, and returns it compacted.
func (a *analyzer) schemaFile(s annotations.String, object bool) []byte {
	pos := a.in.Fset.Position(s.Pos)
	path := filepath.Join(filepath.Dir(pos.Filename), s.Value)
	data, err := a.in.ReadFile(path)
	if err != nil {
		a.errorf(s.Pos, "reading schema file: %v", err)
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		a.errorf(s.Pos, "schema file %s is not a JSON object: %v", s.Value, err)
		return nil
	}
	if object && m["type"] != "object" {
		a.errorf(s.Pos, `schema file %s must be an object schema ("type": "object")`, s.Value)
		return nil
	}
	var buf strings.Builder
	compact, _ := json.Marshal(json.RawMessage(data)) // valid JSON: compacts
	buf.Write(compact)
	return []byte(buf.String())
}

// checkNames reports tool names used twice, at both positions.
func (a *analyzer) checkNames() {
	seen := map[model.ToolName]*model.Tool{}
	for _, t := range a.pkg.Tools {
		if first := seen[t.Name]; first != nil {
			a.diags = append(a.diags,
				diag.Errorf(first.Pos, "tool name %q is used twice (also at %s): set name= on one of them", t.Name, shortPos(t.Pos)),
				diag.Errorf(t.Pos, "tool name %q is used twice (also at %s): set name= on one of them", t.Name, shortPos(first.Pos)))
			continue
		}
		seen[t.Name] = t
	}
}

func shortPos(p token.Position) string {
	return sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

// snakeCase turns a Go name into the default tool name:
// BulkPriceUpdate -> bulk_price_update, HTTPServer -> http_server.
func snakeCase(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// noJSON names a result type that no JSON value can carry (a channel, a
// function, a complex number, an unsafe pointer or an interface other than
// any), or returns "".
func noJSON(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Chan, *types.Signature:
		return types.TypeString(t, nil)
	case *types.Interface:
		if !u.Empty() {
			return types.TypeString(t, nil)
		}
	case *types.Basic:
		if u.Info()&types.IsComplex != 0 || u.Kind() == types.UnsafePointer {
			return types.TypeString(t, nil)
		}
	}
	return ""
}
