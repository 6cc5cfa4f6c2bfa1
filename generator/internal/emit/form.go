package emit

import "github.com/dave/jennifer/jen"

// forms writes, for each //mcp:form type, the methods mcprt.ElicitForm
// uses: the form's requested schema and its decoder.
func (e *emitter) forms() {
	for _, f := range e.pkg.Forms {
		t := f.Type
		schemaVar := "mcpgen_form_" + t.Ident()
		e.f.Var().Id(schemaVar).Op("=").Add(jsonBytes(f.Schema))
		e.f.Line()
		e.f.Commentf("MCPFormSchema returns the elicitation schema of the form %s, for", t.Named.Name)
		e.f.Comment("mcprt.ElicitForm.")
		e.f.Func().Params(jen.Op("*").Add(goType(t))).Id("MCPFormSchema").Params().Index().Byte().Block(
			jen.Return(jen.Id(schemaVar)),
		)
		e.f.Line()
		e.f.Comment("MCPDecodeForm reads the content of an accepted elicitation into v, with")
		e.f.Comment("the checks tool arguments get.")
		e.f.Func().Params(jen.Id("v").Op("*").Add(goType(t))).Id("MCPDecodeForm").Params(
			jen.Id("ctx").Qual("context", "Context"), jen.Id("content").Index().Byte(),
		).Error().Block(
			jen.Var().Id("d").Add(rt("Decoder")),
			jen.Id("d").Dot("Start").Call(jen.Id("ctx"), jen.Id("content")),
			jen.Id(e.decodeFunc(t)).Call(jen.Op("&").Id("d"), jen.Id("v")),
			jen.Return(jen.Id("d").Dot("Finish").Call()),
		)
		e.f.Line()
	}
}
