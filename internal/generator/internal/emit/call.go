package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// call writes the handler of one tool: decode the arguments, call the
// function, turn what it returned into a result.
func (e *emitter) call(t *model.Tool) {
	params := []jen.Code{jen.Id(e.l.ctx).Qual("context", "Context"), jen.Id(e.l.args).Index().Byte()}
	if t.Recv != nil {
		params = append([]jen.Code{jen.Id(e.l.recv).Op("*").Id(t.Recv.Name)}, params...)
	}
	if t.Shape == model.Positional {
		e.argsType(&t.Func)
	}
	body := e.decodeInput(&t.Func, jen.Id(e.l.args), rtErrorResult.qual().Call(jen.Id(e.l.err)))
	body = append(body, e.invoke(t)...)
	e.f.Func().Id(callName(t)).Params(params...).Add(rtResult.qual()).Block(body...)
	e.f.Line()
}

// decodeInput declares the function's input and decodes data, JSON held
// by the expression data, into it; a problem returns fail, built with the
// error in the local err.
func (e *emitter) decodeInput(f *model.Func, data jen.Code, fail ...jen.Code) []jen.Code {
	return []jen.Code{
		jen.Var().Id(e.l.dec).Add(rtDecoder.qual()),
		jen.Id(e.l.dec).Dot("Start").Call(jen.Id(e.l.ctx), data),
		jen.Var().Id(e.l.in).Add(goType(f.Input)),
		jen.Id(e.decodeFunc(f.Input)).Call(jen.Op("&").Id(e.l.dec), jen.Op("&").Id(e.l.in)),
		jen.If(jen.Id(e.l.err).Op(":=").Id(e.l.dec).Dot("Finish").Call(), jen.Id(e.l.err).Op("!=").Nil()).Block(
			jen.Return(fail...),
		),
	}
}

// argsType declares the struct holding a function's positional arguments.
func (e *emitter) argsType(t *model.Func) {
	e.f.Type().Id(t.Input.Named.Name).StructFunc(func(g *jen.Group) {
		for _, f := range t.Input.Fields {
			g.Id(f.Path[0].Name).Add(goType(f.Type))
		}
	})
	e.f.Line()
}

// callOf is the call of f with its context and decoded input.
func (e *emitter) callOf(f *model.Func) *jen.Statement {
	var fn *jen.Statement
	if f.Recv != nil {
		fn = jen.Id(e.l.recv).Dot(f.FuncName)
	} else {
		fn = jen.Id(f.FuncName)
	}
	var args []jen.Code
	if f.HasCtx {
		args = append(args, jen.Id(e.l.ctx))
	}
	switch {
	case f.Input == nil:
	case f.Shape == model.Positional:
		for _, fl := range f.Input.Fields {
			args = append(args, jen.Id(e.l.in).Dot(fl.Path[0].Name))
		}
	case f.InputPtr:
		args = append(args, jen.Op("&").Id(e.l.in))
	default:
		args = append(args, jen.Id(e.l.in))
	}
	return fn.Call(args...)
}

// invoke calls the tool's function and converts its results.
func (e *emitter) invoke(t *model.Tool) []jen.Code {
	call := e.callOf(&t.Func)
	var lhs []jen.Code
	if t.Out != model.OutNone {
		lhs = append(lhs, jen.Id(e.l.out))
	}
	if t.HasError {
		lhs = append(lhs, jen.Id(e.l.err))
	}
	var out []jen.Code
	if len(lhs) == 0 {
		out = append(out, call)
	} else {
		out = append(out, jen.List(lhs...).Op(":=").Add(call))
	}
	if t.HasError {
		// The function's own error: a server may mask it (CallError).
		out = append(out, jen.If(jen.Id(e.l.err).Op("!=").Nil()).Block(jen.Return(rtCallError.qual().Call(jen.Id(e.l.err)))))
	}
	if t.Out == model.OutStructured || t.Out == model.OutJSON {
		return append(out, e.encodeResult(t)...)
	}
	return append(out, jen.Return(e.result(t)))
}

// encodeResult encodes out with the generated encoders: as structured
// content and text for a struct result, as text for other JSON values. A
// nil struct pointer has no structured form and is sent as the text null.
//
// The value of an mcprt.Structured result is its Value field, and its Text
// field, when set, replaces the text block (mcpimpl.WithText).
func (e *emitter) encodeResult(t *model.Tool) []jen.Code {
	value := func() *jen.Statement {
		if t.OutText {
			return jen.Id(e.l.out).Dot("Value")
		}
		return jen.Id(e.l.out)
	}
	ret := func(r jen.Code) jen.Code {
		if t.OutText {
			r = rtWithText.qual().Call(r, jen.Id(e.l.out).Dot("Text"))
		}
		return jen.Return(r)
	}
	out := []jen.Code{jen.Id(e.l.enc).Op(":=").New(rtEncoder.qual())}
	if t.Out == model.OutJSON {
		out = append(out, e.encodeValue(t.OutType, value(), 1)...)
		if e.schemas.Tool(t).Wrap {
			return append(out, ret(jen.Id(e.l.enc).Dot("StructuredValue").Call()))
		}
		return append(out, ret(jen.Id(e.l.enc).Dot("Text").Call()))
	}
	arg := jen.Op("&").Add(value())
	if t.OutPtr {
		arg = value()
		out = append([]jen.Code{jen.If(value().Op("==").Nil()).Block(
			ret(rtTextResult.qual().Call(jen.Lit("null"))))}, out...)
	}
	out = append(out, jen.Id(e.encodeFunc(t.OutType)).Call(jen.Id(e.l.enc), arg))
	return append(out, ret(jen.Id(e.l.enc).Dot("Structured").Call()))
}

// result converts out to an mcprt.Result.
func (e *emitter) result(t *model.Tool) jen.Code {
	out := jen.Id(e.l.out)
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
