package emit

import (
	"bytes"
	"fmt"
	"go/token"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/goident"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// This file writes a client package: a Client type wrapping go-sdk's
// client session, the types the package declares, and a method for each
// tool, prompt and resource. Arguments are written by the encoders and
// results read by the decoders a server's file uses, from the same
// model types, the other way round.

// ClientFile returns the formatted source of a client package's file.
func ClientFile(c *model.Client, cfg Config) ([]byte, error) {
	pkg := &model.Package{Name: c.Name, Path: c.Path, Scope: c.Scope}
	e := &emitter{pkg: pkg, cfg: cfg, l: newLocals(c.Scope), f: jen.NewFilePathName(c.Path, c.Name),
		decoders: map[*model.Type]string{}, fieldVar: map[*model.Type]string{}, encoders: map[*model.Type]string{},
		enums: map[string]string{}, bounds: map[string]string{}, funcNames: map[string]bool{}, skipUnknown: true}
	e.f.NoFormat = true
	e.imports()
	e.importName(sdkPkg.path, sdkPkg.name)
	e.importName(clientPkg.path, clientPkg.name)
	e.f.HeaderComment(names.Header)
	e.f.Comment("A compile error on the next lines means this file was generated for another")
	e.f.Comment("runtime: rerun mcpgen -client.")
	e.f.Var().Defs(
		jen.Id("_").Op("=").Add(rtVersion.qual()),
		jen.Id("_").Op("=").Add(rtClientVersion.qual()),
	)
	e.f.Line()
	e.clientType(c)
	for _, d := range c.Decls {
		e.cut()
		e.decl(d)
	}
	for _, t := range c.Tools {
		e.cut()
		e.clientTool(t)
	}
	for _, p := range c.Prompts {
		e.cut()
		e.clientPrompt(p)
	}
	for _, r := range c.Resources {
		e.cut()
		e.clientResource(r)
	}
	for i := 0; i < len(e.encodeOrder); i++ {
		e.cut()
		e.encoder(e.encodeOrder[i])
	}
	for i := 0; i < len(e.order); i++ {
		e.cut()
		e.decoder(e.order[i])
	}
	if len(e.patterns) > 0 {
		e.cut()
		e.patternVars()
	}
	var buf bytes.Buffer
	if err := e.f.Render(&buf); err != nil {
		return nil, fmt.Errorf("internal error: the client %s does not format: %v\n%s", c.Path, err, numbered(uncut(buf.Bytes())))
	}
	src, err := gofmt(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("internal error: the client %s does not format: %v\n%s", c.Path, err, numbered(uncut(buf.Bytes())))
	}
	return src, nil
}

// clientType writes the Client type, NewClient and Session.
func (e *emitter) clientType(c *model.Client) {
	session := jen.Op("*").Add(rtClientSession.qual())
	e.comments("Client calls the tools, prompts and resources of " + c.Source + " through a go-sdk client session, with typed arguments and results. " +
		"A tool's own failure is a *mcprt.ToolResultError; a result that does not match the types below is a *mcprt.MismatchError naming the path of each problem.")
	e.f.Type().Id("Client").Struct(jen.Id("session").Add(session))
	e.f.Line()
	e.f.Comment("NewClient returns a client calling through session, connected with")
	e.f.Comment("(*mcp.Client).Connect on any transport.")
	e.f.Func().Id("NewClient").Params(jen.Id("session").Add(session)).Op("*").Id("Client").Block(
		jen.Return(jen.Op("&").Id("Client").Values(jen.Id("session").Op(":").Id("session"))),
	)
	e.f.Line()
	e.f.Comment("Session returns the session the client calls through.")
	e.f.Func().Params(jen.Id(e.l.client).Op("*").Id("Client")).Id("Session").Params().Add(session).Block(
		jen.Return(jen.Id(e.l.client).Dot("session")),
	)
	e.f.Line()
}

// docComment writes doc as // lines, long lines wrapped at spaces.
func docComment(doc string) []jen.Code {
	doc = strings.TrimRight(doc, "\n")
	if doc == "" {
		return nil
	}
	var out []jen.Code
	for _, line := range strings.Split(doc, "\n") {
		for _, l := range wrap(strings.TrimRightFunc(line, unicode.IsSpace), commentWidth) {
			out = append(out, jen.Comment(l))
		}
	}
	return out
}

// commentWidth is where doc comments are wrapped.
const commentWidth = 72

// wrap breaks line at spaces into lines of at most width bytes where it
// can; an indented line (code, a list's continuation) is kept whole.
func wrap(line string, width int) []string {
	if len(line) <= width || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
		return []string{line}
	}
	var out []string
	cur := ""
	for _, w := range strings.Fields(line) {
		switch {
		case cur == "":
			cur = w
		case len(cur)+1+len(w) > width:
			out = append(out, cur)
			cur = w
		default:
			cur += " " + w
		}
	}
	return append(out, cur)
}

