package analyze

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// This file analyzes prompts and resources. Their functions take what a
// client sends as strings (prompt arguments, template variables) into
// parameters mapped as a tool's are, so the same decoders parse them.

// prompt analyzes one function carrying //mcp:prompt. It returns nil when
// the function cannot be a prompt; the reasons are diagnostics.
func (a *analyzer) prompt(fn *ast.FuncDecl, d *annotations.Prompt, params []*annotations.Param, icons []*annotations.Icon) *model.Prompt {
	sig := a.funcSig(fn)
	if sig == nil {
		return nil
	}
	p := &model.Prompt{Pos: a.in.Fset.Position(d.Pos), Func: model.Func{FuncName: fn.Name.Name}}
	if !a.signature(fn, sig, &p.Func, promptKind) {
		return nil
	}
	ok := a.params(fn, sig, params, &p.Func, promptKind) && a.stringValues(p.Input, promptKind) && a.methodCompleters(fn, sig, &p.Func)
	ok = a.promptOut(fn, sig, p) && ok
	p.Name = a.catalogName(fn, d.Name, "prompt")
	p.Title = d.Title.Value
	p.Description = d.Description.Value
	if !d.Description.Set {
		p.Description = docDescription(fn.Doc.Text(), fn.Name.Name)
	}
	if strings.TrimSpace(p.Description) == "" {
		a.errorf(d.Pos, "prompt %s has no description: write a doc comment on %s or set description=", p.Name, fn.Name.Name)
		ok = false
	}
	p.Icons = iconList(icons)
	p.Scopes = a.scopes(d.Scopes, "prompt "+p.Name)
	if !ok {
		return nil
	}
	return p
}

// funcSig returns the signature of an annotated function.
func (a *analyzer) funcSig(fn *ast.FuncDecl) *types.Signature {
	obj, _ := a.in.Info.Defs[fn.Name].(*types.Func)
	if obj == nil {
		a.errorf(fn.Name.Pos(), "%s has no type information", fn.Name.Name)
		return nil
	}
	return obj.Signature()
}

// catalogName is the name= of a prompt or resource, or the snake_case of
// the Go name.
func (a *analyzer) catalogName(fn *ast.FuncDecl, name annotations.String, what string) string {
	if name.Set {
		return name.Value
	}
	n := snakeCase(fn.Name.Name)
	if p := annotations.ToolNameProblem(n); p != "" {
		a.errorf(fn.Name.Pos(), "%s name %q derived from %s is not valid, %s: set name=", what, n, fn.Name.Name, p)
	}
	return n
}

// promptOut classifies what a prompt function returns: (Out, error) or
// Out, where Out is a string, []mcprt.PromptMessage or mcprt.PromptResult.
func (a *analyzer) promptOut(fn *ast.FuncDecl, sig *types.Signature, p *model.Prompt) bool {
	typ, ok := a.oneResult(fn, sig, &p.Func, "prompt")
	if !ok {
		return false
	}
	switch {
	case typ != nil && isNamed(typ, names.RuntimePath, "PromptResult"):
		p.Out = model.PromptResult
		return true
	case typ != nil && isSliceOf(typ, names.RuntimePath, "PromptMessage"):
		p.Out = model.PromptMessages
		return true
	case typ != nil && isStringKind(typ):
		p.Out, p.OutType = model.PromptText, a.typeOf(typ, "result", fn.Type.Results.Pos())
		return p.OutType != nil
	}
	a.errorf(resultsPos(fn), "%s returns %s: a prompt returns (Out, error) or Out, where Out is a string, []mcprt.PromptMessage or mcprt.PromptResult", fn.Name.Name, resultWords(typ))
	return false
}

