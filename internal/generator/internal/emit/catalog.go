package emit

import (
	"encoding/json"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// This file writes prompts and resources: their lists, and for each the
// function that renders or reads it and the one that completes its
// arguments. Arguments and template variables are decoded by the decoders
// of tool arguments, from a JSON object of strings.

// listed is one value of a generated list: its function, and its literal
// written with the references to its generated functions, which a method's
// value binds to the receiver.
type listed struct {
	f     *model.Func
	value func(bound bool) jen.Code
}

// list writes the function name listing the package-level values and one
// method name for each receiver type with annotated methods, in source
// order.
func (e *emitter) list(name, what string, elem jen.Code, items []listed) {
	var funcs []listed
	byRecv := map[string][]listed{}
	var recvs []string
	for _, it := range items {
		if it.f.Recv == nil {
			funcs = append(funcs, it)
			continue
		}
		if byRecv[it.f.Recv.Name] == nil {
			recvs = append(recvs, it.f.Recv.Name)
		}
		byRecv[it.f.Recv.Name] = append(byRecv[it.f.Recv.Name], it)
	}
	values := func(items []listed, bound bool) jen.Code {
		return jen.Return(jen.Index().Add(elem).ValuesFunc(func(g *jen.Group) {
			for _, it := range items {
				g.Add(it.value(bound))
			}
		}))
	}
	if len(funcs) > 0 {
		e.f.Commentf("%s returns the MCP %s of the package's annotated functions, in", name, what)
		e.f.Comment("source order.")
		e.f.Func().Id(name).Params().Index().Add(elem).Block(values(funcs, false))
		e.f.Line()
	}
	for _, recv := range recvs {
		e.f.Commentf("%s returns the MCP %s of the annotated methods of %s, in source", name, what, recv)
		e.f.Commentf("order, bound to %s.", e.l.recv)
		e.f.Func().Params(jen.Id(e.l.recv).Op("*").Id(recv)).Id(name).Params().Index().Add(elem).Block(values(byRecv[recv], true))
		e.f.Line()
	}
}

// ref refers to the generated function fn of f: by name, or, bound, as a
// closure passing the receiver, with the given parameters and results.
func (e *emitter) ref(fn string, bound bool, params []jen.Code, names []string, results ...jen.Code) jen.Code {
	if !bound {
		return jen.Id(fn)
	}
	args := []jen.Code{jen.Id(e.l.recv)}
	for _, n := range names {
		args = append(args, jen.Id(n))
	}
	return jen.Func().Params(params...).Params(results...).Block(jen.Return(jen.Id(fn).Call(args...)))
}

// The parameters of the generated functions, as Completer, Prompt.Get and
// Resource.Read declare them.
func (e *emitter) getParams() ([]jen.Code, []string) {
	return []jen.Code{jen.Id(e.l.ctx).Qual("context", "Context"), jen.Id(e.l.args).Map(jen.String()).String()},
		[]string{e.l.ctx, e.l.args}
}

func (e *emitter) readParams() ([]jen.Code, []string) {
	return []jen.Code{jen.Id(e.l.ctx).Qual("context", "Context"), jen.Id(e.l.uri).String()},
		[]string{e.l.ctx, e.l.uri}
}

func (e *emitter) completeParams() ([]jen.Code, []string) {
	return []jen.Code{jen.Id(e.l.ctx).Qual("context", "Context"), jen.List(jen.Id(e.l.argument), jen.Id(e.l.value)).String(), jen.Id(e.l.args).Map(jen.String()).String()},
		[]string{e.l.ctx, e.l.argument, e.l.value, e.l.args}
}

// withRecv puts the receiver first in a generated function's parameters.
func (e *emitter) withRecv(f *model.Func, params []jen.Code) []jen.Code {
	if f.Recv == nil {
		return params
	}
	return append([]jen.Code{jen.Id(e.l.recv).Op("*").Id(f.Recv.Name)}, params...)
}

// promptList writes MCPPrompts.
func (e *emitter) promptList() {
	var items []listed
	for _, p := range e.pkg.Prompts {
		items = append(items, listed{&p.Func, func(bound bool) jen.Code { return e.promptValue(p, bound) }})
	}
	e.list(names.Prompts, "prompts", rtPrompt.qual(), items)
}

// promptValue is the mcprt.Prompt literal of one prompt.
func (e *emitter) promptValue(p *model.Prompt, bound bool) jen.Code {
	fs := []field{{"Name", jen.Lit(p.Name)}}
	if p.Title != "" {
		fs = append(fs, field{"Title", jen.Lit(p.Title)})
	}
	fs = append(fs, field{"Description", jen.Lit(p.Description)})
	if args := e.promptArguments(p); args != nil {
		fs = append(fs, field{"Arguments", args})
	}
	if len(p.Icons) > 0 {
		fs = append(fs, field{"Icons", icons(p.Icons)})
	}
	if len(p.Scopes) > 0 {
		fs = append(fs, field{"Scopes", stringList(p.Scopes)})
	}
	if len(p.Groups) > 0 {
		fs = append(fs, field{"Groups", stringList(p.Groups)})
	}
	params, pnames := e.getParams()
	fs = append(fs, field{"Get", e.ref(names.Get(p.GoIdent()), bound, params, pnames, rtPromptResult.qual(), jen.Error())})
	if completes(&p.Func) {
		params, pnames := e.completeParams()
		fs = append(fs, field{"Complete", e.ref(names.Complete(p.GoIdent()), bound, params, pnames, jen.Index().String(), jen.Error())})
	}
	return jen.Values(fields(fs, true)...)
}

// promptArguments is the []mcprt.PromptArgument of a prompt's fields.
func (e *emitter) promptArguments(p *model.Prompt) jen.Code {
	if len(p.Input.Fields) == 0 {
		return nil
	}
	return jen.Index().Add(rtPromptArgument.qual()).ValuesFunc(func(g *jen.Group) {
		for _, f := range p.Input.Fields {
			fs := []field{{"Name", jen.Lit(f.WireName)}}
			if f.Constraints.Title != "" {
				fs = append(fs, field{"Title", jen.Lit(f.Constraints.Title)})
			}
			if desc := f.ArgumentDescription(); desc != "" {
				fs = append(fs, field{"Description", jen.Lit(desc)})
			}
			if f.Required {
				fs = append(fs, field{"Required", jen.True()})
			}
			g.Values(fields(fs, false)...)
		}
	})
}

// prompt writes the function rendering one prompt.
func (e *emitter) prompt(p *model.Prompt) {
	if p.Shape == model.Positional {
		e.argsType(&p.Func)
	}
	zero := rtPromptResult.qual().Values()
	body := e.decodeInput(&p.Func, rtStringArgs.qual().Call(jen.Id(e.l.args)), zero, jen.Id(e.l.err))
	body = append(body, e.resultCall(&p.Func, zero)...)
	var res jen.Code
	switch p.Out {
	case model.PromptText:
		res = rtPromptText.qual().Call(jen.String().Call(jen.Id(e.l.out)))
	case model.PromptMessages:
		res = rtPromptResult.qual().Values(jen.Id("Messages").Op(":").Id(e.l.out))
	default:
		res = jen.Id(e.l.out)
	}
	body = append(body, jen.Return(res, jen.Nil()))
	params, _ := e.getParams()
	e.f.Func().Id(names.Get(p.GoIdent())).Params(e.withRecv(&p.Func, params)...).Params(rtPromptResult.qual(), jen.Error()).Block(body...)
	e.f.Line()
	e.completer(&p.Func)
}

// resultCall calls f's function into out and returns zero and the error
// when it fails.
func (e *emitter) resultCall(f *model.Func, zero jen.Code) []jen.Code {
	if !f.HasError {
		return []jen.Code{jen.Id(e.l.out).Op(":=").Add(e.callOf(f))}
	}
	return []jen.Code{
		jen.List(jen.Id(e.l.out), jen.Id(e.l.err)).Op(":=").Add(e.callOf(f)),
		jen.If(jen.Id(e.l.err).Op("!=").Nil()).Block(jen.Return(zero, jen.Id(e.l.err))),
	}
}

// completes reports whether any argument of f completes: from a
// complete= function, or from the values of its enum.
func completes(f *model.Func) bool {
	if f.Input == nil {
		return false
	}
	for _, fl := range f.Input.Fields {
		if fl.Complete != "" || len(fieldEnum(fl)) > 0 {
			return true
		}
	}
	return false
}

func fieldEnum(f *model.Field) []model.EnumValue {
	t := f.Type
	for t.Kind == model.Pointer {
		t = t.Elem
	}
	return model.EnumOf(t, &f.Constraints)
}

// completer writes the completer of f's arguments: a switch over their
// names, calling the complete= function or matching the enum's values.
func (e *emitter) completer(f *model.Func) {
	if !completes(f) {
		return
	}
	var cases []jen.Code
	for _, fl := range f.Input.Fields {
		switch {
		case fl.Complete != "":
			complete := jen.Id(fl.Complete)
			if fl.CompleteMethod {
				complete = jen.Id(e.l.recv).Dot(fl.Complete)
			}
			cases = append(cases, jen.Case(jen.Lit(fl.WireName)).Block(jen.Return(
				complete.Call(jen.Id(e.l.ctx), jen.Id(e.l.value), jen.Id(e.l.args)))))
		case len(fieldEnum(fl)) > 0:
			cases = append(cases, jen.Case(jen.Lit(fl.WireName)).Block(jen.Return(
				rtCompleteFrom.qual().Call(jen.Id(e.completionVar(fieldEnum(fl))), jen.Id(e.l.value)), jen.Nil())))
		}
	}
	params, _ := e.completeParams()
	e.f.Func().Id(names.Complete(f.GoIdent())).Params(e.withRecv(f, params)...).Params(jen.Index().String(), jen.Error()).Block(
		jen.Switch(jen.Id(e.l.argument)).Block(cases...),
		jen.Return(jen.Nil(), jen.Nil()),
	)
	e.f.Line()
}

// completionVar is the variable listing an enum's values as the texts a
// client types: the strings themselves, or the numbers written out.
func (e *emitter) completionVar(enum []model.EnumValue) string {
	texts := make([]model.EnumValue, len(enum))
	for i, v := range enum {
		text := v.JSON
		var s string
		if json.Unmarshal([]byte(v.JSON), &s) == nil {
			text = s
		}
		texts[i] = model.EnumValue{JSON: strconv.Quote(text), Go: strconv.Quote(text)}
	}
	return e.enumVar(texts)
}

// resourceList writes MCPResources.
func (e *emitter) resourceList() {
	var items []listed
	for _, r := range e.pkg.Resources {
		items = append(items, listed{&r.Func, func(bound bool) jen.Code { return e.resourceValue(r, bound) }})
	}
	e.list(names.Resources, "resources", rtResource.qual(), items)
}

// resourceValue is the mcprt.Resource literal of one resource.
func (e *emitter) resourceValue(r *model.Resource, bound bool) jen.Code {
	fs := []field{{"URI", jen.Lit(r.URI)}, {"Name", jen.Lit(r.Name)}}
	for _, x := range []struct{ name, v string }{{"Title", r.Title}, {"Description", r.Description}, {"MIMEType", r.MIMEType}} {
		if x.v != "" {
			fs = append(fs, field{x.name, jen.Lit(x.v)})
		}
	}
	if r.Size > 0 {
		fs = append(fs, field{"Size", jen.Lit(int(r.Size))})
	}
	if a := resourceAnnotations(r); a != nil {
		fs = append(fs, field{"Annotations", a})
	}
	if len(r.Icons) > 0 {
		fs = append(fs, field{"Icons", icons(r.Icons)})
	}
	if ui := resourceUI(r.UI); ui != nil {
		fs = append(fs, field{"UI", ui})
	}
	if len(r.Scopes) > 0 {
		fs = append(fs, field{"Scopes", stringList(r.Scopes)})
	}
	if len(r.Groups) > 0 {
		fs = append(fs, field{"Groups", stringList(r.Groups)})
	}
	params, pnames := e.readParams()
	fs = append(fs, field{"Read", e.ref(names.Read(r.GoIdent()), bound, params, pnames, jen.Index().Add(rtResourceContents.qual()), jen.Error())})
	if completes(&r.Func) {
		params, pnames := e.completeParams()
		fs = append(fs, field{"Complete", e.ref(names.Complete(r.GoIdent()), bound, params, pnames, jen.Index().String(), jen.Error())})
	}
	return jen.Values(fields(fs, true)...)
}

// resourceUI is the &mcprt.ResourceUI{...} of an MCP App's page, or nil.
func resourceUI(ui *model.ResourceUI) jen.Code {
	if ui == nil {
		return nil
	}
	var fs []field
	for _, l := range []struct {
		name   string
		values []string
	}{{"ConnectDomains", ui.ConnectDomains}, {"ResourceDomains", ui.ResourceDomains}, {"FrameDomains", ui.FrameDomains}, {"BaseURIDomains", ui.BaseURIDomains}, {"Permissions", ui.Permissions}} {
		if len(l.values) > 0 {
			fs = append(fs, field{l.name, stringList(l.values)})
		}
	}
	if ui.Domain != "" {
		fs = append(fs, field{"Domain", jen.Lit(ui.Domain)})
	}
	if ui.PrefersBorder != nil {
		fs = append(fs, field{"PrefersBorder", jen.New(jen.Lit(*ui.PrefersBorder))})
	}
	return jen.Op("&").Add(rtResourceUI.qual()).Values(fields(fs, false)...)
}

// resourceAnnotations is the &mcprt.Annotations{...} of a resource's
// audience and priority, or nil.
func resourceAnnotations(r *model.Resource) jen.Code {
	var fs []field
	if len(r.Audience) > 0 {
		fs = append(fs, field{"Audience", jen.Index().String().ValuesFunc(func(g *jen.Group) {
			for _, a := range r.Audience {
				g.Lit(a)
			}
		})})
	}
	if r.Priority != "" {
		fs = append(fs, field{"Priority", rtFloat.qual().Call(jen.Id(r.Priority))})
	}
	if len(fs) == 0 {
		return nil
	}
	return jen.Op("&").Add(rtAnnotations.qual()).Values(fields(fs, false)...)
}

// resource writes the function reading one resource: for a template,
// match the URI and decode its variables first; a URI that does not match,
// or whose variables do not parse, is not found.
func (e *emitter) resource(r *model.Resource) {
	var body []jen.Code
	if r.IsTemplate() {
		if r.Shape == model.Positional {
			e.argsType(&r.Func)
		}
		tmpl := names.Template(r.GoIdent())
		e.templateVar(tmpl, r.Parts)
		body = append(body,
			jen.List(jen.Id(e.l.args), jen.Id(e.l.ok)).Op(":=").Id(tmpl).Dot("MatchArgs").Call(jen.Id(e.l.uri)),
			jen.If(jen.Op("!").Id(e.l.ok)).Block(jen.Return(jen.Nil(), rtErrNotFound.qual())))
		body = append(body, e.decodeInput(&r.Func, jen.Id(e.l.args), jen.Nil(), rtNotFound.qual().Call(jen.Id(e.l.err)))...)
	}
	body = append(body, e.resultCall(&r.Func, jen.Nil())...)
	body = append(body, e.contents(r)...)
	params, _ := e.readParams()
	e.f.Func().Id(names.Read(r.GoIdent())).Params(e.withRecv(&r.Func, params)...).Params(jen.Index().Add(rtResourceContents.qual()), jen.Error()).Block(body...)
	e.f.Line()
	e.completer(&r.Func)
}

// contents returns what the resource function returned as contents.
func (e *emitter) contents(r *model.Resource) []jen.Code {
	out := jen.Id(e.l.out)
	switch r.Out {
	case model.ResourceText:
		return []jen.Code{jen.Return(rtTextContents.qual().Call(jen.String().Call(out)), jen.Nil())}
	case model.ResourceBlob:
		return []jen.Code{jen.Return(rtBlobContents.qual().Call(jen.Index().Byte().Call(out)), jen.Nil())}
	case model.ResourceContents:
		return []jen.Code{jen.Return(jen.Index().Add(rtResourceContents.qual()).Values(out), jen.Nil())}
	case model.ResourceContentsList:
		return []jen.Code{jen.Return(out, jen.Nil())}
	}
	code := []jen.Code{jen.Id(e.l.enc).Op(":=").New(rtEncoder.qual())}
	code = append(code, e.encodeValue(r.OutType, out, 1)...)
	return append(code, jen.Return(jen.Id(e.l.enc).Dot("Contents").Call()))
}

// templateVar declares the parsed template of a resource.
func (e *emitter) templateVar(name string, parts []model.TemplatePart) {
	e.f.Var().Id(name).Op("=").Op("&").Add(rtTemplate.qual()).Values(jen.Id("Parts").Op(":").Index().Add(rtTemplatePart.qual()).ValuesFunc(func(g *jen.Group) {
		for _, p := range parts {
			switch {
			case p.Var == "":
				g.Values(jen.Id("Literal").Op(":").Lit(p.Literal))
			case p.Plus:
				g.Values(jen.Id("Var").Op(":").Lit(p.Var), jen.Id("Plus").Op(":").True())
			default:
				g.Values(jen.Id("Var").Op(":").Lit(p.Var))
			}
		}
	}))
	e.f.Line()
}
