package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// This file writes result encoders: for each struct type a result reaches,
// a function appending its JSON to an mcprt.Encoder byte for byte as
// encoding/json would (see mcprt.Encoder for the one difference), so
// results are encoded without reflection.

// encodeFunc returns the name of the encode function of a named struct
// type, queuing the function to be written.
func (e *emitter) encodeFunc(t *model.Type) string {
	return e.funcName(names.Encode, t, e.encoders, &e.encodeOrder)
}

// encoder writes the encode function of a named struct type.
func (e *emitter) encoder(t *model.Type) {
	e.f.Func().Id(e.encoders[t]).Params(
		jen.Id(e.l.enc).Op("*").Add(rtEncoder.qual()),
		jen.Id(e.l.val).Op("*").Add(goType(t)),
	).Block(e.encodeObject(t, jen.Id(e.l.val), 0)...)
	e.f.Line()
}

// appendTo is `enc.B = append(enc.B, args...)`.
func (e *emitter) appendTo(args ...jen.Code) jen.Code {
	return jen.Id(e.l.enc).Dot("B").Op("=").Append(append([]jen.Code{jen.Id(e.l.enc).Dot("B")}, args...)...)
}

func (e *emitter) appendText(s string) jen.Code {
	if len(s) == 1 {
		return e.appendTo(jen.LitByte(s[0]))
	}
	return e.appendTo(jen.Lit(s).Op("..."))
}

// encodeObject writes the properties of the struct obj, each opened by the
// separator variable: '{' before the first property written, ',' after.
func (e *emitter) encodeObject(t *model.Type, obj jen.Code, depth int) []jen.Code {
	sep := local(e.l.sep, depth)
	body := []jen.Code{jen.Id(sep).Op(":=").LitByte('{')}
	for _, f := range t.Fields {
		write := append([]jen.Code{
			e.appendTo(jen.Id(sep)),
			jen.Id(sep).Op("=").LitByte(','),
			e.appendText(model.JSONQuote(f.WireName) + ":"),
		}, e.encodeValue(f.Type, fieldTarget(f, obj), depth+1)...)
		if cond := omitCond(f, fieldTarget(f, obj)); cond != nil {
			write = []jen.Code{jen.If(cond).Block(write...)}
		}
		body = append(body, guardPath(f, obj, write)...)
	}
	return append(body,
		jen.If(jen.Id(sep).Op("==").LitByte('{')).Block(e.appendTo(jen.LitByte('{'))),
		e.appendTo(jen.LitByte('}')),
	)
}

// guardPath skips a promoted field behind a nil embedded pointer, as
// encoding/json does.
func guardPath(f *model.Field, obj jen.Code, write []jen.Code) []jen.Code {
	var conds []jen.Code
	sel := jen.Add(obj)
	for _, step := range f.Path[:len(f.Path)-1] {
		sel = sel.Clone().Dot(step.Name)
		if step.Pointer {
			conds = append(conds, jen.Add(sel).Op("!=").Nil())
		}
	}
	if len(conds) == 0 {
		return write
	}
	cond := conds[0]
	for _, c := range conds[1:] {
		cond = jen.Add(cond).Op("&&").Add(c)
	}
	return []jen.Code{jen.If(cond).Block(write...)}
}

// omitCond is the condition under which a field with omitempty or omitzero
// is written, or nil when it is always written.
func omitCond(f *model.Field, x jen.Code) jen.Code {
	switch {
	case f.OmitEmpty && f.OmitZero:
		return jen.Add(notEmpty(f.Type, x)).Op("&&").Add(notZero(f.Type, x))
	case f.OmitEmpty:
		return notEmpty(f.Type, x)
	case f.OmitZero:
		return notZero(f.Type, x)
	}
	return nil
}

// notEmpty is true when x is not empty in omitempty's sense.
func notEmpty(t *model.Type, x jen.Code) jen.Code {
	switch t.Kind {
	case model.String:
		return jen.Add(x).Op("!=").Lit("")
	case model.Int, model.Uint, model.Float, model.Duration:
		return jen.Add(x).Op("!=").Lit(0)
	case model.Bool:
		return jen.Add(x)
	case model.Pointer, model.Any:
		return jen.Add(x).Op("!=").Nil()
	case model.Slice, model.Map, model.Bytes, model.Raw:
		return jen.Len(x).Op("!=").Lit(0)
	case model.Array:
		return jen.Lit(t.Len != 0)
	case model.Struct, model.Time:
		return jen.True()
	}
	return jen.Op("!").Add(rtIsEmptyValue.qual()).Call(x)
}

