package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/generator/internal/model"
	"github.com/mcpgen/mcpgen/generator/internal/names"
)

// guards writes, for each tool, an alias of the function's signature as
// this file was generated for it and an assignment of the function to it.
// When the function changes, the assignment fails to compile, and the
// compiler's message names the alias, which says to rerun go generate.
func (e *emitter) guards() {
	if len(e.pkg.Tools) == 0 {
		return
	}
	e.f.Comment("The signature of each tool function when this file was generated. A")
	e.f.Comment("compile error below means a function changed since: rerun go generate.")
	e.f.Type().DefsFunc(func(g *jen.Group) {
		for _, t := range e.pkg.Tools {
			g.Id(guardName(t)).Op("=").Add(signature(t))
		}
	})
	e.f.Line()
	e.f.Var().DefsFunc(func(g *jen.Group) {
		for _, t := range e.pkg.Tools {
			fn := jen.Id(t.FuncName)
			if t.Recv != nil {
				fn = jen.Parens(jen.Op("*").Id(t.Recv.Name)).Dot(t.FuncName)
			}
			g.Id("_").Id(guardName(t)).Op("=").Add(fn)
		}
	})
	e.f.Line()
}

func guardName(t *model.Tool) string { return names.Guard(t.GoIdent()) }

// signature is the func type of a tool's function, or of its method
// expression (*T).F, whose first parameter is the receiver.
func signature(t *model.Tool) jen.Code {
	var params []jen.Code
	if t.Recv != nil {
		params = append(params, jen.Op("*").Id(t.Recv.Name))
	}
	if t.HasCtx {
		params = append(params, jen.Qual("context", "Context"))
	}
	switch {
	case t.Shape == model.Positional:
		for _, f := range t.Input.Fields {
			params = append(params, goType(f.Type))
		}
	case t.InputPtr:
		params = append(params, jen.Op("*").Add(goType(t.Input)))
	default:
		params = append(params, goType(t.Input))
	}
	var results []jen.Code
	switch {
	case t.Out == model.OutNone:
	case t.Out == model.OutResult:
		results = append(results, rtResult.qual())
	case t.OutPtr:
		results = append(results, jen.Op("*").Add(goType(t.OutType)))
	default:
		results = append(results, goType(t.OutType))
	}
	if t.HasError {
		results = append(results, jen.Error())
	}
	return jen.Func().Params(params...).Params(results...)
}
