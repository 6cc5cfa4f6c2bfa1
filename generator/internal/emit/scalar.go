package emit

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/generator/internal/model"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// scalar decodes a value without properties or items into target. With
// checks to make it goes through a local variable x<depth>.
func (e *emitter) scalar(t *model.Type, target *jen.Statement, c *model.Constraints, depth int) []jen.Code {
	read := readCall(t)
	if enum := enumOf(t, c); t.Kind == model.String && len(enum) > 0 {
		// A string enum is read by Decoder.Enum, which checks it and hands
		// back the allowed string itself, without allocating.
		read = jen.Id("d").Dot("Enum").Call(jen.Id(e.enumVar(enum)))
		if needsConversion(t) {
			read = jen.Add(goType(t)).Call(read)
		}
		c = withoutEnum(c)
		t = &model.Type{Kind: t.Kind, Named: t.Named, Basic: t.Basic}
	}
	checks := e.checks(t, jen.Id(local(depth)), c)
	if t.Kind == model.TextMethod {
		out := []jen.Code{jen.Id(local(depth)).Op(":=").Add(read)}
		if len(checks) > 0 {
			out = append(out, jen.If(jen.Op("!").Id("d").Dot("Failed").Call()).Block(checks...))
		}
		return append(out, jen.Id("d").Dot("UnmarshalText").Call(jen.Op("&").Add(target), jen.Id(local(depth))))
	}
	if len(checks) == 0 {
		return []jen.Code{jen.Add(target).Op("=").Add(read)}
	}
	// A value that failed to decode is a zero stand-in: checking it would
	// report a second, false problem.
	return []jen.Code{
		jen.Id(local(depth)).Op(":=").Add(read),
		jen.If(jen.Op("!").Id("d").Dot("Failed").Call()).Block(checks...),
		jen.Add(target).Op("=").Id(local(depth)),
	}
}

func local(depth int) string { return "x" + strconv.Itoa(depth) }

// readCall is the Decoder call reading a value of t, converted to t.
func readCall(t *model.Type) jen.Code {
	d := jen.Id("d")
	var call *jen.Statement
	switch t.Kind {
	case model.String:
		call = d.Dot("String").Call()
	case model.TextMethod:
		return d.Dot("String").Call()
	case model.Int:
		call = d.Dot("Int").Call(jen.Lit(t.Bits))
	case model.Uint:
		call = d.Dot("Uint").Call(jen.Lit(t.Bits))
	case model.Float:
		call = d.Dot("Float").Call(jen.Lit(t.Bits))
	case model.Bool:
		call = d.Dot("Bool").Call()
	case model.Time:
		return d.Dot("Time").Call()
	case model.Duration:
		return d.Dot("Duration").Call()
	case model.Bytes:
		return d.Dot("Bytes").Call()
	case model.Raw:
		return d.Dot("Raw").Call()
	default:
		return d.Dot("Any").Call()
	}
	if needsConversion(t) {
		return jen.Add(goType(t)).Call(call)
	}
	return call
}

// needsConversion reports whether the Decoder's result type differs from t.
func needsConversion(t *model.Type) bool {
	if t.Named != nil {
		return true
	}
	switch t.Kind {
	case model.String:
		return t.Basic != "string"
	case model.Int:
		return t.Basic != "int64"
	case model.Uint:
		return t.Basic != "uint64"
	case model.Float:
		return t.Basic != "float64"
	case model.Bool:
		return t.Basic != "bool"
	}
	return false
}

// checks are the statements checking x against the enum and the tag's
// bounds, lengths and pattern.
func (e *emitter) checks(t *model.Type, x jen.Code, c *model.Constraints) []jen.Code {
	var out []jen.Code
	enum := t.Enum
	if c != nil && len(c.Enum) > 0 {
		enum = c.Enum
	}
	if len(enum) > 0 {
		out = append(out, enumCheck(t, x, enum))
	}
	if c == nil {
		return out
	}
	out = append(out, boundChecks(x, c)...)
	if t.Kind == model.String || t.Kind == model.TextMethod {
		out = append(out, e.stringChecks(x, c)...)
	}
	return out
}

// enumOf is the enum a value is checked against: the tag's, else its type's.
func enumOf(t *model.Type, c *model.Constraints) []model.EnumValue {
	if c != nil && len(c.Enum) > 0 {
		return c.Enum
	}
	return t.Enum
}

func withoutEnum(c *model.Constraints) *model.Constraints {
	if c == nil {
		return nil
	}
	out := *c
	out.Enum = nil
	return &out
}

// enumVar returns the package variable listing the allowed strings of a
// string enum, one variable for each distinct list.
func (e *emitter) enumVar(enum []model.EnumValue) string {
	key := quoteList(enum)
	if name, ok := e.enums[key]; ok {
		return name
	}
	name := "mcpgen_enum_" + strconv.Itoa(len(e.enums))
	e.enums[key] = name
	e.f.Var().Id(name).Op("=").Index().String().ValuesFunc(func(g *jen.Group) {
		for _, v := range enum {
			g.Id(v.Go)
		}
	})
	e.f.Line()
	return name
}

