package difftest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/bench/pricing"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// target is one tool's generated decoder and its published input schema.
type target struct {
	decode func(*mcpimpl.Decoder) any // decodes into a new value, returns a pointer to it
	fresh  func() any                 // a pointer to a new zero value, for encoding/json
	schema *jsonschema.Schema
}

func targets(t testing.TB) map[string]target {
	schemas := map[string]*jsonschema.Schema{}
	for _, tool := range MCPTools() {
		schemas[tool.Name] = compile(t, tool.Name, tool.InputSchema)
	}
	return map[string]target{
		"decode_price_update": {
			decode: func(d *mcpimpl.Decoder) any {
				var v pricing.BulkPriceUpdateInput
				mcpgen_decode_BulkPriceUpdateInput(d, &v)
				return &v
			},
			fresh:  func() any { return new(pricing.BulkPriceUpdateInput) },
			schema: schemas["decode_price_update"],
		},
		"kinds": {
			decode: func(d *mcpimpl.Decoder) any { var v KindsInput; mcpgen_decode_KindsInput(d, &v); return &v },
			fresh:  func() any { return new(KindsInput) },
			schema: schemas["kinds"],
		},
		"problems": {
			decode: func(d *mcpimpl.Decoder) any { var v ProblemsInput; mcpgen_decode_ProblemsInput(d, &v); return &v },
			fresh:  func() any { return new(ProblemsInput) },
			schema: schemas["problems"],
		},
	}
}

func compile(t testing.TB, name string, js []byte) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("mem:///"+name+".json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validates(s *jsonschema.Schema, data []byte) bool {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	return err == nil && s.Validate(doc) == nil
}

