package difftest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// The problems of arguments are compared one by one: the decoder's list
// of problems, each as its path and the JSON Schema keyword it breaks,
// must equal the list of errors of the validator, in any order.

// decoderProblems runs data through tg's decoder and returns its problems
// as "path keyword", sorted, and whether the lists can be compared: no
// problem was left out past the limit, and none is of a number that a
// 64-bit integer or a float cannot hold, for which the schema has no
// bound.
func decoderProblems(t *testing.T, tg target, data []byte) ([]string, bool) {
	t.Helper()
	var d mcpimpl.Decoder
	d.Reset(data)
	tg.decode(&d)
	err := d.Finish()
	if err == nil {
		return nil, true
	}
	var aerr *mcpimpl.ArgumentError
	if !errors.As(err, &aerr) {
		t.Fatalf("decoding %s: %v is not an *ArgumentError", data, err)
	}
	var out []string
	for _, p := range aerr.Problems {
		if wide.MatchString(p.Message) {
			return nil, false // the schema has no bound for it
		}
		out = append(out, p.Path+" "+keywordOf(t, p))
	}
	slices.Sort(out)
	return out, aerr.More == 0
}

// wide matches the problem of a number the Go type cannot hold where the
// schema has no bound: a 64-bit integer or a float.
var wide = regexp.MustCompile(`out of range for (u?int64|float[0-9]+)`)

// problemKeywords maps the decoder's messages to the keyword each breaks.
var problemKeywords = []struct {
	re      *regexp.Regexp
	keyword string
}{
	{regexp.MustCompile(`^expected [0-9]+ items, got`), "items"}, // a fixed-length array, told apart below
	// A string of the wrong form, where the schema says a pattern or a
	// format.
	{regexp.MustCompile(`^expected (duration|base64 string).*, got "`), "pattern"},
	{regexp.MustCompile(`^expected date-time \(RFC 3339\), got "`), "format"},
	{regexp.MustCompile(`^expected `), "type"},
	{regexp.MustCompile(`^required property is missing$`), "required"},
	{regexp.MustCompile(`^unknown property`), "additionalProperties"},
	{regexp.MustCompile(`^[0-9]+ items?, fewer than the minimum [0-9]+$`), "minItems"},
	{regexp.MustCompile(`^[0-9]+ items?, more than the maximum [0-9]+$`), "maxItems"},
	{regexp.MustCompile(`^items are not unique$`), "uniqueItems"},
	{regexp.MustCompile(`characters, fewer than the minimum length`), "minLength"},
	{regexp.MustCompile(`characters, more than the maximum length`), "maxLength"},
	{regexp.MustCompile(`does not match the pattern`), "pattern"},
	{regexp.MustCompile(` is not one of `), "enum"},
	{regexp.MustCompile(` is less than the minimum `), "minimum"},
	{regexp.MustCompile(` is greater than the maximum `), "maximum"},
	{regexp.MustCompile(` is not greater than the exclusive minimum `), "exclusiveMinimum"},
	{regexp.MustCompile(` is not less than the exclusive maximum `), "exclusiveMaximum"},
	{regexp.MustCompile(` is not a multiple of `), "multipleOf"},
	{regexp.MustCompile(`^-[^ ]* is out of range for u?int`), "minimum"},
	{regexp.MustCompile(`^[^ ]* is out of range for u?int`), "maximum"},
}

// keywordOf is the keyword the problem p breaks; a message with no
// keyword fails the test.
func keywordOf(t *testing.T, p mcpimpl.Problem) string {
	t.Helper()
	for _, k := range problemKeywords {
		if !k.re.MatchString(p.Message) {
			continue
		}
		if k.keyword == "items" {
			var want, got int
			fmt.Sscanf(p.Message, "expected %d items, got %d", &want, &got)
			if got < want {
				return "minItems"
			}
			return "maxItems"
		}
		return k.keyword
	}
	t.Fatalf("no keyword for the problem %q at %q", p.Message, p.Path)
	return ""
}