func (e *emitter) comments(doc string) {
	for _, c := range docComment(doc) {
		e.f.Add(c)
	}
}

// decl writes a type the client declares, with its constants.
func (e *emitter) decl(d *model.Decl) {
	e.comments(d.Doc)
	e.f.Type().Id(d.Type.Named.Name).Add(e.underlying(d.Type))
	e.f.Line()
	if len(d.Consts) == 0 {
		return
	}
	e.f.Const().DefsFunc(func(g *jen.Group) {
		for _, c := range d.Consts {
			for _, cm := range docComment(c.Value.Doc) {
				g.Add(cm)
			}
			g.Id(c.Name).Id(d.Type.Named.Name).Op("=").Id(c.Value.Go)
		}
	})
	e.f.Line()
}

// underlying is the type expression a declared type is defined by.
func (e *emitter) underlying(t *model.Type) jen.Code {
	if t.Kind != model.Struct {
		u := *t
		u.Named = nil
		return goType(&u)
	}
	return jen.StructFunc(func(g *jen.Group) {
		for i, f := range t.Fields {
			if i > 0 && f.Doc != "" {
				g.Line()
			}
			for _, c := range docComment(f.Doc) {
				g.Add(c)
			}
			tag := f.WireName
			switch {
			case f.OmitEmpty:
				tag += ",omitempty"
			case f.OmitZero:
				tag += ",omitzero"
			}
			g.Id(f.Path[len(f.Path)-1].Name).Add(goType(f.Type)).Tag(map[string]string{"json": tag})
		}
	})
}

// clientTool writes the method calling one tool.
func (e *emitter) clientTool(t *model.ClientTool) {
	ctx, in, out, res, err := jen.Id(e.l.ctx), jen.Id(e.l.in), jen.Id(e.l.out), jen.Id(e.l.res), jen.Id(e.l.err)
	params := []jen.Code{jen.Id(e.l.ctx).Qual("context", "Context")}
	var body []jen.Code
	args := jen.Nil()
	if t.Input != nil {
		params = append(params, jen.Id(e.l.in).Add(goType(t.Input)))
		body = append(body, jen.Id(e.l.enc).Op(":=").New(rtEncoder.qual()))
		body = append(body, e.encodeValue(t.Input, in.Clone(), 1)...)
		args = jen.Id(e.l.enc)
	}
	call := rtCallTool.qual().Call(ctx, jen.Id(e.l.client).Dot("session"), jen.Lit(string(t.Name)), args)
	var results []jen.Code
	outType := e.toolOutType(t)
	if outType != nil {
		results = append(results, outType)
	}
	results = append(results, jen.Error())
	e.comments(methodDoc(t.Method, "calls the tool "+string(t.Name), t.Doc))
	if t.Out == model.OutNone {
		body = append(body, jen.List(jen.Id("_"), err).Op(":=").Add(call), jen.Return(err))
		e.f.Func().Params(jen.Id(e.l.client).Op("*").Id("Client")).Id(t.Method).Params(params...).Params(results...).Block(body...)
		e.f.Line()
		return
	}
	body = append(body,
		jen.Var().Add(out).Add(outType),
		jen.List(res, err).Op(":=").Add(call),
		jen.If(err.Clone().Op("!=").Nil()).Block(jen.Return(out, err)),
	)
	body = append(body, e.readToolResult(t)...)
	e.f.Func().Params(jen.Id(e.l.client).Op("*").Id("Client")).Id(t.Method).Params(params...).Params(results...).Block(body...)
	e.f.Line()
}