// check runs data through the decoder, the validator and encoding/json.
// The documented exceptions, where they may disagree:
//   - coercion: the decoder accepts a string holding a number or boolean
//     where the schema says number, integer or boolean; the validator
//     rejects it;
//   - duplicate names, invalid UTF-8 and unpaired surrogate escapes: the
//     decoder rejects them, the validator (which parses with encoding/json)
//     sees only the last duplicate and replacement characters;
//   - numbers the Go type cannot hold (1e39 for a float32): the schema has
//     no bound for them, the decoder rejects them;
//   - whole numbers written with a fraction or an exponent (1.0, 1e2): both
//     JSON Schema and the decoder take them as integers; encoding/json
//     refuses them for integer fields, so there is no value to compare;
//   - date-times with a lower-case "t" or "z": RFC 3339 and JSON Schema
//     allow them and so does the decoder; encoding/json refuses them;
//   - leap seconds ("23:59:60"): valid RFC 3339 that a time.Time cannot
//     hold, so the decoder rejects them;
//   - date-times outside RFC 3339's grammar that the validator lets through
//     (a signed field such as "T+0:00:00Z"): the decoder rejects them.
func check(t *testing.T, tg target, data []byte) {
	var d mcpimpl.Decoder
	d.Reset(data)
	got := tg.decode(&d)
	derr := d.Finish()
	if !json.Valid(data) {
		if derr == nil && !absent(data) {
			t.Fatalf("decoder accepted invalid JSON %q", data)
		}
		return
	}
	schemaOK := validates(tg.schema, data)
	if derr == nil {
		js, err := json.Marshal(got)
		if err != nil || !validates(tg.schema, js) {
			t.Fatalf("decoder accepted %s, but the value re-encodes as %s, which the schema rejects", data, js)
		}
	}
	strict := jsontext.Value(data).IsValid()
	if !schemaOK {
		// The decoder rejected it too, or accepted it by coercion
		// (re-encoding checked above). Without coercion, they must find
		// the same problems, unless null stood for no arguments.
		lax := derr != nil && (leapSecond.MatchString(derr.Error()) || outsideRFC3339(derr.Error()))
		if strict && jsontext.Value(data).Kind() != 'n' && !coercible(data) && !lax {
			sameProblems(t, tg, data)
		}
		return
	}
	if derr != nil {
		if !strict || strings.Contains(derr.Error(), "out of range for") {
			return // duplicate names, invalid UTF-8, or a number the Go type cannot hold
		}
		if leapSecond.MatchString(derr.Error()) || outsideRFC3339(derr.Error()) {
			return // a leap second, or a date-time the validator is too lax about
		}
		t.Fatalf("the schema accepts %s, the decoder rejects it:\n%v", data, derr)
	}
	want := tg.fresh()
	if err := json.Unmarshal(data, want); err != nil {
		if strings.Contains(err.Error(), "cannot unmarshal number") || strings.Contains(err.Error(), "parsing time") {
			return // a whole number written as 1.0 or 1e2, or a lower-case t or z in a date-time
		}
		t.Fatalf("the schema and decoder accept %s, encoding/json does not: %v", data, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("decoding %s differs from encoding/json (-json +decoder):\n%s", data, diff)
	}
}

// leapSecond matches a problem with a date-time at second 60.
var leapSecond = regexp.MustCompile(`expected date-time \(RFC 3339\), got "[^"]*:60[.Z+-]`)

// dateTimeProblem finds the value of a date-time problem in the decoder's
// messages; rfc3339 is RFC 3339's grammar of a date-time.
var (
	dateTimeProblem = regexp.MustCompile(`expected date-time \(RFC 3339\), got "((?:[^"\\]|\\.)*)"(\.\.\.)?`)
	rfc3339         = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$`)
)

// outsideRFC3339 reports whether a problem is about a date-time that does
// not follow RFC 3339's grammar at all.
func outsideRFC3339(problems string) bool {
	for _, m := range dateTimeProblem.FindAllStringSubmatch(problems, -1) {
		if m[2] == "" && !rfc3339.MatchString(m[1]) {
			return true
		}
	}
	return false
}

// absent reports whether data is what the decoder takes for no arguments.
func absent(data []byte) bool { return len(bytes.TrimSpace(data)) == 0 }

var bulkSeeds = []string{
	`{"region":"emea","rounding":"nearest_cent","changes":[{"product_id":"P-1","new_price":19.99,"effective_from":"2026-01-01T00:00:00Z"}]}`,
	`{"region":"apac","changes":[]}`,
	`{"region":"amer","changes":[{"product_id":"a","new_price":"1.5"}]}`,
	`{"region":"mars","changes":[{"new_price":true}],"colour":1}`,
	`{"region":"emea","region":"amer","changes":[]}`,
	`{"region":"emea","changes":[{"product_id":"\ud800","new_price":1e400}]}`,
	`{"region":"emea","changes":[{"product_id":"x","new_price":2,"effective_from":"2026-13-01T00:00:00Z"}]}`,
	`{"region":"emea","rounding":"none","changes":[{"product_id":"a","new_price":0},{"product_id":"b","new_price":-0.01}]}`,
	`[1,2,3]`, `null`, ``, `{"region":`,
}

var kindsSeeds = []string{
	`{"id":"a","small":-128,"count":5,"ratio":0.5,"on":true,"blob":"AQI=","tags":["x","y"],"pair":[1,2],"labels":{"k":"v"},"level":2,"code":"AB12","note":"n"}`,
	`{"id":"abcdefghi","small":128}`,
	`{"id":"é","small":1,"pair":[1,2,3],"tags":["a","b","c","d"]}`,
	`{"id":"a","small":"7","count":"0","ratio":1e39,"level":3,"code":"ab12","note":null}`,
	`{"id":"a","small":1.0,"count":1e2,"labels":{"a":"b","a":"c"}}`,
	`{"id":"a","small":1,"places":{"x":{"id":"p"},"y":{"id":""},"z":{}}}`,
	`{"id":"a","small":1,"spots":[{"id":"a"},{"id":"\u0061"}],"rows":[["a","b"],["b","a"]],"maps":[{"a":true,"b":false},{"b":false,"a":true}]}`,
	`{"id":"a","small":1,"size":"medium"}`, `{"id":"a","small":1,"size":"huge"}`, `{"id":"a","small":1,"size":null}`,
}

func FuzzBulkPriceUpdate(f *testing.F) {
	for _, s := range bulkSeeds {
		f.Add([]byte(s))
	}
	tg := targets(f)["decode_price_update"]
	f.Fuzz(func(t *testing.T, data []byte) { check(t, tg, data) })
}

func FuzzKinds(f *testing.F) {
	for _, s := range kindsSeeds {
		f.Add([]byte(s))
	}
	tg := targets(f)["kinds"]
	f.Fuzz(func(t *testing.T, data []byte) { check(t, tg, data) })
}
