package schema

import (
	"go/token"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// Model literals: the types a tool's parameters and results map to.
var (
	str = &model.Type{Kind: model.String, Basic: "string"}
	i64 = &model.Type{Kind: model.Int, Basic: "int", Bits: 64}
	u8  = &model.Type{Kind: model.Uint, Basic: "uint8", Bits: 8}
	i8  = &model.Type{Kind: model.Int, Basic: "int8", Bits: 8}
	b64 = &model.Type{Kind: model.Bytes}
)

func ptr(t *model.Type) *model.Type { return &model.Type{Kind: model.Pointer, Elem: t} }

func slice(t *model.Type) *model.Type { return &model.Type{Kind: model.Slice, Elem: t} }

func field(name string, t *model.Type, required bool, doc string) *model.Field {
	return &model.Field{Path: []model.Step{{Name: name}}, WireName: name, Type: t, Required: required, Doc: doc}
}

func intp(n int) *int { return &n }

func object(name, doc string, fields ...*model.Field) *model.Type {
	return &model.Type{Kind: model.Struct, Named: &model.GoName{Path: "example.com/x", Name: name}, Doc: doc, Fields: fields}
}

// node is a recursive type: its children are nodes.
func node() *model.Type {
	n := object("Node", "Node is a tree.")
	n.Fields = []*model.Field{field("name", str, true, ""), field("kids", slice(n), false, "")}
	return n
}

// TestToolSchemas computes the schemas of tools given as model literals
// and compares them with the exact JSON the contract's type table and tag
// keys give, keyword order included.
func TestToolSchemas(t *testing.T) {
	t.Parallel()
	level := &model.Type{Kind: model.Int, Basic: "int", Bits: 64, Named: &model.GoName{Name: "Level"},
		Enum: []model.EnumValue{{JSON: "0", Go: "0", Doc: "quiet"}, {JSON: "1", Go: "1"}}}
	mode := field("mode", str, false, "How")
	mode.Constraints = model.Constraints{Enum: []model.EnumValue{{JSON: `"fast"`, Go: `"fast"`}, {JSON: `"slow"`, Go: `"slow"`}},
		Default: &model.EnumValue{JSON: `"fast"`, Go: `"fast"`}, Title: "Mode"}
	small := field("small", u8, true, "")
	small.Constraints.Min = &model.Bound{Text: "1", Value: 1}
	small.Constraints.Max = &model.Bound{Text: "300", Value: 300} // looser than uint8: the type's range stays
	tiny := field("tiny", i8, true, "")
	tiny.Constraints.Min = &model.Bound{Text: "-10", Value: -10, Exclusive: true}
	region := field("region", ptr(str), false, "")
	region.Header, region.Constraints.NoNull = "Region", true // mirrored in a header: one type
	tags := field("tags", slice(str), false, "")
	tags.Constraints = model.Constraints{MaxLength: intp(8), MinItems: intp(1), UniqueItems: true}
	for _, c := range []struct {
		name   string
		tool   *model.Tool
		want   Tool
		inputs string // the input schema, when the case is about it
	}{{
		name: "properties",
		tool: &model.Tool{Func: model.Func{Input: object("In", "In is ignored at the top.",
			field("name", str, true, "Who"), mode, small, tiny, tags,
			field("level", level, true, ""), field("blob", ptr(b64), false, ""))}},
		inputs: `{"type":"object","properties":{` +
			`"name":{"type":"string","description":"Who"},` +
			`"mode":{"anyOf":[{"type":"string","enum":["fast","slow"]},{"type":"null"}],"title":"Mode","description":"How","default":"fast"},` +
			`"small":{"type":"integer","minimum":1,"maximum":255},` +
			`"tiny":{"type":"integer","exclusiveMinimum":-10,"maximum":127},` +
			`"tags":{"anyOf":[{"type":"array","items":{"type":"string","maxLength":8},"minItems":1,"uniqueItems":true},{"type":"null"}]},` +
			`"level":{"type":"integer","description":"Values:\n- 0: quiet\n- 1","enum":[0,1]},` +
			`"blob":{"type":["string","null"],"contentEncoding":"base64","pattern":"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"}},` +
			`"required":["name","small","tiny","level"],"additionalProperties":false}`,
	}, {
		name: "nullable",
		tool: &model.Tool{Func: model.Func{Input: object("In", "",
			field("level", ptr(level), false, "Level"), field("next", ptr(node()), false, "Next"), field("any", ptr(&model.Type{Kind: model.Any}), false, ""),
			field("kids", slice(ptr(i64)), false, ""), region)}},
		inputs: `{"type":"object","properties":{` +
			`"level":{"type":["integer","null"],"description":"Level\n\nValues:\n- 0: quiet\n- 1","enum":[0,1,null]},` +
			`"next":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}],"description":"Next"},` +
			`"any":{},` +
			`"kids":{"anyOf":[{"type":"array","items":{"type":["integer","null"]}},{"type":"null"}]},` +
			`"region":{"type":"string","x-mcp-header":"Region"}},` +
			`"additionalProperties":false,"$defs":{"Node":{"type":"object","description":"Node is a tree.","properties":{"name":{"type":"string"},"kids":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/Node"}},{"type":"null"}]}},"required":["name"],"additionalProperties":false}}}`,
	}, {
		name:   "recursive",
		tool:   &model.Tool{Func: model.Func{Input: object("In", "", field("tree", node(), true, "The tree"))}},
		inputs: `{"type":"object","properties":{"tree":{"$ref":"#/$defs/Node","description":"The tree"}},"required":["tree"],"additionalProperties":false,"$defs":{"Node":{"type":"object","description":"Node is a tree.","properties":{"name":{"type":"string"},"kids":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/Node"}},{"type":"null"}]}},"required":["name"],"additionalProperties":false}}}`,
	}, {
		name: "structured output",
		tool: &model.Tool{Func: model.Func{Input: object("In", "")}, Out: model.OutStructured, OutType: object("Out", "Out is the result.", field("n", i64, true, "Count"))},
		want: Tool{Input: []byte(`{"type":"object","properties":{},"additionalProperties":false}`),
			Output: []byte(`{"type":"object","properties":{"n":{"type":"integer","description":"Count"}},"required":["n"],"additionalProperties":false}`)},
	}, {
		name: "list output",
		tool: &model.Tool{Func: model.Func{Input: object("In", "")}, Out: model.OutJSON, OutType: slice(str)},
		want: Tool{Input: []byte(`{"type":"object","properties":{},"additionalProperties":false}`),
			Output: []byte(`{"type":"array","items":{"type":"string"}}`), Wrap: true},
	}, {
		// A nil slice, map or []byte is written [], {} or "", as
		// encoding/json/v2 writes them: only a pointer may be null.
		name: "output of values that may be nil",
		tool: &model.Tool{Func: model.Func{Input: object("In", "", field("in", slice(str), true, ""))}, Out: model.OutStructured, OutType: object("Out", "",
			field("list", slice(slice(str)), true, ""),
			&model.Field{Path: []model.Step{{Name: "opt"}}, WireName: "opt", Type: slice(str), OmitEmpty: true},
			&model.Field{Path: []model.Step{{Name: "zero"}}, WireName: "zero", Type: &model.Type{Kind: model.Map, Elem: str}, OmitZero: true},
			field("m", &model.Type{Kind: model.Map, Elem: i64}, true, ""),
			field("blob", b64, true, ""),
			&model.Field{Path: []model.Step{{Name: "p"}}, WireName: "p", Type: ptr(str), OmitEmpty: true},
			field("pair", &model.Type{Kind: model.Array, Elem: str, Len: 2}, true, ""),
		)},
		want: Tool{Input: []byte(`{"type":"object","properties":{"in":{"type":"array","items":{"type":"string"}}},"required":["in"],"additionalProperties":false}`),
			Output: []byte(`{"type":"object","properties":{` +
				`"list":{"type":"array","items":{"type":"array","items":{"type":"string"}}},` +
				`"opt":{"type":"array","items":{"type":"string"}},` +
				`"zero":{"type":"object","additionalProperties":{"type":"string"}},` +
				`"m":{"type":"object","additionalProperties":{"type":"integer"}},` +
				`"blob":{"type":"string","contentEncoding":"base64","pattern":"` + strings.ReplaceAll(base64Pattern, `\`, `\\`) + `"},` +
				`"p":{"type":["string","null"]},` +
				`"pair":{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":2}},` +
				`"required":["list","m","blob","pair"],"additionalProperties":false}`)},
	}, {
		name: "text output",
		tool: &model.Tool{Func: model.Func{Input: object("In", "")}, Out: model.OutString, OutType: str},
		want: Tool{Input: []byte(`{"type":"object","properties":{},"additionalProperties":false}`)},
	}, {
		name: "files",
		tool: &model.Tool{Func: model.Func{Input: object("In", "", field("a", str, true, ""))}, InputFile: []byte(`{"type":"object"}`),
			Out: model.OutString, OutType: str, OutputFile: []byte(`{"type":"string"}`)},
		want: Tool{Input: []byte(`{"type":"object"}`), Output: []byte(`{"type":"string"}`)},
	}} {
		t.Run(c.name, func(t *testing.T) {
			var at []token.Position
			s := Package(&model.Package{Tools: []*model.Tool{c.tool}}, func(p token.Position) { at = append(at, p) })
			got := s.Tool(c.tool)
			if len(at) != 1 {
				t.Errorf("progress called %d times, want once", len(at))
			}
			if c.inputs != "" {
				if diff := cmp.Diff(c.inputs, string(got.Input)); diff != "" {
					t.Errorf("input schema (-want +got):\n%s", diff)
				}
				return
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("schemas (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFormSchema checks an elicitation form's requested schema: a flat
// object without additionalProperties or the type's description, each
// property of one type (a pointer's without null).
func TestFormSchema(t *testing.T) {
	t.Parallel()
	f := &model.Form{Type: object("Confirm", "Confirm asks.", field("ok", &model.Type{Kind: model.Bool, Basic: "bool"}, true, "Proceed?"), field("why", ptr(str), false, "Why"))}
	s := Package(&model.Package{Forms: []*model.Form{f}}, nil)
	want := `{"type":"object","properties":{"ok":{"type":"boolean","description":"Proceed?"},"why":{"type":"string","description":"Why"}},"required":["ok"]}`
	if got := string(s.Form(f)); got != want {
		t.Errorf("form schema:\n got %s\nwant %s", got, want)
	}
}

// TestDeterministic computes the same package twice: the same bytes.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	m := func() *model.Package {
		return &model.Package{Tools: []*model.Tool{{Func: model.Func{Input: object("In", "", field("a", node(), true, ""), field("b", node(), true, ""))}}}}
	}
	a, b := m(), m()
	if x, y := Package(a, nil).Tool(a.Tools[0]).Input, Package(b, nil).Tool(b.Tools[0]).Input; string(x) != string(y) {
		t.Errorf("two runs differ:\n%s\n%s", x, y)
	}
}