// enumCheck is a switch over the allowed values.
func enumCheck(t *model.Type, x jen.Code, enum []model.EnumValue) jen.Code {
	vals := make([]jen.Code, len(enum))
	for i, v := range enum {
		vals[i] = jen.Id(v.Go)
	}
	return jen.Switch(x).Block(
		jen.Case(vals...),
		jen.Default().Block(jen.Id("d").Dot("BadEnum").Call(gotText(t, x), rawString(quoteList(enum)))),
	)
}

// gotText formats a value for a message, as JSON.
func gotText(t *model.Type, x jen.Code) jen.Code {
	switch t.Kind {
	case model.String:
		return jen.Qual(runtimePath, "Quote").Call(jen.String().Call(x))
	case model.Int:
		return jen.Qual("strconv", "FormatInt").Call(jen.Int64().Call(x), jen.Lit(10))
	case model.Uint:
		return jen.Qual("strconv", "FormatUint").Call(jen.Uint64().Call(x), jen.Lit(10))
	case model.Bool:
		return jen.Qual("strconv", "FormatBool").Call(jen.Bool().Call(x))
	}
	return jen.Qual("strconv", "FormatFloat").Call(jen.Float64().Call(x), jen.LitRune('g'), jen.Lit(-1), jen.Lit(64))
}

// boundChecks compare x, as a float64, with the numeric bounds.
func boundChecks(x jen.Code, c *model.Constraints) []jen.Code {
	var out []jen.Code
	fx := jen.Float64().Call(x)
	if b := c.Min; b != nil {
		op, msg := "<", "%v is less than the minimum "+b.Text
		if b.Exclusive {
			op, msg = "<=", "%v is not greater than the exclusive minimum "+b.Text
		}
		out = append(out, jen.If(jen.Add(fx).Op(op).Id(b.Text)).Block(jen.Id("d").Dot("Errorf").Call(jen.Lit(msg), x)))
	}
	if b := c.Max; b != nil {
		op, msg := ">", "%v is greater than the maximum "+b.Text
		if b.Exclusive {
			op, msg = ">=", "%v is not less than the exclusive maximum "+b.Text
		}
		out = append(out, jen.If(jen.Add(fx).Op(op).Id(b.Text)).Block(jen.Id("d").Dot("Errorf").Call(jen.Lit(msg), x)))
	}
	if b := c.MultipleOf; b != nil {
		out = append(out, jen.If(jen.Op("!").Qual(runtimePath, "IsMultipleOf").Call(fx, jen.Id(b.Text))).Block(
			jen.Id("d").Dot("Errorf").Call(jen.Lit("%v is not a multiple of "+b.Text), x)))
	}
	return out
}

// stringChecks check lengths in characters and the pattern.
func (e *emitter) stringChecks(x jen.Code, c *model.Constraints) []jen.Code {
	var out []jen.Code
	count := jen.Qual("unicode/utf8", "RuneCountInString").Call(jen.String().Call(x))
	if c.MinLength != nil {
		out = append(out, jen.If(jen.Id("n").Op(":=").Add(count), jen.Id("n").Op("<").Lit(*c.MinLength)).Block(
			jen.Id("d").Dot("Errorf").Call(jen.Lit("%d characters, fewer than the minimum length "+strconv.Itoa(*c.MinLength)), jen.Id("n"))))
	}
	if c.MaxLength != nil {
		out = append(out, jen.If(jen.Id("n").Op(":=").Add(count), jen.Id("n").Op(">").Lit(*c.MaxLength)).Block(
			jen.Id("d").Dot("Errorf").Call(jen.Lit("%d characters, more than the maximum length "+strconv.Itoa(*c.MaxLength)), jen.Id("n"))))
	}
	if c.Format != "" && mcprt.EnforcesFormat(c.Format) {
		out = append(out, jen.Id("d").Dot("CheckFormat").Call(jen.Lit(c.Format), jen.String().Call(x)))
	}
	if c.Pattern != "" {
		v := e.patternVar(c.Pattern)
		out = append(out, jen.If(jen.Op("!").Id(v).Dot("MatchString").Call(jen.String().Call(x))).Block(
			jen.Id("d").Dot("Errorf").Call(jen.Lit("%s does not match the pattern %s"), jen.Qual(runtimePath, "Quote").Call(jen.String().Call(x)), rawString(c.Pattern))))
	}
	return out
}

// patternVar returns the package variable holding the compiled pattern.
func (e *emitter) patternVar(p string) string {
	for i, q := range e.patterns {
		if q == p {
			return "mcpgen_pattern_" + strconv.Itoa(i)
		}
	}
	e.patterns = append(e.patterns, p)
	return "mcpgen_pattern_" + strconv.Itoa(len(e.patterns)-1)
}

func (e *emitter) patternVars() {
	for i, p := range e.patterns {
		e.f.Var().Id("mcpgen_pattern_"+strconv.Itoa(i)).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(p))
	}
}

// rawString is a string literal, backquoted when that reads better.
func rawString(s string) jen.Code {
	if strings.ContainsAny(s, "`\r") || !utf8.ValidString(s) {
		return jen.Lit(s)
	}
	return jen.Id("`" + s + "`")
}
