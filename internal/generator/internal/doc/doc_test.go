package doc

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// TestSchemaWords checks how a property's schema is said in the type and
// constraints columns, including what generated schemas do not have but
// input= files may.
func TestSchemaWords(t *testing.T) {
	for _, tc := range []struct{ schema, typ, constraints string }{
		{`{"type":"string","format":"email","maxLength":1}`, "string (email)", "at most 1 character"},
		{`{"type":["string","null"]}`, "string or null", ""},
		{`{"anyOf":[{"type":"integer"},{"$ref":"#/$defs/Node"}]}`, "integer or Node", ""},
		{`{"$ref":"#"}`, "the whole object, recursively", ""},
		{`{}`, "any", ""},
		{`{"type":"number","exclusiveMinimum":0,"maximum":5}`, "number", "greater than 0; at most 5"},
		{`{"type":"integer","const":3}`, "integer", "always `3`"},
		{`{"type":"array","items":{"type":"string","enum":["a","b"]},"minItems":1,"uniqueItems":true}`,
			"array of string", "at least 1 item; items all different; each item: one of `a`, `b`"},
		{`{"type":"object","additionalProperties":{"type":"integer"}}`, "map of integer", ""},
		{`{"type":"string","x-mcp-header":"Region"}`, "string", "mirrored in the HTTP header `Mcp-Param-Region`"},
		{`{"type":"string","minLength":2,"maxLength":2}`, "string", "exactly 2 characters"},
	} {
		v, err := jsonv.Parse([]byte(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		s := v.(jsonv.Object)
		if got := typeText(s); got != tc.typ {
			t.Errorf("type of %s = %q, want %q", tc.schema, got, tc.typ)
		}
		if got := strings.Join(constraints(s), "; "); got != tc.constraints {
			t.Errorf("constraints of %s = %q, want %q", tc.schema, got, tc.constraints)
		}
	}
}

// TestCells checks that text from descriptions cannot break a table or a
// code span.
func TestCells(t *testing.T) {
	if got := cell("a | b\nc"); got != `a \| b<br>c` {
		t.Errorf("cell = %q", got)
	}
	if got := code("a`b"); got != "``a`b``" {
		t.Errorf("code = %q", got)
	}
	if got := code("`x"); got != "`` `x ``" {
		t.Errorf("code = %q", got)
	}
}

func TestEmptyAndBadLists(t *testing.T) {
	md, err := Markdown([]byte(`{"tools":[]}`))
	if err != nil || !strings.Contains(string(md), "no tools, prompts, resources or skills") {
		t.Errorf("empty list: %q, %v", md, err)
	}
	if _, err := Markdown([]byte(`[1]`)); err == nil {
		t.Error("a list that is not an object was accepted")
	}
}
