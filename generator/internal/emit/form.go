package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/generator/internal/names"
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
		e.f.Commentf("%s decodes the content of an accepted elicitation into %s, with", names.FormDecode, e.l.val)
		e.f.Comment("the checks tool arguments get.")
		e.f.Func().Params(jen.Id(e.l.val).Op("*").Add(goType(t))).Id(names.FormDecode).Params(
			jen.Id(e.l.dec).Op("*").Add(rtDecoder.qual()),
		).Block(jen.Id(e.decodeFunc(t)).Call(jen.Id(e.l.dec), jen.Id(e.l.val)))
		e.f.Line()
	}
}
