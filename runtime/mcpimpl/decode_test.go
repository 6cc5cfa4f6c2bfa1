package mcpimpl_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// problemLines flattens err, an *ArgumentError or nil, into one
// "path: message" string per problem, plus the "and N more" count.
func problemLines(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ae *mcpimpl.ArgumentError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v is a %T, want *mcpimpl.ArgumentError", err, err)
	}
	var lines []string
	for _, p := range ae.Problems {
		if p.Path == "" {
			lines = append(lines, p.Message)
		} else {
			lines = append(lines, p.Path+": "+p.Message)
		}
	}
	if ae.More > 0 {
		lines = append(lines, fmt.Sprintf("and %d more problems", ae.More))
	}
	return lines
}

func checkProblems(t *testing.T, input string, err error, want []string) {
	t.Helper()
	got := problemLines(t, err)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoding %s\ngot problems:\n\t%s\nwant:\n\t%s",
			short(input), strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// short cuts long test inputs down for failure messages.
func short(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}

func TestDecodeReference(t *testing.T) {
	t.Parallel()
	in, err := decodeReference(referenceArgs())
	if err != nil {
		t.Fatalf("reference arguments: %v", err)
	}
	if in.Region != "emea" || in.Rounding != "nearest_cent" || len(in.Changes) != 10 {
		t.Fatalf("decoded %+v", in)
	}
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range in.Changes {
		if c.ProductID != fmt.Sprintf("P-%d", i) || c.NewPrice != 19.99 ||
			c.EffectiveFrom == nil || !c.EffectiveFrom.Equal(when) {
			t.Errorf("changes[%d] = %+v", i, c)
		}
	}
}

// change is one entry of the changes array, for building test arguments.
const change = `{"product_id":"P-1","new_price":19.99,"effective_from":"2026-01-01T00:00:00Z"}`

func TestDecodeReferenceProblems(t *testing.T) {
	t.Parallel()
	var many strings.Builder
	many.WriteString(`{"region":"emea","changes":[]`)
	for i := range 25 {
		fmt.Fprintf(&many, `,"x%d":0`, i)
	}
	many.WriteString(`}`)
	manyWant := make([]string, 0, 21)
	for i := range 20 {
		manyWant = append(manyWant, fmt.Sprintf("x%d: unknown property", i))
	}
	manyWant = append(manyWant, "and 5 more problems")

	tests := []struct {
		name, in string
		want     []string
	}{
		{"ok", `{"region":"amer","changes":[` + change + `]}`, nil},
		{"bad number in changes[1]",
			`{"region":"emea","changes":[` + change + `,{"product_id":"P-2","new_price":"abc"}]}`,
			[]string{`changes[1].new_price: expected number, got "abc"`}},
		{"missing product_id", `{"region":"emea","changes":[{"new_price":1}]}`,
			[]string{"changes[0].product_id: required property is missing"}},
		{"missing at top level", `{}`, []string{
			"region: required property is missing",
			"changes: required property is missing"}},
		{"unknown near", `{"region":"emea","changes":[{"product_id":"a","new_price":1,"colour":"red"}]}`,
			[]string{`changes[0].colour: unknown property; did you mean "color"?`}},
		{"unknown case-insensitive", `{"Region":"emea","region":"emea","changes":[]}`,
			[]string{`Region: unknown property; did you mean "region"?`}},
		{"unknown far", `{"region":"emea","changes":[],"zzz":{"a":[1]}}`,
			[]string{"zzz: unknown property"}},
		{"unknown odd key", `{"region":"emea","changes":[{"a b":1,"product_id":"a","new_price":1}]}`,
			[]string{`changes[0]["a b"]: unknown property`}},
		{"unknown escaped key", `{"region":"emea","changes":[],"\u00e9\"":1}`,
			[]string{`["é\""]: unknown property`}},
		{"escaped known key", `{"\u0072egion":"emea","changes":[]}`, nil},
		{"duplicate", `{"region":"emea","region":"apac","changes":[]}`,
			[]string{"region: duplicate property"}},
		{"null for a string", `{"region":null,"changes":[]}`,
			[]string{"region: expected string, got null"}},
		{"null for a pointer", `{"region":"emea","changes":[{"product_id":"a","new_price":1,"effective_from":null}]}`, nil},
		{"null for an array", `{"region":"emea","changes":null}`,
			[]string{"changes: expected array, got null"}},
		{"string-coerced number", `{"region":"emea","changes":[{"product_id":"a","new_price":"-1e3"}]}`, nil},
		{"number for a string", `{"region":"emea","changes":[{"product_id":12,"new_price":1}]}`,
			[]string{"changes[0].product_id: expected string, got 12"}},
		{"bool for a number", `{"region":"emea","changes":[{"product_id":"a","new_price":true}]}`,
			[]string{"changes[0].new_price: expected number, got true"}},
		{"object for a string", `{"region":{"a":1},"changes":[]}`,
			[]string{"region: expected string, got object"}},
		{"array for an object", `{"region":"emea","changes":[[1,2]]}`,
			[]string{"changes[0]: expected object, got array"}},
		{"long value truncated",
			`{"region":"emea","changes":[{"product_id":"a","new_price":"` + strings.Repeat("x", 50) + `"}]}`,
			[]string{`changes[0].new_price: expected number, got "` + strings.Repeat("x", 39) + `...`}},
		{"long number truncated",
			`{"region":"emea","changes":[{"product_id":` + strings.Repeat("9", 45) + `,"new_price":1}]}`,
			[]string{`changes[0].product_id: expected string, got ` + strings.Repeat("9", 40) + `...`}},
		{"bad enum", `{"region":"xx","changes":[]}`,
			[]string{`region: "xx" is not one of "emea", "amer", "apac"`}},
		{"bad enum reported once", `{"region":5,"changes":[]}`,
			[]string{`region: expected string, got 5`}},
		{"bad date-time", `{"region":"emea","changes":[{"product_id":"a","new_price":1,"effective_from":"yesterday"}]}`,
			[]string{`changes[0].effective_from: expected date-time (RFC 3339), got "yesterday"`}},
		{"every problem", `{"region":"xx","changes":[{"new_price":"abc"},{"product_id":"a","new_price":1,"colour":1}],"extra":1}`,
			[]string{
				`region: "xx" is not one of "emea", "amer", "apac"`,
				`changes[0].new_price: expected number, got "abc"`,
				`changes[0].product_id: required property is missing`,
				`changes[1].colour: unknown property; did you mean "color"?`,
				`extra: unknown property`,
			}},
		{"not an object", `[1]`, []string{"expected object, got array"}},
		{"not an array", `{"region":"emea","changes":"x"}`, []string{`changes: expected array, got "x"`}},
		{"25 problems", many.String(), manyWant},
		{"end of input", `{"region":"emea","changes":[`,
			[]string{"changes[0]: invalid JSON: unexpected end of input"}},
		{"bad character", `{"region":"emea","changes":[x]}`,
			[]string{"changes[0]: invalid JSON at offset 28: unexpected character 'x'"}},
		{"bad literal", `{"region":"emea","changes":[],"z":tru}`,
			[]string{"z: unknown property", "z: invalid JSON at offset 37: unexpected character '}'"}},
		{"control byte", "{\"region\":\"e\x01\",\"changes\":[]}",
			[]string{"region: invalid JSON at offset 12: unexpected byte 0x01"}},
		{"trailing comma", `{"region":"emea","changes":[],}`,
			[]string{"changes: invalid JSON at offset 30: unexpected character '}'"}},
		{"missing colon", `{"region" "emea"}`,
			[]string{"invalid JSON at offset 10: unexpected character '\"'"}},
		{"trailing garbage", `{"region":"emea","changes":[]} x`,
			[]string{"invalid JSON at offset 31: unexpected character 'x'"}},
		{"two values", `{"region":"emea","changes":[]}{}`,
			[]string{"invalid JSON at offset 30: unexpected character '{'"}},
		{"bad escape", `{"region":"\x","changes":[]}`,
			[]string{`region: invalid JSON at offset 12: unexpected character 'x'`}},
		{"bad number", `{"region":"emea","changes":[{"product_id":"a","new_price":01}]}`,
			[]string{"changes[0].new_price: invalid JSON at offset 59: unexpected character '1'"}},
		{"nothing after colon", `{"region":}`,
			[]string{"region: invalid JSON at offset 10: unexpected character '}'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeReference([]byte(tt.in))
			checkProblems(t, tt.in, err, tt.want)
		})
	}
}

func TestDecodeAbsentArguments(t *testing.T) {
	t.Parallel()
	want := []string{
		"region: required property is missing",
		"changes: required property is missing",
	}
	for _, in := range []string{"", "null", " null\n", "  ", "{}"} {
		_, err := decodeReference([]byte(in))
		checkProblems(t, in, err, want)
	}
	_, err := decodeReference(nil)
	checkProblems(t, "nil", err, want)
}

func TestArgumentErrorText(t *testing.T) {
	t.Parallel()
	err := &mcpimpl.ArgumentError{
		Problems: []mcpimpl.Problem{
			{Path: "", Message: "expected object, got array"},
			{Path: "changes[1].new_price", Message: `expected number, got "abc"`},
		},
		More: 5,
	}
	want := "invalid arguments:\nexpected object, got array\n" +
		"changes[1].new_price: expected number, got \"abc\"\nand 5 more problems"
	if got := err.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	err.More = 0
	if got, want := err.Error(), strings.TrimSuffix(want, "\nand 5 more problems"); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestDecodeNoProblemsIsNilError(t *testing.T) {
	t.Parallel()
	_, err := decodeReference(referenceArgs())
	if err != nil { // an interface holding a nil *ArgumentError is not nil
		t.Fatalf("Finish() = %#v, want nil", err)
	}
}

func TestDecoderReuse(t *testing.T) {
	t.Parallel()
	var d mcpimpl.Decoder
	d.Reset([]byte(`{"region":"xx","changes":[{"\u0070roduct_id":"a","new_price":1}]}`))
	var in priceInput
	decodePriceInput(&d, &in)
	first := d.Finish()
	d.Reset(referenceArgs())
	in = priceInput{}
	decodePriceInput(&d, &in)
	if err := d.Finish(); err != nil {
		t.Fatalf("second call: %v", err)
	}
	checkProblems(t, "first call", first, []string{`region: "xx" is not one of "emea", "amer", "apac"`})
}