// toolOutType is the Go type a tool's method returns beside its error,
// or nil for none.
func (e *emitter) toolOutType(t *model.ClientTool) jen.Code {
	switch t.Out {
	case model.OutNone:
		return nil
	case model.OutResult:
		return rtResult.qual()
	case model.OutStructured:
		if t.OutPtr {
			return jen.Op("*").Add(goType(t.OutType))
		}
	}
	return goType(t.OutType)
}

// readToolResult turns res, the tool's result, into out and returns it.
func (e *emitter) readToolResult(t *model.ClientTool) []jen.Code {
	ctx, out, res, err := jen.Id(e.l.ctx), jen.Id(e.l.out), jen.Id(e.l.res), jen.Id(e.l.err)
	conv := func(x jen.Code) jen.Code {
		if needsConversion(t.OutType) {
			return jen.Add(goType(t.OutType)).Call(x)
		}
		return x
	}
	decode := func(t *model.Type, target *jen.Statement, wrapped bool) []jen.Code {
		fn := jen.Func().Params(jen.Id(e.l.dec).Op("*").Add(rtDecoder.qual())).Block(e.value(t, target, nil, 1)...)
		return []jen.Code{
			err.Clone().Op("=").Add(res).Dot("Decode").Call(ctx, jen.Lit(wrapped), fn),
			jen.Return(out, err),
		}
	}
	parsed := func(method string, arg ...jen.Code) []jen.Code {
		n := jen.Id(e.l.value)
		return []jen.Code{
			jen.List(n, err).Op(":=").Add(res).Dot(method).Call(arg...),
			jen.Return(conv(n), err),
		}
	}
	switch t.Out {
	case model.OutResult:
		return []jen.Code{jen.Return(res.Clone().Dot("Result").Call(), jen.Nil())}
	case model.OutString:
		return []jen.Code{jen.Return(conv(res.Clone().Dot("Text").Call()), jen.Nil())}
	case model.OutBytes:
		return []jen.Code{jen.Return(jen.Add(goType(t.OutType)).Call(res.Clone().Dot("Text").Call()), jen.Nil())}
	case model.OutInt:
		return parsed("Int", jen.Lit(intBits(t.OutType)))
	case model.OutUint:
		return parsed("Uint", jen.Lit(intBits(t.OutType)))
	case model.OutFloat:
		return parsed("Float", jen.Lit(floatBits(t.OutType)))
	case model.OutBool:
		return parsed("Bool")
	case model.OutStructured:
		if t.OutPtr {
			// A nil pointer is sent as null, which has no structured form.
			return append([]jen.Code{
				jen.If(res.Clone().Dot("Null").Call()).Block(jen.Return(jen.Nil(), jen.Nil())),
				out.Clone().Op("=").New(goType(t.OutType)),
			}, decode(t.OutType, jen.Parens(jen.Op("*").Add(out)), t.Wrapped)...)
		}
	}
	return decode(t.OutType, out.Clone(), t.Wrapped)
}

// intBits is the size of an integer type, 64 for int and uint.
func intBits(t *model.Type) int {
	if t.Bits == 0 {
		return 64
	}
	return t.Bits
}

// methodDoc is a method's doc comment: what it does, then the
// description the server publishes.
func methodDoc(method, does, desc string) string {
	doc := method + " " + does + "."
	if desc = strings.TrimSpace(desc); desc != "" {
		doc += "\n\n" + desc
	}
	return doc
}

