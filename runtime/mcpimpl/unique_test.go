package mcpimpl_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// uniqueItems is {"uniqueItems": true} compiled by an independent
// validator, the judge of what uniqueItems means.
func uniqueItems(t testing.TB) *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"uniqueItems":true}`))
	if err := c.AddResource("mem:///u.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///u.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkUniqueJSON runs CheckUniqueJSON over the array arr read with a
// Decoder, and reports whether it found the items unique.
func checkUniqueJSON(arr []byte) bool {
	var d mcpimpl.Decoder
	d.Reset(arr)
	if !d.Array() {
		return true
	}
	at := d.ValueStart()
	for d.NextElem() {
		d.Skip()
	}
	mcpimpl.CheckUniqueJSON(&d, struct{}{}, at)
	return d.Finish() == nil
}

// TestCheckUniqueJSONAgreesWithValidator compares items of every kind,
// each pair once as equal JSON values written differently and once as
// different values, with the validator's uniqueItems.
func TestCheckUniqueJSONAgreesWithValidator(t *testing.T) {
	t.Parallel()
	s := uniqueItems(t)
	for _, arr := range []string{
		`[]`, `[1]`, `[1, 1.0]`, `[1, 10e-1]`, `[0, -0]`, `[0.0, -0e5]`, `[1, 2]`, `[1.5, 15e-1]`, `[100, 1e2]`,
		`[1e400, 1e400]`, `[1e400, 10e399]`, `[1e-400, 2e-400]`, `[123456789012345678901234567890, 123456789012345678901234567891]`,
		`["a", "\u0061"]`, `["a", "b"]`, `["\ud83d\ude00", "😀"]`, `["1", 1]`, `[true, "true"]`, `[null, null]`, `[null, false]`,
		`[{"a":1,"b":2}, {"b":2,"a":1}]`, `[{"a":1}, {"a":1,"b":null}]`, `[{"a":[1,2]}, {"a":[2,1]}]`, `[{"a":1.0}, {"a":1}]`,
		`[[1,[2]], [1,[2.0]]]`, `[[1,2], [1,2,3]]`, `[{}, []]`, `[{}, {}]`, `[[], []]`, `[{"a":{"b":{"c":"d"}}}, {"a":{"b":{"c":"e"}}}]`,
		`[{"x":1,"x":2}, {"x":2}]`, `[{"\u0061":1}, {"a":1}]`, ` [ {"a" : 1} ,{ "a":1 } ] `, `[1, true, "1", null, [1], {"1":1}]`,
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(arr))
		if err != nil {
			t.Fatal(err)
		}
		want := s.Validate(doc) == nil
		if got := checkUniqueJSON([]byte(arr)); got != want {
			t.Errorf("%s: unique %v, the validator says %v", arr, got, want)
		}
	}
}

// FuzzCheckUniqueJSON holds CheckUniqueJSON to the validator's
// uniqueItems for arrays of any JSON values.
func FuzzCheckUniqueJSON(f *testing.F) {
	for _, s := range []string{`[{"a":1,"b":[1.0]},{"b":[1],"a":1}]`, `[1,1e0,"1"]`, `[[],{},null]`, `["\u00e9","é"]`} {
		f.Add([]byte(s))
	}
	s := uniqueItems(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) {
			return // not an array
		}
		var d mcpimpl.Decoder
		d.Reset(data)
		if d.Skip(); d.Finish() != nil {
			return // not JSON the decoder takes
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		if got, want := checkUniqueJSON(data), s.Validate(doc) == nil; got != want {
			t.Fatalf("%s: unique %v, the validator says %v", data, got, want)
		}
	})
}

// TestCheckUniqueJSONAfterCoercion compares a string the decoder read as
// a number or a boolean as what it was read as.
func TestCheckUniqueJSONAfterCoercion(t *testing.T) {
	t.Parallel()
	for arr, want := range map[string]bool{
		`[[1],["1"]]`: false, `[[1],["2"]]`: true, `[[true],["true"]]`: false, `[[1],["1.0"]]`: false,
	} {
		var d mcpimpl.Decoder
		d.Reset([]byte(arr))
		if d.Array() {
			at := d.ValueStart()
			for d.NextElem() {
				if d.Array() {
					for d.NextElem() {
						if strings.Contains(arr, "true") {
							d.Bool()
						} else {
							d.Int(64)
						}
					}
				}
			}
			mcpimpl.CheckUniqueJSON(&d, struct{}{}, at)
		}
		if got := d.Finish() == nil; got != want {
			t.Errorf("%s: unique %v, want %v", arr, got, want)
		}
	}
}
