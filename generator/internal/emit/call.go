package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/generator/internal/model"
)

// call writes the handler of one tool: decode the arguments, call the
// function, turn what it returned into a result.
func (e *emitter) call(t *model.Tool) {
	params := []jen.Code{jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Index().Byte()}
	if t.Recv != nil {
		params = append([]jen.Code{jen.Id("r").Op("*").Id(t.Recv.Name)}, params...)
	}
	if t.Shape == model.Positional {
		e.argsType(t)
	}
	body := []jen.Code{
		jen.Var().Id("d").Add(rtDecoder.qual()),
		jen.Id("d").Dot("Start").Call(jen.Id("ctx"), jen.Id("args")),
		jen.Var().Id("in").Add(goType(t.Input)),
		jen.Id(e.decodeFunc(t.Input)).Call(jen.Id("&d"), jen.Id("&in")),
		jen.If(jen.Err().Op(":=").Id("d").Dot("Finish").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Return(rtErrorResult.qual().Call(jen.Err())),
		),
	}
	body = append(body, e.invoke(t)...)
	e.f.Func().Id(callName(t)).Params(params...).Add(rtResult.qual()).Block(body...)
	e.f.Line()
}

// argsType declares the struct holding a positional tool's arguments.
func (e *emitter) argsType(t *model.Tool) {
	e.f.Type().Id(t.Input.Named.Name).StructFunc(func(g *jen.Group) {
		for _, f := range t.Input.Fields {
			g.Id(f.Path[0].Name).Add(goType(f.Type))
		}
	})
	e.f.Line()
}

// invoke calls the tool's function and converts its results.
func (e *emitter) invoke(t *model.Tool) []jen.Code {
	var fn *jen.Statement
	if t.Recv != nil {
		fn = jen.Id("r").Dot(t.FuncName)
	} else {
		fn = jen.Id(t.FuncName)
	}
	var args []jen.Code
	if t.HasCtx {
		args = append(args, jen.Id("ctx"))
	}
	switch {
	case t.Shape == model.Positional:
		for _, f := range t.Input.Fields {
			args = append(args, jen.Id("in").Dot(f.Path[0].Name))
		}
	case t.InputPtr:
		args = append(args, jen.Id("&in"))
	default:
		args = append(args, jen.Id("in"))
	}
	var lhs []jen.Code
	if t.Out != model.OutNone {
		lhs = append(lhs, jen.Id("out"))
	}
	if t.HasError {
		lhs = append(lhs, jen.Err())
	}
	var out []jen.Code
	if len(lhs) == 0 {
		out = append(out, fn.Call(args...))
	} else {
		out = append(out, jen.List(lhs...).Op(":=").Add(fn.Call(args...)))
	}
	if t.HasError {
		out = append(out, jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(rtErrorResult.qual().Call(jen.Err()))))
	}
	if t.Out == model.OutStructured || t.Out == model.OutJSON {
		return append(out, e.encodeResult(t)...)
	}
	return append(out, jen.Return(result(t)))
}

// encodeResult encodes out with the generated encoders: as structured
// content and text for a struct result, as text for other JSON values. A
// nil struct pointer has no structured form and is sent as the text null.
func (e *emitter) encodeResult(t *model.Tool) []jen.Code {
	out := []jen.Code{jen.Id("enc").Op(":=").New(rtEncoder.qual())}
	if t.Out == model.OutJSON {
		out = append(out, e.encodeValue(t.OutType, jen.Id("out"), 1)...)
		if e.schemas.Tool(t).Wrap {
			return append(out, jen.Return(jen.Id("enc").Dot("StructuredValue").Call()))
		}
		return append(out, jen.Return(jen.Id("enc").Dot("Text").Call()))
	}
	arg := jen.Op("&").Id("out")
	if t.OutPtr {
		arg = jen.Id("out")
		out = append([]jen.Code{jen.If(jen.Id("out").Op("==").Nil()).Block(
			jen.Return(rtTextResult.qual().Call(jen.Lit("null"))))}, out...)
	}
	out = append(out, jen.Id(e.encodeFunc(t.OutType)).Call(jen.Id("enc"), arg))
	return append(out, jen.Return(jen.Id("enc").Dot("Structured").Call()))
}

// result converts out to an mcprt.Result.
func result(t *model.Tool) jen.Code {
	out := jen.Id("out")
	text := func(c jen.Code) jen.Code { return rtTextResult.qual().Call(c) }
	switch t.Out {
	case model.OutNone:
		return rtResult.qual().Values()
	case model.OutString, model.OutBytes:
		return text(jen.String().Call(out))
	case model.OutInt:
		return text(jen.Qual("strconv", "FormatInt").Call(jen.Int64().Call(out), jen.Lit(10)))
	case model.OutUint:
		return text(jen.Qual("strconv", "FormatUint").Call(jen.Uint64().Call(out), jen.Lit(10)))
	case model.OutFloat:
		return text(jen.Qual("strconv", "FormatFloat").Call(jen.Float64().Call(out), jen.LitRune('g'), jen.Lit(-1), jen.Lit(floatBits(t.OutType))))
	case model.OutBool:
		return text(jen.Qual("strconv", "FormatBool").Call(jen.Bool().Call(out)))
	case model.OutResult:
		return out
	}
	panic("emit: result of kind " + strconv.Itoa(int(t.Out)) + " is encoded by encodeResult")
}

func floatBits(t *model.Type) int {
	if t != nil && t.Bits == 32 {
		return 32
	}
	return 64
}
