package generator

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

// schemaExpectations are property schemas written by hand from the type
// table and the tag keys of the contract, per golden case and tool: the
// generated schemas must say exactly this, whatever the golden files say.
var schemaExpectations = map[string]map[string]map[string]string{
	"types": {"check": {
		"id":             `{"type":"string","description":"ID identifies the request.","pattern":"^[a-z]{1,3}-[0-9]+$"}`,
		"shade":          `{"type":"string"}`,
		"note":           `{"anyOf":[{"type":"string"},{"type":"null"}]}`,
		"shade_override": `{"type":"integer","description":"not hidden: a different wire name"}`,
		"small":          `{"type":"integer","minimum":-128,"maximum":127}`,
		"count":          `{"type":"integer","minimum":1,"maximum":100}`,
		"ratio":          `{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}`,
		"on":             `{"anyOf":[{"type":"boolean"},{"type":"null"}]}`,
		"when":           `{"type":"string","format":"date-time"}`,
		"blob":           `{"anyOf":[{"type":"string","contentEncoding":"base64","pattern":"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"},{"type":"null"}]}`,
		"raw":            `{}`,
		"anything":       `{}`,
		"tags":           `{"type":"array","description":"Labels for the request","items":{"type":"string","maxLength":8},"minItems":1,"maxItems":3}`,
		"pair":           `{"anyOf":[{"type":"array","items":{"type":"integer"},"minItems":2,"maxItems":2},{"type":"null"}]}`,
		"labels":         `{"anyOf":[{"type":"object","additionalProperties":{"type":"string"}},{"type":"null"}]}`,
		"level":          `{"type":"integer","description":"Values:\n- 0: everything, for tracing a problem\n- 1: Info reports progress.\n- 2","enum":[0,1,2]}`,
		"mode":           `{"anyOf":[{"type":"string","enum":["fast","slow"]},{"type":"null"}],"title":"Mode","default":"fast"}`,
		"tree":           `{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]}`,
		"inline":         `{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"additionalProperties":false}`,
		"$required":      `["id","shade","shade_override","small","count","ratio","when","tags","level","inline"]`,
		"$defs":          `{"Node":{"type":"object","description":"Recursive.","properties":{"name":{"type":"string"},"children":{"anyOf":[{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]}},{"type":"null"}]}},"required":["name"],"additionalProperties":false}}`,
	}},
	"tags": {"greet": {
		"name":      `{"type":"string","title":"Name","description":"Who to greet","pattern":"^[a-z]+$","minLength":2,"maxLength":5}`,
		"greeting":  `{"anyOf":[{"type":"string","enum":["hello","hi"]},{"type":"null"}],"default":"hi"}`,
		"times":     `{"type":["integer","null"],"default":2,"minimum":1,"maximum":9}`,
		"small":     `{"anyOf":[{"type":"integer","minimum":0,"maximum":255},{"type":"null"}]}`,
		"tiny":      `{"anyOf":[{"type":"integer","exclusiveMinimum":-10,"maximum":127},{"type":"null"}]}`,
		"step":      `{"anyOf":[{"type":"number","multipleOf":0.25},{"type":"null"}]}`,
		"mail":      `{"anyOf":[{"type":"string","format":"email"},{"type":"null"}]}`,
		"host":      `{"anyOf":[{"type":"string","format":"hostname"},{"type":"null"}]}`,
		"codes":     `{"anyOf":[{"type":"array","items":{"type":"integer","minimum":0},"minItems":1,"maxItems":3,"uniqueItems":true},{"type":"null"}]}`,
		"pair":      `{"anyOf":[{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":2,"uniqueItems":true},{"type":"null"}]}`,
		"flag":      `{"anyOf":[{"type":"boolean"},{"type":"null"}]}`,
		"must":      `{"type":["string","null"]}`,
		"region":    `{"type":"string","description":"Mirrored in a header, so never null","x-mcp-header":"Region"}`,
		"$required": `["name","must"]`,
	}, "search": {
		"query":     `{"type":"string","description":"What to look for"}`,
		"limit":     `{"type":"integer","minimum":1,"maximum":50}`,
		"$required": `["query"]`,
	}},
	"methods": {"read": {
		"temp":      `{"description":"Temperature as a number or \"21C\""}`,
		"on":        `{"type":"string","description":"Day of the reading","format":"date"}`,
		"days":      `{"anyOf":[{"type":"array","items":{"type":"string","format":"date"}},{"type":"null"}],"description":"More days"}`,
		"level":     `{"type":"string","description":"Alert level, low or high","maxLength":4}`,
		"addr":      `{"type":"string","description":"Address of the sensor"}`,
		"peers":     `{"anyOf":[{"type":"array","items":{"type":"string"},"maxItems":2},{"type":"null"}],"description":"Other sensors"}`,
		"big":       `{"description":"An integer of any size"}`,
		"$required": `["temp","on","level","addr"]`,
	}},
	"remote": {"order": {
		"customer": `{"type":"object","description":"Who an order is for.","properties":{` +
			`"name":{"type":"string","description":"The customer's full name.","minLength":1},` +
			`"email":{"anyOf":[{"type":"string","format":"email"},{"type":"null"}],"description":"Where receipts go"},` +
			`"notes":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["name"],"additionalProperties":false}`,
		"where": `{"type":"object","description":"Describes an arbitrary source position including the file, line, and column location. A Position is valid if the line number is \u003e 0.","properties":{` +
			`"Filename":{"type":"string","description":"filename, if any"},` +
			`"Offset":{"type":"integer","description":"offset, starting at 0"},` +
			`"Line":{"type":"integer","description":"line number, starting at 1"},` +
			`"Column":{"type":"integer","description":"column number, starting at 1 (byte count)"}},` +
			`"required":["Filename","Offset","Line","Column"],"additionalProperties":false}`,
		"counts": `{"anyOf":[{"type":"object","properties":{` +
			`"items":{"type":"array","description":"The entries of this page","items":{"type":"integer"}},` +
			`"next":{"type":["integer","null"],"description":"Offset of the next page, absent on the last"}},"required":["items"],"additionalProperties":false},` +
			`{"type":"null"}],"description":"One page of a listing."}`,
		"labels": `{"anyOf":[{"type":"array","items":{"type":"object","description":"Holds two values of different types.","properties":{` +
			`"key":{"type":"string","description":"The key"},"value":{"type":"boolean","description":"The value"}},` +
			`"required":["key","value"],"additionalProperties":false}},{"type":"null"}]}`,
		"topics": `{"anyOf":[{"$ref":"#/$defs/Tree_string"},{"type":"null"}]}`,
		"$defs": `{"Tree_string":{"type":"object","description":"A value with subtrees.","properties":{` +
			`"value":{"type":"string"},"kids":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/Tree_string"}},{"type":"null"}]}},"required":["value"],"additionalProperties":false}}`,
		"$required": `["customer","buyer","where","lines"]`,
	}},
}