// notZero is true when x is not zero in omitzero's sense.
func notZero(t *model.Type, x jen.Code) jen.Code {
	switch t.Kind {
	case model.String, model.Int, model.Uint, model.Float, model.Bool, model.Duration:
		return notEmpty(t, x)
	case model.Pointer, model.Any, model.Slice, model.Map, model.Bytes, model.Raw:
		return jen.Add(x).Op("!=").Nil()
	case model.Time:
		return jen.Op("!").Add(x).Dot("IsZero").Call()
	}
	return jen.Op("!").Add(rtIsZeroValue.qual()).Call(x)
}

// encodeValue writes the value x of type t; x is addressable.
func (e *emitter) encodeValue(t *model.Type, x *jen.Statement, depth int) []jen.Code {
	enc := func(method string, args ...jen.Code) []jen.Code {
		return []jen.Code{jen.Id(e.l.enc).Dot(method).Call(args...)}
	}
	switch t.Kind {
	case model.Pointer:
		return []jen.Code{jen.If(jen.Add(x).Op("==").Nil()).Block(e.appendText("null")).Else().Block(
			e.encodeValue(t.Elem, jen.Parens(jen.Op("*").Add(x)), depth+1)...)}
	case model.Struct:
		if t.Named == nil {
			return e.encodeObject(t, x, depth)
		}
		return []jen.Code{jen.Id(e.encodeFunc(t)).Call(jen.Id(e.l.enc), jen.Op("&").Add(x))}
	case model.Slice, model.Array:
		return e.encodeList(t, x, depth)
	case model.Map:
		return e.encodeMap(t, x, depth)
	case model.String:
		return []jen.Code{jen.Id(e.l.enc).Dot("B").Op("=").Add(rtAppendString.qual()).Call(jen.Id(e.l.enc).Dot("B"), jen.String().Call(x))}
	case model.Int:
		return []jen.Code{jen.Id(e.l.enc).Dot("B").Op("=").Qual("strconv", "AppendInt").Call(jen.Id(e.l.enc).Dot("B"), jen.Int64().Call(x), jen.Lit(10))}
	case model.Uint:
		return []jen.Code{jen.Id(e.l.enc).Dot("B").Op("=").Qual("strconv", "AppendUint").Call(jen.Id(e.l.enc).Dot("B"), jen.Uint64().Call(x), jen.Lit(10))}
	case model.Float:
		return enc("Float", jen.Float64().Call(x), jen.Lit(floatBits(t)))
	case model.Bool:
		return []jen.Code{jen.Id(e.l.enc).Dot("B").Op("=").Qual("strconv", "AppendBool").Call(jen.Id(e.l.enc).Dot("B"), jen.Bool().Call(x))}
	case model.Time:
		return enc("Time", x)
	case model.Duration:
		return enc("Duration", x)
	case model.Bytes:
		return enc("Bytes", x)
	case model.Raw:
		return enc("RawJSON", x)
	}
	return enc("Marshal", jen.Op("&").Add(x)) // any, and types with their own methods
}

// encodeList writes a slice or an array; a nil slice is written [], as
// encoding/json/v2 writes it, so that output schemas say array alone.
func (e *emitter) encodeList(t *model.Type, x *jen.Statement, depth int) []jen.Code {
	i := local(e.l.index, depth)
	loop := []jen.Code{
		e.appendTo(jen.LitByte('[')),
		jen.For(jen.Id(i).Op(":=").Range().Add(x)).Block(append([]jen.Code{
			jen.If(jen.Id(i).Op(">").Lit(0)).Block(e.appendTo(jen.LitByte(','))),
		}, e.encodeValue(t.Elem, jen.Add(x).Index(jen.Id(i)), depth+1)...)...),
		e.appendTo(jen.LitByte(']')),
	}
	return loop
}

// keyString is the key k of the map t as a string.
func keyString(t *model.Type, k jen.Code) jen.Code {
	if t.NamedKey() {
		return jen.String().Call(k)
	}
	return k
}

// encodeMap writes a map with its keys sorted; a nil map is written {},
// as encoding/json/v2 writes it.
func (e *emitter) encodeMap(t *model.Type, x *jen.Statement, depth int) []jen.Code {
	i, k, v := local(e.l.index, depth), local(e.l.key, depth), local(e.l.mapVal, depth)
	return []jen.Code{
		e.appendTo(jen.LitByte('{')),
		jen.For(jen.List(jen.Id(i), jen.Id(k)).Op(":=").Range().Add(rtSortedKeys.qual()).Call(x)).Block(append([]jen.Code{
			jen.If(jen.Id(i).Op(">").Lit(0)).Block(e.appendTo(jen.LitByte(','))),
			jen.Id(e.l.enc).Dot("B").Op("=").Add(rtAppendString.qual()).Call(jen.Id(e.l.enc).Dot("B"), keyString(t, jen.Id(k))),
			e.appendTo(jen.LitByte(':')),
			jen.Id(v).Op(":=").Add(x).Index(jen.Id(k)),
		}, e.encodeValue(t.Elem, jen.Id(v), depth+1)...)...),
		e.appendTo(jen.LitByte('}')),
	}
}