// validatorProblems returns the errors of the validator for data as
// "path keyword", sorted: one for each leaf of its tree of errors, and
// one for each property a required or additionalProperties error names.
func validatorProblems(t *testing.T, s *jsonschema.Schema, data []byte) []string {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the validator cannot read %s: %v", data, err)
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		at := instancePath(e.InstanceLocation)
		switch k := e.ErrorKind.(type) {
		case *kind.Type:
			if slices.Equal(k.Want, []string{"null"}) {
				return // the branch of anyOf that takes null for a property left out
			}
			out = append(out, at+" type")
		case *kind.Required:
			for _, name := range k.Missing {
				out = append(out, joinPath(at, name)+" required")
			}
		case *kind.AdditionalProperties:
			for _, name := range k.Properties {
				out = append(out, joinPath(at, name)+" additionalProperties")
			}
		default:
			kw := e.ErrorKind.KeywordPath()
			out = append(out, at+" "+kw[len(kw)-1])
		}
	}
	var verr *jsonschema.ValidationError
	if err := s.Validate(doc); errors.As(err, &verr) {
		walk(verr)
	} else if err != nil {
		t.Fatalf("validating %s: %v", data, err)
	}
	slices.Sort(out)
	return out
}

// instancePath writes the validator's location of a value as the decoder
// writes paths: changes[1].new_price. A token of digits is an index: the
// tools compared have no property named by digits.
func instancePath(tokens []string) string {
	path := ""
	for _, tok := range tokens {
		if _, err := strconv.Atoi(tok); err == nil {
			path += "[" + tok + "]"
		} else {
			path = joinPath(path, tok)
		}
	}
	return path
}

// joinPath appends the property name to path as the decoder does.
func joinPath(path, name string) string {
	if !identifier.MatchString(name) {
		return path + "[" + string(jsonx.AppendString(nil, name)) + "]"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// sameProblems checks that the decoder and the validator find the same
// problems in data, which must be strict JSON with no string the decoder
// would read as a number or a boolean.
func sameProblems(t *testing.T, tg target, data []byte) {
	t.Helper()
	got, whole := decoderProblems(t, tg, data)
	if !whole {
		return
	}
	want := validatorProblems(t, tg.schema, data)
	if !slices.Equal(got, want) {
		t.Fatalf("problems of %s:\n decoder   %q\n validator %q", data, got, want)
	}
}

// member is one property of generated arguments, as JSON.
type member struct{ name, value string }

// values are JSON values for each property of ProblemsInput, good and
// bad: of the wrong type, out of bounds, of bad items, null. No string is
// one the decoder reads as a number or a boolean, which it accepts where
// the validator does not.
var problemValues = map[string][]string{
	"a": {`5`, `9`, `1`, `4.0`, `"x"`, `1.5`, `true`, `[5]`, `{}`, `null`},
	"b": {`["x","y"]`, `["x","y","z"]`, `[]`, `["x"]`, `["w","x","y","z"]`, `["v","w","x","y","z"]`,
		`["x",1]`, `[true,"x","y","z"]`, `[null]`, `"x"`, `null`},
	"c": {`[]`, `[1,2]`, `[1,1]`, `[0,0]`, `[0,"x"]`, `["x",0]`, `[0,"x",0]`, `[5,true,5]`, `[1.5,1.5]`,
		`[1,2,3,2]`, `[0,-0]`, `[1,1.0]`, `[null,0]`, `[[1],[1]]`, `{}`, `null`},
	"d": {`"ab"`, `"a"`, `"A1"`, `"A"`, `""`, `5`, `null`},
	"e": {`[]`, `[{"id":"a"}]`, `[{}]`, `[{"id":""}]`, `[{"id":"abcdefghij"}]`, `[{"id":"a","x":1}]`,
		`[{"id":"a"},{"id":"b"},{"id":"c"}]`, `[5,{"id":7}]`, `[{},{},{}]`, `"e"`, `null`},
	"f": {`"emea"`, `"mars"`, `""`, `1`, `null`},
	"g": {`0`, `127`, `128`, `-129`, `300`, `"g"`, `null`},
	"h": {`{}`, `{"k":1}`, `{"k":"x","m":2}`, `{"k":1.5,"m":null}`, `[]`, `null`},
	"i": {`["emea"]`, `[]`, `["emea","emea"]`, `["mars","mars"]`, `["mars",1]`, `["",""]`, `[1,""]`,
		`["amer",null,"amer"]`, `null`},
	"j":  {`3`, `9`, `12`, `"x"`, `null`},
	"zz": {`1`}, // an unknown property
}

// randomArguments picks a value for some of the properties.
func randomArguments(r *rand.Rand) []member {
	names := make([]string, 0, len(problemValues))
	for name := range problemValues {
		names = append(names, name)
	}
	slices.Sort(names)
	var ms []member
	for _, name := range names {
		if r.IntN(4) == 0 {
			continue // absent
		}
		vs := problemValues[name]
		ms = append(ms, member{name, vs[r.IntN(len(vs))]})
	}
	return ms
}

func objectOf(ms []member) []byte {
	b := []byte{'{'}
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(strconv.AppendQuote(b, m.name), ':'), m.value...)
	}
	return append(b, '}')
}

