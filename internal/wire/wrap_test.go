package wire

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// nodeDefs are the $defs of a recursive struct, as the generator writes
// them.
const nodeDefs = `"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["name"],"additionalProperties":false}}`

// TestWrappedOutputResolves wraps output schemas of lists and maps whose
// values refer to $defs or into the document, and checks the published
// bytes and that an independent 2020-12 validator resolves every reference
// and judges wrapped values as the unwrapped schema judges them.
func TestWrappedOutputResolves(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, schema, want string
		valid, invalid     []string // values, wrapped by the test
	}{{
		name:    "list of a recursive struct",
		schema:  `{"type":"array","items":{"$ref":"#/$defs/Node"},` + nodeDefs + `}`,
		want:    `{"type":"object","properties":{"result":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["result"],` + nodeDefs + `}`,
		valid:   []string{`[]`, `[{"name":"a","children":[{"name":"b","children":[]}]}]`},
		invalid: []string{`[{"name":"a","children":[{"children":[]}]}]`, `[{"name":"a","children":[1]}]`},
	}, {
		name:    "map of a recursive struct",
		schema:  `{"type":"object","additionalProperties":{"$ref":"#/$defs/Node"},` + nodeDefs + `}`,
		want:    `{"type":"object","properties":{"result":{"type":"object","additionalProperties":{"$ref":"#/$defs/Node"}}},"required":["result"],` + nodeDefs + `}`,
		valid:   []string{`{"x":{"name":"a","children":[{"name":"b"}]}}`},
		invalid: []string{`{"x":{"name":"a","children":[{"name":1}]}}`},
	}, {
		name:    "list of nullable pointers",
		schema:  `{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]},` + nodeDefs + `}`,
		want:    `{"type":"object","properties":{"result":{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]}}},"required":["result"],` + nodeDefs + `}`,
		valid:   []string{`[null,{"name":"a"}]`},
		invalid: []string{`[{"children":[]}]`},
	}, {
		// A schema written by hand: white space, $schema, references to
		// the root and into it, and data that looks like a reference.
		name:    "references into the document",
		schema:  "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n \"type\": \"array\", \"items\": {\"anyOf\": [{\"type\": \"integer\"}, {\"$ref\": \"#\"}, {\"$ref\": \"#/$defs/Leaf\"}]},\n \"default\": [{\"$ref\": \"#\"}], \"properties\": {\"$ref\": {\"$ref\": \"#/items\"}},\n \"$defs\": {\"Leaf\": {\"const\": \"leaf\"}, \"Same\": {\"$ref\": \"#/items\"}}}",
		want:    `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"result":{"type":"array","items":{"anyOf":[{"type":"integer"},{"$ref":"#/properties/result"},{"$ref":"#/$defs/Leaf"}]},"default":[{"$ref": "#"}],"properties":{"$ref":{"$ref":"#/properties/result/items"}}}},"required":["result"],"$defs":{"Leaf":{"const":"leaf"},"Same":{"$ref":"#/properties/result/items"}}}`,
		valid:   []string{`[1,[2,[3]],"leaf"]`},
		invalid: []string{`[1,["twig"]]`},
	}, {
		// A resource of its own resolves against its $id where it sits.
		name:   "with an id",
		schema: `{"$id":"https://example.com/list","type":"array","items":{"$ref":"#/$defs/Node"},` + nodeDefs + `}`,
		want:   `{"type":"object","properties":{"result":{"$id":"https://example.com/list","type":"array","items":{"$ref":"#/$defs/Node"},` + nodeDefs + `}},"required":["result"]}`,
		valid:  []string{`[{"name":"a"}]`}, invalid: []string{`[{}]`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := mcprt.Tool{OutputSchema: []byte(tt.schema), WrapOutput: true}
			for _, rev := range []Revision{Rev20250618, Rev20251125} {
				got := string(AppendOutputSchema(nil, &tool, rev))
				if got != tt.want {
					t.Fatalf("%s:\n got %s\nwant %s", rev, got, tt.want)
				}
			}
			if got := string(AppendOutputSchema(nil, &tool, Rev20260728)); got != tt.schema {
				t.Errorf("2026-07-28 publishes %s, want the schema as it is", got)
			}
			s := compile(t, tt.want)
			for _, v := range tt.valid {
				if err := s.Validate(unmarshal(t, `{"result":`+v+`}`)); err != nil {
					t.Errorf("%s is refused: %v", v, err)
				}
			}
			for _, v := range tt.invalid {
				if s.Validate(unmarshal(t, `{"result":`+v+`}`)) == nil {
					t.Errorf("%s is accepted", v)
				}
			}
		})
	}
}

func compile(t *testing.T, schema string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem:///output.json", unmarshal(t, schema)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///output.json")
	if err != nil {
		t.Fatalf("the wrapped schema does not compile: %v", err)
	}
	return s
}

func unmarshal(t *testing.T, js string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
