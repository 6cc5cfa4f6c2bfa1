package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// closed wraps properties in a root object every profile accepts as far
// as the root goes: closed, every property required.
func closed(props string, required ...string) string {
	req := `"` + strings.Join(required, `","`) + `"`
	if len(required) == 0 {
		req = ""
	}
	return `{"type":"object","properties":{` + props + `},"required":[` + req + `],"additionalProperties":false}`
}

// TestRules checks every rule of every profile: each case is a tool name
// and input schema and the findings expected, written
// "profile path keyword" (path as Describe writes it, "-" for the root).
func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name, tool, schema string
		want               []string
	}{
		{"accepted by all", "ok", closed(`"a":{"type":"string","description":"x","enum":["p","q"]}`, "a"), nil},
		{"empty object", "ok", closed(``), nil},
		{"closed objects for gemini", "ok", closed(`"a":{"type":"object","properties":{},"additionalProperties":false}`, "a"),
			[]string{"gemini - additionalProperties", "gemini a additionalProperties"}},
		// Names.
		{"dotted tool name", "kb.search", closed(``), []string{"openai-strict - name", "anthropic - name", "anthropic-strict - name"}},
		{"tool name of 65", strings.Repeat("a", 65), closed(``), []string{"openai-strict - name", "gemini - name", "anthropic - name", "anthropic-strict - name"}},
		{"tool name starting with a digit", "1st", closed(``), []string{"gemini - name"}},
		{"parameter name with a dash", "ok", closed(`"a-b":{"type":"string"}`, "a-b"), []string{"gemini a-b properties"}},
		// The root.
		{"root not an object", "ok", `{"type":"string"}`, []string{"openai-strict - type", "gemini - type", "anthropic - type", "anthropic-strict - type"}},
		{"root anyOf", "ok", `{"type":"object","anyOf":[{"type":"object","properties":{},"additionalProperties":false}],"properties":{},"additionalProperties":false}`,
			[]string{"openai-strict - anyOf", "gemini - additionalProperties", "anthropic - anyOf", "anthropic-strict - anyOf", "gemini (anyOf 0) additionalProperties"}},
		{"root oneOf and allOf", "ok", `{"type":"object","oneOf":[],"allOf":[],"properties":{},"additionalProperties":false}`,
			[]string{"openai-strict - oneOf", "openai-strict - allOf", "anthropic - oneOf", "anthropic-strict - oneOf", "anthropic - allOf", "anthropic-strict - allOf",
				"openai-strict - allOf", "gemini - oneOf", "gemini - allOf", "gemini - additionalProperties"}},
		// Objects.
		{"optional property", "ok", closed(`"a":{"type":"string"}`), []string{"openai-strict a required"}},
		{"open object", "ok", closed(`"a":{"type":"object","properties":{}}`, "a"), []string{"openai-strict a additionalProperties", "anthropic-strict a additionalProperties"}},
		{"map", "ok", closed(`"m":{"type":"object","additionalProperties":{"type":"string"}}`, "m"),
			[]string{"openai-strict m additionalProperties", "gemini m additionalProperties", "anthropic-strict m additionalProperties"}},
		{"deep nesting", "ok", closed(`"a":`+nest(10), "a"), []string{"openai-strict a.a.a.a.a.a.a.a.a.a properties"}},
		// Keywords.
		{"default", "ok", closed(`"a":{"type":"integer","default":5}`, "a"), []string{"openai-strict a default"}},
		{"unique items", "ok", closed(`"a":{"type":"array","items":{"type":"string"},"uniqueItems":true}`, "a"),
			[]string{"openai-strict a uniqueItems", "gemini a uniqueItems", "anthropic-strict a uniqueItems"}},
		{"not and if", "ok", closed(`"a":{"type":"string","not":{"type":"string","const":"x"},"if":{"type":"string"}}`, "a"),
			[]string{"openai-strict a not", "openai-strict a if", "gemini a not", "gemini a if", "gemini a(not) const"}},
		{"bounds", "ok", closed(`"a":{"type":"integer","minimum":0,"maximum":9}`, "a"), []string{"anthropic-strict a minimum", "anthropic-strict a maximum"}},
		{"exclusive bounds and step", "ok", closed(`"a":{"type":"number","exclusiveMinimum":0,"multipleOf":0.5}`, "a"),
			[]string{"gemini a exclusiveMinimum", "gemini a multipleOf", "anthropic-strict a exclusiveMinimum", "anthropic-strict a multipleOf"}},
		{"lengths", "ok", closed(`"a":{"type":"string","minLength":1,"maxLength":9}`, "a"), []string{"anthropic-strict a minLength", "anthropic-strict a maxLength"}},
		{"item counts", "ok", closed(`"a":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3}`, "a"), []string{"anthropic-strict a maxItems"}},
		{"minItems over 1", "ok", closed(`"a":{"type":"array","items":{"type":"string"},"minItems":2}`, "a"), []string{"anthropic-strict a minItems"}},
		{"format uri", "ok", closed(`"a":{"type":"string","format":"uri"}`, "a"), []string{"openai-strict a format"}},
		{"format of neither", "ok", closed(`"a":{"type":"string","format":"byte"}`, "a"), []string{"openai-strict a format", "anthropic-strict a format"}},
		{"format of all", "ok", closed(`"a":{"type":"string","format":"date-time"}`, "a"), nil},
		{"content encoding", "ok", closed(`"a":{"type":"string","contentEncoding":"base64","pattern":"^[A-Za-z0-9+/=]*$"}`, "a"), []string{"gemini a contentEncoding"}},
		{"any value", "ok", closed(`"a":{"description":"anything"}`, "a"), []string{"openai-strict a type"}},
		{"type list", "ok", closed(`"a":{"type":["string","null"]}`, "a"), []string{"gemini a type"}},
		{"integer enum", "ok", closed(`"a":{"type":"integer","enum":[1,2]}`, "a"), []string{"gemini a enum"}},
		{"object enum", "ok", closed(`"a":{"enum":[{"x":1}]}`, "a"), []string{"anthropic-strict a enum", "gemini a enum"}},
		{"const", "ok", closed(`"a":{"type":"string","const":"x"}`, "a"), []string{"gemini a const"}},
		{"header annotation", "ok", closed(`"a":{"type":"string","x-mcp-header":"A"}`, "a"), []string{"gemini a x-mcp-header"}},
		{"lookaround", "ok", closed(`"a":{"type":"string","pattern":"^(?!x)"}`, "a"), []string{"anthropic-strict a pattern"}},
		{"backreference", "ok", closed(`"a":{"type":"string","pattern":"(a)\\1"}`, "a"), []string{"anthropic-strict a pattern"}},
		{"too many enum values", "ok", closed(`"a":{"type":"string","enum":[`+values(1001)+`]}`, "a"), []string{"openai-strict - enum"}},
		// References.
		{"recursion", "ok", `{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}},"required":["kids"],"additionalProperties":false}`,
			[]string{"gemini kids[] $ref", "anthropic-strict kids[] $ref"}},
		{"recursive definition", "ok", closed(`"n":{"$ref":"#/$defs/Node"}`, "n")[:len(closed(`"n":{"$ref":"#/$defs/Node"}`, "n"))-1] +
			`,"$defs":{"Node":{"type":"object","properties":{"next":{"$ref":"#/$defs/Node"}},"required":["next"],"additionalProperties":false}}}`,
			[]string{"gemini n $ref", "anthropic-strict n $ref", "gemini - $defs", "gemini $defs.Node.next $ref", "anthropic-strict $defs.Node.next $ref"}},
		{"plain definition", "ok", closed(`"n":{"$ref":"#/$defs/Leaf"}`, "n")[:len(closed(`"n":{"$ref":"#/$defs/Leaf"}`, "n"))-1] +
			`,"$defs":{"Leaf":{"type":"string"}}}`, []string{"gemini n $ref", "gemini - $defs"}},
		{"external reference", "ok", closed(`"n":{"$ref":"https://example.com/s.json"}`, "n"), []string{"gemini n $ref", "anthropic-strict n $ref"}},
		{"reference in allOf", "ok", closed(`"n":{"allOf":[{"$ref":"#/properties/x"}]}`, "n"),
			[]string{"openai-strict n allOf", "openai-strict n type", "gemini n allOf", "gemini n(allOf 0) $ref", "anthropic-strict n(allOf 0) $ref"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, err := Check(tc.tool, []byte(tc.schema), Profiles())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range fs {
				path := Describe(f.Path)
				if path == "" {
					path = "-"
				}
				line := fmt.Sprintf("%s %s %s", f.Profile, path, f.Keyword)
				if f.Profile == Gemini && f.Keyword == "additionalProperties" && !slices.Contains(tc.want, line) {
					continue // every closed object has it; the cases that test it list it
				}
				got = append(got, line)
				if f.Msg == "" {
					t.Errorf("finding without a message: %+v", f)
				}
			}
			if diff := cmp.Diff(sorted(tc.want), sorted(got)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func sorted(ss []string) []string { return slices.Sorted(slices.Values(ss)) }

// nest is n objects nested in property a, each closed and complete.
func nest(n int) string {
	if n == 0 {
		return `{"type":"string"}`
	}
	return closed(`"a":`+nest(n-1), "a")
}

func values(n int) string {
	vs := make([]string, n)
	for i := range vs {
		vs[i] = fmt.Sprintf(`"v%d"`, i)
	}
	return strings.Join(vs, ",")
}

// TestProfilesSelect checks that Check reports only the profiles asked for.
func TestProfilesSelect(t *testing.T) {
	fs, _ := Check("a.b", []byte(closed(`"a":{"type":"integer","default":1}`)), []Profile{Gemini})
	if len(fs) != 1 || fs[0].Profile != Gemini || fs[0].Keyword != "additionalProperties" {
		t.Errorf("gemini alone: %+v", fs)
	}
	if len(fs) == 1 && !fs[0].Closed {
		t.Errorf("gemini's refusal of a closed object is not marked Closed: %+v", fs[0])
	}
	fs, _ = Check("m", []byte(closed(`"m":{"type":"object","additionalProperties":{"type":"string"}}`, "m")), []Profile{Gemini, OpenAIStrict})
	for _, f := range fs {
		if f.Closed != (f.Profile == Gemini && len(f.Path) == 0) {
			t.Errorf("Closed is %v for %+v; only gemini's finding at the closed root is", f.Closed, f)
		}
	}
	if _, err := ParseProfiles("gemini,opneai"); err == nil || !strings.Contains(err.Error(), "valid: openai-strict") {
		t.Errorf("ParseProfiles of a misspelt name: %v", err)
	}
	if ps, _ := ParseProfiles(""); len(ps) != 4 {
		t.Errorf("ParseProfiles(\"\") = %v", ps)
	}
	if ps, _ := ParseProfiles("anthropic, anthropic"); len(ps) != 1 {
		t.Errorf("ParseProfiles with a repeat = %v", ps)
	}
}

// TestPortable checks each rewrite of the portable form, and that it
// leaves alone what it cannot rewrite without changing the values
// accepted.
func TestPortable(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"unchanged", closed(`"a":{"type":"string","format":"email","minimum":1}`, "a"), closed(`"a":{"type":"string","format":"email","minimum":1}`, "a")},
		{"default into the description", `{"type":"integer","description":"How many","default":5}`, `{"type":"integer","description":"How many (default: 5)"}`},
		{"format uri", `{"type":"string","format":"uri"}`, `{"type":"string","description":"(format: uri)"}`},
		{"content encoding", `{"type":"string","contentEncoding":"base64","pattern":"x"}`, `{"type":"string","pattern":"x","description":"(base64-encoded)"}`},
		{"notes together", `{"type":"string","description":"D","format":"uri","default":"x"}`, `{"type":"string","description":"D (default: \"x\"; format: uri)"}`},
		{"const", `{"type":"string","const":"x"}`, `{"type":"string","enum":["x"]}`},
		{"exclusive integer bounds", `{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":10}`, `{"type":"integer","minimum":1,"maximum":9}`},
		{"exclusive bound tighter than inclusive", `{"type":"integer","minimum":-128,"exclusiveMinimum":0}`, `{"type":"integer","minimum":1}`},
		{"inclusive bound tighter than exclusive", `{"type":"integer","minimum":5,"exclusiveMinimum":0}`, `{"type":"integer","minimum":5}`},
		{"exclusive number bound stays", `{"type":"number","exclusiveMinimum":0}`, `{"type":"number","exclusiveMinimum":0}`},
		{"plain definition inlined", `{"type":"object","properties":{"n":{"$ref":"#/$defs/Leaf","description":"N"}},"$defs":{"Leaf":{"type":"string","description":"L"}}}`,
			`{"type":"object","properties":{"n":{"type":"string","description":"N"}}}`},
		{"recursive definition kept", `{"type":"object","properties":{"n":{"$ref":"#/$defs/Node"}},"$defs":{"Node":{"type":"object","properties":{"next":{"$ref":"#/$defs/Node"}}}}}`,
			`{"type":"object","properties":{"n":{"$ref":"#/$defs/Node"}},"$defs":{"Node":{"type":"object","properties":{"next":{"$ref":"#/$defs/Node"}}}}}`},
		{"root recursion kept", `{"type":"object","properties":{"k":{"type":"array","items":{"$ref":"#"}}}}`, `{"type":"object","properties":{"k":{"type":"array","items":{"$ref":"#"}}}}`},
		{"a property named default", `{"type":"object","properties":{"default":{"type":"string","default":"d"}}}`,
			`{"type":"object","properties":{"default":{"type":"string","description":"(default: \"d\")"}}}`},
		{"an enum value that looks like a schema", `{"enum":[{"default":1}]}`, `{"enum":[{"default":1}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Portable([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("Portable(%s)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

// TestPortableIsAccepted checks that what the portable form rewrites is
// no longer reported: a schema with each rewritable keyword has findings
// before and none of those after.
func TestPortableIsAccepted(t *testing.T) {
	in := closed(`"a":{"type":"integer","exclusiveMinimum":0,"default":1},"b":{"type":"string","format":"uri","contentEncoding":"base64"},"c":{"type":"string","const":"x"},"d":{"$ref":"#/$defs/Leaf"}`, "a", "b", "c", "d")
	in = in[:len(in)-1] + `,"$defs":{"Leaf":{"type":"string"}}}`
	out, err := Portable([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	fs, _ := Check("ok", out, []Profile{OpenAIStrict, Gemini})
	for _, f := range fs {
		if f.Keyword != "additionalProperties" { // closed objects stay closed
			t.Errorf("after Portable, %s still rejects %s at %s: %s\n%s", f.Profile, f.Keyword, Describe(f.Path), f.Msg, out)
		}
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		path []string
		want string
	}{
		{nil, ""},
		{[]string{"properties", "changes", "items", "properties", "price"}, "changes[].price"},
		{[]string{"properties", "m", "additionalProperties", "properties", "x"}, "m.*.x"},
		{[]string{"$defs", "Node", "properties", "next"}, "$defs.Node.next"},
		{[]string{"properties", "a", "anyOf", "1"}, "a(anyOf 1)"},
		{[]string{"properties", "a", "not"}, "a(not)"},
	} {
		if got := Describe(tc.path); got != tc.want {
			t.Errorf("Describe(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