// TestSchemaExpectations compares generated property schemas with
// schemaExpectations, as JSON values.
func TestSchemaExpectations(t *testing.T) {
	t.Parallel()
	for dir, tools := range schemaExpectations {
		abs, _ := filepath.Abs(filepath.Join("testdata", "golden", dir))
		files, diags := generated(abs)
		if diags.HasErrors() || len(files) != 1 {
			t.Fatalf("%s: %v", dir, diags)
		}
		found := map[string]bool{}
		for _, tool := range files[0].Tools {
			want, ok := tools[tool.Name]
			if !ok {
				continue
			}
			found[tool.Name] = true
			var doc struct {
				Properties map[string]json.RawMessage `json:"properties"`
				Required   json.RawMessage            `json:"required"`
				Defs       json.RawMessage            `json:"$defs"`
			}
			if err := json.Unmarshal(tool.InputSchema, &doc); err != nil {
				t.Fatal(err)
			}
			doc.Properties["$required"], doc.Properties["$defs"] = doc.Required, doc.Defs
			for prop, js := range want {
				if !sameJSON(t, js, doc.Properties[prop]) {
					t.Errorf("%s %s.%s:\n got %s\nwant %s", dir, tool.Name, prop, doc.Properties[prop], js)
				}
			}
		}
		for name := range tools {
			if !found[name] {
				t.Errorf("%s: no tool %s", dir, name)
			}
		}
	}
}

func sameJSON(t *testing.T, want string, got []byte) bool {
	t.Helper()
	var w, g any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation %s: %v", want, err)
	}
	if got == nil || json.Unmarshal(got, &g) != nil {
		return false
	}
	return reflect.DeepEqual(w, g)
}
