package mcpimpl_test

import (
	"regexp"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// checkOne decodes the single property "x" of input with read, which
// reads and checks its value, and returns the problems found.
func checkOne(t *testing.T, input string, read func(d *mcpimpl.Decoder)) []string {
	t.Helper()
	var d mcpimpl.Decoder
	d.Reset([]byte(input))
	if d.Object() {
		for d.NextField() {
			read(&d)
		}
	}
	return problemLines(t, d.Finish())
}

func sameLines(t *testing.T, input string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: got problems %q, want %q", input, got, want)
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: got problems %q, want %q", input, got, want)
			return
		}
	}
}

type level int

func TestCheckBounds(t *testing.T) {
	t.Parallel()
	inclusive := &mcpimpl.Bounds{Min: 0, MinText: "0", Max: 1e3, MaxText: "1e3"}
	exclusive := &mcpimpl.Bounds{Min: -10, MinText: "-10", ExclusiveMin: true, Max: 2.5, MaxText: "2.5", ExclusiveMax: true}
	multiple := &mcpimpl.Bounds{MultipleOf: 0.1, MultipleOfText: "0.1"}
	for _, tc := range []struct {
		input string
		read  func(d *mcpimpl.Decoder)
		want  []string
	}{
		{`{"x":0}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckBounds(d, int(d.Int(64)), inclusive) }, nil},
		{`{"x":1000}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckBounds(d, int(d.Int(64)), inclusive) }, nil},
		{`{"x":-1}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckBounds(d, int(d.Int(64)), inclusive) },
			[]string{"x: -1 is less than the minimum 0"}},
		{`{"x":1001}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckBounds(d, level(d.Int(64)), inclusive) },
			[]string{"x: 1001 is greater than the maximum 1e3"}},
		{`{"x":-10}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckBounds(d, int8(d.Int(8)), exclusive) },
			[]string{"x: -10 is not greater than the exclusive minimum -10"}},
		{`{"x":2.5}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckBounds(d, float32(d.Float(32)), exclusive) },
			[]string{"x: 2.5 is not less than the exclusive maximum 2.5"}},
		{`{"x":2.4}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckBounds(d, d.Float(64), exclusive) }, nil},
		{`{"x":0.3}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckBounds(d, d.Float(64), multiple) }, nil},
		{`{"x":0.35}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckBounds(d, d.Float(64), multiple) },
			[]string{"x: 0.35 is not a multiple of 0.1"}},
		{`{"x":"abc"}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckBounds(d, uint16(d.Uint(16)), inclusive) },
			[]string{`x: expected integer, got "abc"`}},
	} {
		sameLines(t, tc.input, checkOne(t, tc.input, tc.read), tc.want)
	}
}

func TestCheckBoundsReturnsValue(t *testing.T) {
	t.Parallel()
	var d mcpimpl.Decoder
	d.Reset([]byte(`7`))
	if got := mcpimpl.CheckBounds(&d, level(d.Int(64)), &mcpimpl.Bounds{Max: 5, MaxText: "5"}); got != 7 {
		t.Errorf("CheckBounds returned %d, want 7", got)
	}
}

type name string

func TestCheckStrings(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^[a-z]+$`)
	for _, tc := range []struct {
		input string
		read  func(d *mcpimpl.Decoder)
		want  []string
	}{
		{`{"x":"héllo"}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckLength(d, d.String(), 5, 5) }, nil},
		{`{"x":"é"}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckLength(d, d.String(), 2, -1) },
			[]string{"x: 1 characters, fewer than the minimum length 2"}},
		{`{"x":"abcdef"}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckLength(d, name(d.String()), 0, 5) },
			[]string{"x: 6 characters, more than the maximum length 5"}},
		{`{"x":""}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckLength(d, d.String(), 0, -1) }, nil},
		{`{"x":"ab1"}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckPattern(d, d.String(), re) },
			[]string{`x: "ab1" does not match the pattern ^[a-z]+$`}},
		{`{"x":"no-mail"}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckFormatOf(d, name(d.String()), "email") },
			[]string{`x: "no-mail" is not a valid email`}},
		{`{"x":"a@b.example"}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckFormatOf(d, d.String(), "email") }, nil},
		// Checks run in the order they are nested, each one reporting.
		{`{"x":"A"}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckPattern(d, mcpimpl.CheckLength(d, d.String(), 2, 5), re) },
			[]string{"x: 1 characters, fewer than the minimum length 2", `x: "A" does not match the pattern ^[a-z]+$`}},
		// A value that failed to read is not checked.
		{`{"x":5}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckPattern(d, mcpimpl.CheckLength(d, d.String(), 2, 5), re) },
			[]string{"x: expected string, got 5"}},
		{`{"x":5}`, func(d *mcpimpl.Decoder) { mcpimpl.CheckFormatOf(d, d.String(), "uuid") },
			[]string{"x: expected string, got 5"}},
	} {
		sameLines(t, tc.input, checkOne(t, tc.input, tc.read), tc.want)
	}
}