// TestProblemsAgreeWithValidator sends arguments with several problems,
// their members in many orders, and compares every problem the decoder
// reports with the validator's errors: a problem early must neither hide
// one later nor make up one that is not there.
func TestProblemsAgreeWithValidator(t *testing.T) {
	t.Parallel()
	tg := targets(t)["problems"]
	// The case of the report: a failed property before lists of the right
	// length, of too many items, and of repeated items.
	for _, data := range []string{
		`{"a":1,"b":["x","y"],"c":[]}`,
		`{"a":1,"b":["w","x","y","z"],"c":[1,1]}`,
		`{"c":[1,1],"b":["x"],"a":"x"}`,
	} {
		sameProblems(t, tg, []byte(data))
	}
	r := rand.New(rand.NewPCG(1, 2))
	cases := 400
	if testing.Short() {
		cases = 100
	}
	for range cases {
		ms := randomArguments(r)
		if len(ms) <= 4 {
			for p := range permutations(ms) {
				sameProblems(t, tg, objectOf(p))
			}
			continue
		}
		for range 24 {
			r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
			sameProblems(t, tg, objectOf(ms))
		}
	}
}

// permutations yields every order of ms.
func permutations(ms []member) func(yield func([]member) bool) {
	return func(yield func([]member) bool) {
		p := slices.Clone(ms)
		var rec func(k int) bool
		rec = func(k int) bool {
			if k == len(p) {
				return yield(p)
			}
			for i := k; i < len(p); i++ {
				p[k], p[i] = p[i], p[k]
				if !rec(k + 1) {
					return false
				}
				p[k], p[i] = p[i], p[k]
			}
			return true
		}
		rec(0)
	}
}

// FuzzProblems compares the problems of arbitrary arguments, leaving out
// those where the decoder and the validator differ by design (see check):
// malformed or non-strict JSON (duplicate names, invalid UTF-8) and
// strings the decoder coerces.
func FuzzProblems(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		f.Add(objectOf(randomArguments(r)))
	}
	tg := targets(f)["problems"]
	f.Fuzz(func(t *testing.T, data []byte) {
		if !jsontext.Value(data).IsValid() || coercible(data) {
			return
		}
		if jsontext.Value(data).Kind() != '{' {
			return
		}
		sameProblems(t, tg, data)
	})
}

// coercible reports whether data holds a string the decoder may read as
// a number or a boolean.
func coercible(data []byte) bool {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return false
		}
		if tok.Kind() != '"' {
			continue
		}
		s := tok.String()
		if s == "true" || s == "false" || numberLiteral.MatchString(s) {
			return true
		}
	}
}

// numberLiteral matches a JSON number.
var numberLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// TestNullIsAbsent sends null for every property that may be left out, as
// strict clients do for what they omit: the decoder takes each for absent,
// applying its default, and the published schema allows it; a required
// property still refuses null.
func TestNullIsAbsent(t *testing.T) {
	t.Parallel()
	tg := targets(t)["problems"]
	data := []byte(`{"a":5,"b":["x","y"],"c":[],"d":null,"e":null,"f":null,"g":null,"h":null,"i":null,"j":null}`)
	var d mcpimpl.Decoder
	d.Reset(data)
	got := tg.decode(&d).(*ProblemsInput)
	if err := d.Finish(); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	if want := (ProblemsInput{A: 5, B: []string{"x", "y"}, C: []int{}, J: 3}); !reflect.DeepEqual(*got, want) {
		t.Errorf("decoding %s = %+v, want %+v", data, *got, want)
	}
	if !validates(tg.schema, data) {
		t.Errorf("the published schema refuses %s", data)
	}
	sameProblems(t, tg, []byte(`{"a":null,"b":null,"c":null,"d":null}`))
}
