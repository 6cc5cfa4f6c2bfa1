package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// forms writes, for each //mcp:form type, the methods mcprt.ElicitForm
// uses: the form's requested schema and its decoder.
func (e *emitter) forms() {
	for _, f := range e.pkg.Forms {
		t := f.Type
		schemaVar := names.FormSchemaVar(t.Ident())
		e.f.Var().Id(schemaVar).Op("=").Add(jsonBytes(e.schemas.Form(f)))
		e.f.Line()
		e.f.Commentf("%s returns the elicitation schema of the form %s, for", names.FormSchema, t.Named.Name)
		e.f.Comment("mcprt.ElicitForm.")
		e.f.Func().Params(jen.Op("*").Add(goType(t))).Id(names.FormSchema).Params().Index().Byte().Block(
			jen.Return(jen.Id(schemaVar)),
		)
		e.f.Line()
		e.f.Commentf("%s reads the content of an accepted elicitation into %s, with", names.FormDecode, e.l.val)
		e.f.Comment("the checks tool arguments get.")
		e.f.Func().Params(jen.Id(e.l.val).Op("*").Add(goType(t))).Id(names.FormDecode).Params(
			jen.Id(e.l.ctx).Qual("context", "Context"), jen.Id(e.l.args).Index().Byte(),
		).Error().Block(
			jen.Var().Id(e.l.dec).Add(rtDecoder.qual()),
			jen.Id(e.l.dec).Dot("Start").Call(jen.Id(e.l.ctx), jen.Id(e.l.args)),
			jen.Id(e.decodeFunc(t)).Call(jen.Op("&").Id(e.l.dec), jen.Id(e.l.val)),
			jen.Return(jen.Id(e.l.dec).Dot("Finish").Call()),
		)
		e.f.Line()
	}
}