// readInts reads an array of integers as generated decoders do, and
// returns it with the array's offset.
func readInts(d *mcpimpl.Decoder) ([]int, int) {
	var s []int
	at := -1
	if d.Array() {
		at = d.ValueStart()
		for d.NextElem() {
			s = mcpimpl.Grow(d, s)
			s[len(s)-1] = int(d.Int(64))
		}
	}
	return s, at
}

func TestCheckItems(t *testing.T) {
	t.Parallel()
	items := func(min, max int) func(d *mcpimpl.Decoder) {
		return func(d *mcpimpl.Decoder) {
			s, _ := readInts(d)
			mcpimpl.CheckItems(d, s, min, max)
		}
	}
	unique := func(d *mcpimpl.Decoder) {
		s, at := readInts(d)
		mcpimpl.CheckUnique(d, mcpimpl.CheckItems(d, s, 0, 3), at)
	}
	for _, tc := range []struct {
		input string
		read  func(d *mcpimpl.Decoder)
		want  []string
	}{
		{`{"x":[1,2]}`, items(1, 2), nil},
		{`{"x":[]}`, items(1, -1), []string{"x: 0 items, fewer than the minimum 1"}},
		{`{"x":[1]}`, items(2, -1), []string{"x: 1 item, fewer than the minimum 2"}},
		{`{"x":[1,2,3]}`, items(0, 2), []string{"x: 3 items, more than the maximum 2"}},
		{`{"x":[1,2,1]}`, unique, []string{"x: items are not unique"}},
		{`{"x":[1,2,3]}`, unique, nil},
		// The count of an array applies even when its last item had a
		// problem.
		{`{"x":[1,"a"]}`, items(3, -1),
			[]string{`x[1]: expected integer, got "a"`, "x: 2 items, fewer than the minimum 3"}},
		// A problem before the array changes none of its checks: each
		// item is counted and compared.
		{`{"a":"x","x":[1,2]}`, items(2, 3), []string{`a: expected integer, got "x"`}},
		{`{"a":"x","x":[1,2,3,4]}`, items(2, 3),
			[]string{`a: expected integer, got "x"`, "x: 4 items, more than the maximum 3"}},
		{`{"a":"x","x":[1,1]}`, unique, []string{`a: expected integer, got "x"`, "x: items are not unique"}},
		{`{"a":"x","x":[0,0]}`, unique, []string{`a: expected integer, got "x"`, "x: items are not unique"}},
		{`{"a":"x","x":[0,-0.0]}`, unique, []string{`a: expected integer, got "x"`, "x: items are not unique"}},
		// An item that failed to read is no repeat of a zero.
		{`{"x":[0,"a"]}`, unique, []string{`x[1]: expected integer, got "a"`}},
		{`{"x":["a",true]}`, unique, []string{`x[0]: expected integer, got "a"`, "x[1]: expected integer, got true"}},
		{`{"x":[0,"a",0]}`, unique, []string{`x[1]: expected integer, got "a"`, "x: items are not unique"}},
		{`{"x":[5,"a",5]}`, unique, []string{`x[1]: expected integer, got "a"`, "x: items are not unique"}},
		{`{"x":[1e300,1e300]}`, unique,
			[]string{"x[0]: 1e300 is out of range for int64 (-9223372036854775808 to 9223372036854775807)",
				"x[1]: 1e300 is out of range for int64 (-9223372036854775808 to 9223372036854775807)",
				"x: items are not unique"}},
	} {
		read := func(d *mcpimpl.Decoder) {
			if string(d.Key()) == "a" {
				d.Int(64)
				return
			}
			tc.read(d)
		}
		sameLines(t, tc.input, checkOne(t, tc.input, read), tc.want)
	}
}

func TestRequire(t *testing.T) {
	t.Parallel()
	names := []string{"a", "b", "c", "d"}
	for _, tc := range []struct {
		input string
		want  []string
	}{
		{`{"a":1,"c":1,"d":1}`, nil},
		{`{"d":1}`, []string{"a: required property is missing", "c: required property is missing"}},
		{`{"b":1,"a":1}`, []string{"c: required property is missing"}},
	} {
		var d mcpimpl.Decoder
		d.Reset([]byte(tc.input))
		var seen [4]bool
		if d.Object() {
			for d.NextField() {
				for i, n := range names {
					if n == string(d.Key()) {
						seen[i] = true
					}
				}
				d.Skip()
			}
			d.Require(seen[:], names, 0, 2)
		}
		sameLines(t, tc.input, problemLines(t, d.Finish()), tc.want)
	}
}