// clientPrompt writes the method rendering one prompt.
func (e *emitter) clientPrompt(p *model.ClientPrompt) {
	ctx, args := jen.Id(e.l.ctx), jen.Id(e.l.args)
	params := []jen.Code{jen.Id(e.l.ctx).Qual("context", "Context")}
	body := []jen.Code{}
	argv := jen.Nil()
	if p.Input != nil {
		params = append(params, jen.Id(e.l.in).Add(goType(p.Input)))
		body = append(body, args.Clone().Op(":=").Map(jen.String()).String().Values())
		for _, f := range p.Input.Fields {
			x := fieldTarget(f, jen.Id(e.l.in))
			body = append(body, e.argText(f, x, func(text jen.Code) jen.Code {
				return args.Clone().Index(jen.Lit(f.WireName)).Op("=").Add(text)
			}))
		}
		argv = args
	}
	body = append(body, jen.Return(rtGetPrompt.qual().Call(ctx, jen.Id(e.l.client).Dot("session"), jen.Lit(p.Name), argv)))
	e.comments(methodDoc(p.Method, "renders the prompt "+p.Name, p.Doc))
	e.f.Func().Params(jen.Id(e.l.client).Op("*").Id("Client")).Id(p.Method).Params(params...).
		Params(rtPromptResult.qual(), jen.Error()).Block(body...)
	e.f.Line()
}

// argText writes the value x of the prompt argument or template
// variable f as text, with set; an optional argument is left out while
// nil or zero.
func (e *emitter) argText(f *model.Field, x *jen.Statement, set func(jen.Code) jen.Code) jen.Code {
	t := f.Type
	if t.Kind == model.Pointer {
		return jen.If(x.Clone().Op("!=").Nil()).Block(set(text(t.Elem, jen.Op("*").Add(x))))
	}
	if !f.Required {
		return jen.If(nonZero(t, x)).Block(set(text(t, x)))
	}
	return set(text(t, x))
}

// nonZero is true when x, of a text type, is not its zero value.
func nonZero(t *model.Type, x jen.Code) jen.Code {
	switch t.Kind {
	case model.Time:
		return jen.Op("!").Add(x).Dot("IsZero").Call()
	case model.Bool:
		return jen.Add(x)
	case model.String:
		return jen.Add(x).Op("!=").Lit("")
	}
	return jen.Add(x).Op("!=").Lit(0)
}

// text is the value x of a text type as the server parses it.
func text(t *model.Type, x jen.Code) jen.Code {
	switch t.Kind {
	case model.String:
		if needsConversion(t) {
			return jen.String().Call(x)
		}
		return x
	case model.Int:
		return jen.Qual("strconv", "FormatInt").Call(jen.Int64().Call(x), jen.Lit(10))
	case model.Uint:
		return jen.Qual("strconv", "FormatUint").Call(jen.Uint64().Call(x), jen.Lit(10))
	case model.Float:
		return jen.Qual("strconv", "FormatFloat").Call(jen.Float64().Call(x), jen.LitRune('g'), jen.Lit(-1), jen.Lit(floatBits(t)))
	case model.Bool:
		return jen.Qual("strconv", "FormatBool").Call(jen.Bool().Call(x))
	case model.Time:
		return jen.Add(x).Dot("Format").Call(jen.Qual("time", "RFC3339Nano"))
	case model.Duration:
		return jen.Add(x).Dot("String").Call()
	}
	panic("emit: no text form for kind " + fmt.Sprint(t.Kind)) // the front ends allow only these
}

