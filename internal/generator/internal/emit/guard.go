package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// guards writes, for each annotated function, an alias of its signature
// as this file was generated for it and an assignment of the function to
// it. When the function changes, the assignment fails to compile, and the
// compiler's message names the alias, which says to rerun go generate.
func (e *emitter) guards() {
	fs := e.guarded()
	if len(fs) == 0 {
		return
	}
	e.f.Comment("The signature of each annotated function when this file was generated.")
	e.f.Comment("A compile error below means a function changed since: rerun go generate.")
	e.f.Type().DefsFunc(func(g *jen.Group) {
		for _, x := range fs {
			g.Id(guardName(x.f)).Op("=").Add(signature(x.f, x.results))
		}
	})
	e.f.Line()
	e.f.Var().DefsFunc(func(g *jen.Group) {
		for _, x := range fs {
			fn := jen.Id(x.f.FuncName)
			if x.f.Recv != nil {
				fn = jen.Parens(jen.Op("*").Id(x.f.Recv.Name)).Dot(x.f.FuncName)
			}
			g.Id("_").Id(guardName(x.f)).Op("=").Add(fn)
		}
	})
	e.f.Line()
}

// guardedFunc is an annotated function and the results it returns, as
// Go types.
type guardedFunc struct {
	f       *model.Func
	results []jen.Code
}

// guarded lists the annotated functions: tools, prompts, resources.
func (e *emitter) guarded() []guardedFunc {
	var out []guardedFunc
	for _, t := range e.pkg.Tools {
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
		if t.OutText {
			results[0] = rtStructured.qual().Types(results[0])
		}
		out = append(out, guardedFunc{&t.Func, results})
	}
	for _, p := range e.pkg.Prompts {
		var r jen.Code = rtPromptResult.qual()
		switch p.Out {
		case model.PromptText:
			r = goType(p.OutType)
		case model.PromptMessages:
			r = jen.Index().Add(rtPromptMessage.qual())
		}
		out = append(out, guardedFunc{&p.Func, []jen.Code{r}})
	}
	for _, r := range e.pkg.Resources {
		var res jen.Code
		switch r.Out {
		case model.ResourceContents:
			res = rtResourceContents.qual()
		case model.ResourceContentsList:
			res = jen.Index().Add(rtResourceContents.qual())
		default:
			res = goType(r.OutType)
		}
		out = append(out, guardedFunc{&r.Func, []jen.Code{res}})
	}
	return out
}

func guardName(f *model.Func) string { return names.Guard(f.GoIdent()) }

// signature is the func type of a function, or of its method expression
// (*T).F, whose first parameter is the receiver.
func signature(f *model.Func, results []jen.Code) jen.Code {
	var params []jen.Code
	if f.Recv != nil {
		params = append(params, jen.Op("*").Id(f.Recv.Name))
	}
	if f.HasCtx {
		params = append(params, jen.Qual("context", "Context"))
	}
	switch {
	case f.Input == nil:
	case f.Shape == model.Positional:
		for _, fl := range f.Input.Fields {
			params = append(params, goType(fl.Type))
		}
	case f.InputPtr:
		params = append(params, jen.Op("*").Add(goType(f.Input)))
	default:
		params = append(params, goType(f.Input))
	}
	if f.HasError {
		results = append(results, jen.Error())
	}
	return jen.Func().Params(params...).Params(results...)
}

// layoutGuards writes, for each named struct type the file decodes or
// encodes (and the structs embedded in them), a struct type of the
// fields it was generated from and a conversion of the type's zero value
// to it. Struct conversion ignores tags but wants the same field names,
// types and order, so a field added, removed or changed since breaks the
// build there, at a type whose name says to rerun go generate.
func (e *emitter) layoutGuards() {
	var layouts []model.Layout
	seen := map[string]bool{}
	for _, t := range append(append([]*model.Type(nil), e.order...), e.encodeOrder...) {
		if t.Named == nil || t.Local {
			continue
		}
		for _, l := range t.Layouts {
			if key := exprKey(l.Type); !seen[key] {
				seen[key] = true
				layouts = append(layouts, l)
			}
		}
	}
	if len(layouts) == 0 {
		return
	}
	guardNames := make([]string, len(layouts))
	for i, l := range layouts {
		name := names.FieldsGuard(l.Ident)
		for n := 2; e.funcNames[name]; n++ {
			name = names.FieldsGuard(l.Ident + strconv.Itoa(n))
		}
		e.funcNames[name] = true
		guardNames[i] = name
	}
	e.f.Comment("The fields of each struct type when this file was generated.")
	e.f.Comment("A compile error below means a struct changed since: rerun go generate.")
	e.f.Type().DefsFunc(func(g *jen.Group) {
		for i, l := range layouts {
			g.Id(guardNames[i]).StructFunc(func(g *jen.Group) {
				for _, f := range l.Fields {
					if f.Name == "" {
						g.Add(e.typeExpr(f.Type))
					} else {
						g.Id(f.Name).Add(e.typeExpr(f.Type))
					}
				}
			})
		}
	})
	e.f.Line()
	e.f.Var().DefsFunc(func(g *jen.Group) {
		for i, l := range layouts {
			g.Id("_").Op("=").Id(guardNames[i]).Call(e.typeExpr(l.Type).Values())
		}
	})
	e.f.Line()
}

// typeExpr writes a type expression of the model: its text as it is, its
// names qualified by their packages.
func (e *emitter) typeExpr(x model.TypeExpr) *jen.Statement {
	s := jen.Null()
	for _, p := range x {
		if p.Path == "" {
			s.Id(p.Text)
			continue
		}
		s.Qual(p.Path, p.Text)
	}
	return s
}

// exprKey is a type expression as one string, to tell types apart.
func exprKey(x model.TypeExpr) string {
	var s string
	for _, p := range x {
		s += p.Path + "." + p.Text + " "
	}
	return s
}