// oneResult reads a function's results as (Out, error) or Out and returns
// Out's type; a function returning nothing else has a nil Out, which the
// caller refuses.
func (a *analyzer) oneResult(fn *ast.FuncDecl, sig *types.Signature, f *model.Func, what string) (types.Type, bool) {
	vars := tupleVars(sig.Results())
	if n := len(vars); n > 0 && isError(vars[n-1].Type()) {
		f.HasError = true
		vars = vars[:n-1]
	}
	switch len(vars) {
	case 0:
		return nil, true
	case 1:
		return vars[0].Type(), true
	}
	a.manyResults(fn, vars, f.HasError, what+" returns (Out, error) or Out")
	return nil, false
}

func resultsPos(fn *ast.FuncDecl) token.Pos {
	if fn.Type.Results != nil {
		return fn.Type.Results.Pos()
	}
	return fn.Type.Params.End()
}

func resultWords(t types.Type) string {
	if t == nil {
		return "nothing"
	}
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

func isSliceOf(t types.Type, path, name string) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	return ok && isNamed(s.Elem(), path, name)
}

func isStringKind(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// stringValues checks that every field of in can be parsed from the one
// string a client sends for it, and checks its completer.
func (a *analyzer) stringValues(in *model.Type, k funcKind) bool {
	ok := true
	for _, f := range in.Fields {
		if pos, set := a.headerAt[f]; set {
			a.errorf(pos, "header= on %s %s: only tool properties are mirrored in headers", k.value, f.WireName)
		}
		t := valueType(f.Type)
		switch t.Kind {
		case model.String, model.Int, model.Uint, model.Float, model.Bool, model.Time, model.Duration, model.TextMethod:
			continue
		}
		a.diags = append(a.diags, diag.Errorf(f.Pos, "%s %s %s is %s, which one string cannot hold: a %[1]s %[2]s is a string, number, bool, date-time, duration, enum or a type with UnmarshalText",
			k.name, k.value, f.WireName, typeText(f.Type)))
		ok = false
	}
	return ok
}

// resource analyzes one function carrying //mcp:resource. It returns nil
// when the function cannot be a resource; the reasons are diagnostics.
func (a *analyzer) resource(fn *ast.FuncDecl, d *annotations.Resource, params []*annotations.Param, icons []*annotations.Icon) *model.Resource {
	sig := a.funcSig(fn)
	if sig == nil || len(d.Template.Parts) == 0 {
		return nil // no uri, or a bad one: reported by the parser
	}
	r := &model.Resource{Pos: a.in.Fset.Position(d.Pos), URI: d.URI.Value, Func: model.Func{FuncName: fn.Name.Name}}
	for _, p := range d.Template.Parts {
		r.Parts = append(r.Parts, model.TemplatePart{Literal: p.Literal, Var: p.Var, Plus: p.Reserved})
	}
	if !a.signature(fn, sig, &r.Func, resourceKind) {
		return nil
	}
	ok := true
	if r.IsTemplate() {
		ok = a.params(fn, sig, params, &r.Func, resourceKind) && a.stringValues(r.Input, resourceKind) && a.bindVars(fn, d, r) &&
			a.methodCompleters(fn, sig, &r.Func)
	} else {
		ok = a.staticParams(fn, sig, params, r)
	}
	ok = a.resourceOut(fn, sig, r) && ok
	a.describeResource(fn, d, r)
	r.Icons = iconList(icons)
	if !ok {
		return nil
	}
	return r
}

// staticParams checks that a static resource takes nothing but a context.
func (a *analyzer) staticParams(fn *ast.FuncDecl, sig *types.Signature, ds []*annotations.Param, r *model.Resource) bool {
	vars := tupleVars(sig.Params())
	if len(vars) > 0 && isContext(vars[0].Type()) {
		r.HasCtx = true
		vars = vars[1:]
	}
	for _, d := range ds {
		a.errorf(d.Pos, "//mcp:param on %s, a resource whose uri %s has no variables", fn.Name.Name, r.URI)
	}
	if len(vars) > 0 || sig.Variadic() {
		a.errorf(fn.Type.Params.Pos(), "%s takes parameters, but its uri %s has no variables: a resource takes a context.Context or nothing; make the uri a template, as kb://notes/{id}", fn.Name.Name, r.URI)
		return false
	}
	return len(ds) == 0
}

// bindVars checks that the variables of a template and the fields of its
// function's input are the same names: every variable bound, every
// parameter a variable.
func (a *analyzer) bindVars(fn *ast.FuncDecl, d *annotations.Resource, r *model.Resource) bool {
	vars := d.Template.Vars()
	var fields []string
	ok := true
	for _, f := range r.Input.Fields {
		fields = append(fields, f.WireName)
		if !slices.Contains(vars, f.WireName) {
			a.diags = append(a.diags, diag.Errorf(f.Pos, "%s is no variable of uri %s%s (variables: %s)",
				paramWord(r, f), r.URI, annotations.DidYouMean(f.WireName, vars), strings.Join(vars, ", ")))
			ok = false
		}
	}
	for _, v := range vars {
		if !slices.Contains(fields, v) {
			a.errorf(d.URI.Pos, "variable {%s} of uri %s has no parameter in %s%s (parameters: %s)",
				v, r.URI, fn.Name.Name, annotations.DidYouMean(v, fields), listOrNone(fields))
			ok = false
		}
	}
	return ok
}

func paramWord(r *model.Resource, f *model.Field) string {
	if r.Shape == model.Positional {
		return "parameter " + f.WireName
	}
	return "field " + f.Path[len(f.Path)-1].Name + " (json " + f.WireName + ")"
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// resourceOut classifies what a resource function returns and picks the
// default MIME type that goes with it.
func (a *analyzer) resourceOut(fn *ast.FuncDecl, sig *types.Signature, r *model.Resource) bool {
	typ, ok := a.oneResult(fn, sig, &r.Func, "resource")
	if !ok {
		return false
	}
	switch {
	case typ == nil:
		a.errorf(resultsPos(fn), "%s returns nothing: a resource returns (Out, error) or Out, where Out is a string, []byte, mcprt.ResourceContents, []mcprt.ResourceContents or any value with a JSON form", fn.Name.Name)
		return false
	case isNamed(typ, names.RuntimePath, "ResourceContents"):
		r.Out = model.ResourceContents
		return true
	case isSliceOf(typ, names.RuntimePath, "ResourceContents"):
		r.Out = model.ResourceContentsList
		return true
	case isStringKind(typ):
		r.Out, r.MIMEType = model.ResourceText, "text/plain"
	case isBytes(typ):
		r.Out, r.MIMEType = model.ResourceBlob, "application/octet-stream"
	default:
		if what := noJSON(typ); what != "" {
			a.errorf(resultsPos(fn), "%s returns %s, which has no JSON form: a resource returns a string, []byte, mcprt.ResourceContents, []mcprt.ResourceContents or any value with a JSON form", fn.Name.Name, what)
			return false
		}
		r.Out, r.MIMEType = model.ResourceJSON, "application/json"
	}
	r.OutType = a.typeOf(typ, "result", resultsPos(fn))
	return r.OutType != nil
}

// describeResource fills in the names and annotations of a resource.
func (a *analyzer) describeResource(fn *ast.FuncDecl, d *annotations.Resource, r *model.Resource) {
	r.Name = a.catalogName(fn, d.Name, "resource")
	r.Title = d.Title.Value
	r.Description = d.Description.Value
	if !d.Description.Set {
		r.Description = docDescription(fn.Doc.Text(), fn.Name.Name)
	}
	if d.MIME.Set {
		r.MIMEType = d.MIME.Value
	}
	r.Size = int64(d.Size.Value)
	r.Audience = d.Audience.Values
	r.Priority = d.Priority.Text
	r.Scopes = a.scopes(d.Scopes, "resource "+r.Name)
	if strings.HasPrefix(r.URI, "ui://") {
		a.describeApp(d, r)
	}
}

// describeApp fills in what the page of an MCP App, a ui:// resource,
// publishes: its media type, HTML for hosts, and its _meta.ui from the
// keys written.
func (a *analyzer) describeApp(d *annotations.Resource, r *model.Resource) {
	switch {
	case !d.MIME.Set:
		r.MIMEType = model.AppMIMEType
	case !isAppMIME(d.MIME.Value):
		a.errorf(d.MIME.Pos, "resource %s is the page of an MCP App (its uri starts with ui://), which hosts render only as %s: remove mime=%s", r.URI, model.AppMIMEType, d.MIME.Value)
	}
	if len(d.AppKeys()) == 0 {
		return
	}
	r.UI = &model.ResourceUI{
		ConnectDomains: d.CSPConnect.Values, ResourceDomains: d.CSPResource.Values,
		FrameDomains: d.CSPFrame.Values, BaseURIDomains: d.CSPBaseURI.Values,
		Permissions: d.Permissions.Values, Domain: d.Domain.Value,
	}
	if d.Border.Set {
		b := d.Border.Value
		r.UI.PrefersBorder = &b
	}
}

// isAppMIME reports whether mime is the media type of an MCP App's page.
// The mime key takes no parameters, so only text/html;profile=mcp-app
// written out would be; text/html alone is not rendered as an app.
func isAppMIME(mime string) bool {
	return strings.EqualFold(strings.ReplaceAll(mime, " ", ""), model.AppMIMEType)
}

// checkApps reports a tool whose ui= names no ui:// resource of the
// package, at its ui= key.
func (a *analyzer) checkApps() {
	var pages []string
	for _, r := range a.pkg.Resources {
		if strings.HasPrefix(r.URI, "ui://") {
			pages = append(pages, r.URI)
		}
	}
	for _, t := range a.pkg.Tools {
		if t.UI == nil || slices.Contains(pages, t.UI.ResourceURI) {
			continue
		}
		if len(pages) == 0 {
			a.diags = append(a.diags, diag.Errorf(t.UI.Pos, "ui=%s names no resource of the package: serve the page with a func annotated //mcp:resource uri=%[1]s", t.UI.ResourceURI))
			continue
		}
		a.diags = append(a.diags, diag.Errorf(t.UI.Pos, "ui=%s names no ui:// resource of the package (it serves %s)%s",
			t.UI.ResourceURI, strings.Join(pages, ", "), annotations.DidYouMean(t.UI.ResourceURI, pages)))
	}
}

// scopes returns the scopes of a scope= key, warning of offline_access:
// it asks for a refresh token, which is the client's business with its
// authorization server; a resource server asking for it would have every
// client request one (and challenges never name it).
func (a *analyzer) scopes(l annotations.List, what string) []string {
	if slices.Contains(l.Values, "offline_access") {
		a.warnf(l.Pos, "%s: scope offline_access asks for a refresh token, which is the client's choice; a server does not require it", what)
	}
	return l.Values
}

func iconList(ds []*annotations.Icon) []model.Icon {
	var out []model.Icon
	for _, d := range ds {
		out = append(out, model.Icon{Src: d.Src.Value, MIMEType: d.MIME.Value, Theme: d.Theme.Value, Sizes: d.Sizes.Values})
	}
	return out
}

// checkCatalogNames reports prompt names and resource URIs used twice, at
// both positions.
func (a *analyzer) checkCatalogNames() {
	prompts := map[string]token.Position{}
	for _, p := range a.pkg.Prompts {
		a.once(prompts, p.Name, p.Pos, "prompt name %q is used twice (also at %s): set name= on one of them")
	}
	uris := map[string]token.Position{}
	for _, r := range a.pkg.Resources {
		a.once(uris, r.URI, r.Pos, "resource uri %q is used twice (also at %s): one function serves one uri")
	}
}

// once records key at pos in seen, or reports both positions when it is
// there already.
func (a *analyzer) once(seen map[string]token.Position, key string, pos token.Position, format string) {
	first, dup := seen[key]
	if !dup {
		seen[key] = pos
		return
	}
	a.diags = append(a.diags, diag.Errorf(first, format, key, shortPos(pos)), diag.Errorf(pos, format, key, shortPos(first)))
}