// clientResource writes the method reading one resource.
func (e *emitter) clientResource(r *model.ClientResource) {
	ctx, res, err, out, uri := jen.Id(e.l.ctx), jen.Id(e.l.res), jen.Id(e.l.err), jen.Id(e.l.out), jen.Id(e.l.uri)
	params := []jen.Code{jen.Id(e.l.ctx).Qual("context", "Context")}
	taken := e.paramNames()
	paramOf := map[string]string{}
	for _, v := range r.Vars {
		name := paramName(v.WireName, taken)
		paramOf[v.WireName] = name
		params = append(params, jen.Id(name).Add(goType(v.Type)))
	}
	body := []jen.Code{uri.Clone().Op(":=").Add(e.uriExpr(r, paramOf))}
	outType := e.resourceOutType(r)
	body = append(body,
		jen.Var().Add(out).Add(outType),
		jen.List(res, err).Op(":=").Add(rtReadResource.qual()).Call(ctx, jen.Id(e.l.client).Dot("session"), uri),
		jen.If(err.Clone().Op("!=").Nil()).Block(jen.Return(out, err)),
	)
	switch r.Out {
	case model.ResourceText:
		v := jen.Id(e.l.value)
		conv := v.Clone()
		if needsConversion(r.OutType) {
			conv = jen.Add(goType(r.OutType)).Call(v)
		}
		body = append(body, jen.List(v, err).Op(":=").Add(res).Dot("Text").Call(), jen.Return(conv, err))
	case model.ResourceBlob:
		body = append(body, jen.Return(res.Clone().Dot("Blob").Call()))
	case model.ResourceJSON:
		fn := jen.Func().Params(jen.Id(e.l.dec).Op("*").Add(rtDecoder.qual())).Block(e.value(r.OutType, out.Clone(), nil, 1)...)
		body = append(body, err.Clone().Op("=").Add(res).Dot("Decode").Call(ctx, fn), jen.Return(out, err))
	case model.ResourceContents:
		body = append(body, jen.Return(res.Clone().Dot("One").Call()))
	default:
		body = append(body, jen.Return(res.Clone().Dot("Contents"), jen.Nil()))
	}
	e.comments(methodDoc(r.Method, "reads the resource "+r.URI, r.Doc))
	e.f.Func().Params(jen.Id(e.l.client).Op("*").Id("Client")).Id(r.Method).Params(params...).Params(outType, jen.Error()).Block(body...)
	e.f.Line()
}

func (e *emitter) resourceOutType(r *model.ClientResource) jen.Code {
	switch r.Out {
	case model.ResourceText, model.ResourceJSON:
		return goType(r.OutType)
	case model.ResourceBlob:
		return jen.Index().Byte()
	case model.ResourceContents:
		return rtResourceContents.qual()
	}
	return jen.Index().Add(rtResourceContents.qual())
}

// uriExpr is the resource's URI with each variable's text expanded into
// it, as RFC 6570 expands {var} and {+var}.
func (e *emitter) uriExpr(r *model.ClientResource, paramOf map[string]string) jen.Code {
	byName := map[string]*model.Field{}
	for _, v := range r.Vars {
		byName[v.WireName] = v
	}
	var parts []jen.Code
	for _, p := range r.Parts {
		if p.Var == "" {
			parts = append(parts, jen.Lit(p.Literal))
			continue
		}
		v := byName[p.Var]
		x := text(v.Type, jen.Id(paramOf[p.Var]))
		if p.Plus {
			parts = append(parts, rtReserved.qual().Call(x))
		} else {
			parts = append(parts, rtSegment.qual().Call(x))
		}
	}
	if len(parts) == 0 {
		return jen.Lit(r.URI)
	}
	expr := jen.Add(parts[0])
	for _, p := range parts[1:] {
		expr = expr.Op("+").Add(p)
	}
	return expr
}

// paramNames are the names a method's parameters may not take: the
// locals of its body, the file's import names and Go's predeclared
// identifiers.
func (e *emitter) paramNames() map[string]bool {
	taken := map[string]bool{}
	for _, n := range []string{e.l.ctx, e.l.client, e.l.res, e.l.err, e.l.out, e.l.uri, e.l.value, e.l.dec, e.l.in, e.l.args, e.l.enc} {
		taken[n] = true
	}
	for _, p := range append(runtimePackages, clientPkg, sdkPkg, rtPackage{"context", "context"}, rtPackage{"strconv", "strconv"},
		rtPackage{"unicode/utf8", "utf8"}, rtPackage{"regexp", "regexp"}, rtPackage{"time", "time"}, rtPackage{"encoding/json", "json"}) {
		taken[p.name] = true
		taken[names.Import(p.name)] = true
	}
	for _, n := range predeclared {
		taken[n] = true
	}
	return taken
}

var predeclared = strings.Fields(`any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64
	rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil append cap clear close complex copy delete
	imag len make max min new panic print println real recover`)

// paramName is a Go parameter name for the variable wire, with an
// underscore appended while taken.
func paramName(wire string, taken map[string]bool) string {
	name := goident.Unexported(wire)
	for taken[name] || token.IsKeyword(name) {
		name += "_"
	}
	taken[name] = true
	return name
}
