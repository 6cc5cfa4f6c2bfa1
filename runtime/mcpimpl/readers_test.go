package mcpimpl_test

import (
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// readCase decodes in as one top-level value with read and expects the
// value want and the problems (empty path: message alone).
type readCase struct {
	in   string
	want any
	prob []string
}

func runReads(t *testing.T, name string, read func(d *mcpimpl.Decoder) any, cases []readCase) {
	t.Helper()
	for _, tc := range cases {
		var d mcpimpl.Decoder
		d.Reset([]byte(tc.in))
		got := read(&d)
		err := d.Finish()
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s of %s = %#v, want %#v", name, short(tc.in), got, tc.want)
		}
		checkProblems(t, name+" of "+short(tc.in), err, tc.prob)
	}
}

func TestInt(t *testing.T) {
	t.Parallel()
	i8 := func(d *mcpimpl.Decoder) any { return d.Int(8) }
	runReads(t, "Int(8)", i8, []readCase{
		{`127`, int64(127), nil},
		{`-128`, int64(-128), nil},
		{`0`, int64(0), nil},
		{`-0`, int64(0), nil},
		{`2.0`, int64(2), nil},
		{`1e2`, int64(100), nil},
		{`0.5e1`, int64(5), nil},
		{`100e-2`, int64(1), nil},
		{`0.000e5`, int64(0), nil},
		{`"42"`, int64(42), nil},
		{`"-1e1"`, int64(-10), nil},
		{`"\u0034\u0032"`, int64(42), nil},
		{`300`, int64(0), []string{"300 is out of range for int8 (-128 to 127)"}},
		{`128`, int64(0), []string{"128 is out of range for int8 (-128 to 127)"}},
		{`-129`, int64(0), []string{"-129 is out of range for int8 (-128 to 127)"}},
		{`"300"`, int64(0), []string{"300 is out of range for int8 (-128 to 127)"}},
		{`1e400`, int64(0), []string{"1e400 is out of range for int8 (-128 to 127)"}},
		{`2.5`, int64(0), []string{"expected integer, got 2.5"}},
		{`1.5e-1`, int64(0), []string{"expected integer, got 1.5e-1"}},
		{`1e-400`, int64(0), []string{"expected integer, got 1e-400"}},
		{`"2.5"`, int64(0), []string{`expected integer, got "2.5"`}},
		{`" 42"`, int64(0), []string{`expected integer, got " 42"`}},
		{`"42 "`, int64(0), []string{`expected integer, got "42 "`}},
		{`"0x10"`, int64(0), []string{`expected integer, got "0x10"`}},
		{`"NaN"`, int64(0), []string{`expected integer, got "NaN"`}},
		{`"+1"`, int64(0), []string{`expected integer, got "+1"`}},
		{`""`, int64(0), []string{`expected integer, got ""`}},
		{`true`, int64(0), []string{"expected integer, got true"}},
		{`[1]`, int64(0), []string{"expected integer, got array"}},
	})
	i64 := func(d *mcpimpl.Decoder) any { return d.Int(64) }
	runReads(t, "Int(64)", i64, []readCase{
		{`9223372036854775807`, int64(9223372036854775807), nil},
		{`-9223372036854775808`, int64(-9223372036854775808), nil},
		{`9.223372036854775807e18`, int64(9223372036854775807), nil},
		{`9223372036854775808`, int64(0), []string{
			"9223372036854775808 is out of range for int64 (-9223372036854775808 to 9223372036854775807)"}},
		{`123456789012345678901234567890`, int64(0), []string{
			"123456789012345678901234567890 is out of range for int64 (-9223372036854775808 to 9223372036854775807)"}},
	})
	runReads(t, "Int(16)", func(d *mcpimpl.Decoder) any { return d.Int(16) }, []readCase{
		{`32768`, int64(0), []string{"32768 is out of range for int16 (-32768 to 32767)"}},
	})
	runReads(t, "Int(32)", func(d *mcpimpl.Decoder) any { return d.Int(32) }, []readCase{
		{`-2147483648`, int64(-2147483648), nil},
		{`2147483648`, int64(0), []string{"2147483648 is out of range for int32 (-2147483648 to 2147483647)"}},
	})
}

func TestUint(t *testing.T) {
	t.Parallel()
	runReads(t, "Uint(8)", func(d *mcpimpl.Decoder) any { return d.Uint(8) }, []readCase{
		{`255`, uint64(255), nil},
		{`-0`, uint64(0), nil},
		{`"7"`, uint64(7), nil},
		{`256`, uint64(0), []string{"256 is out of range for uint8 (0 to 255)"}},
		{`-1`, uint64(0), []string{"-1 is out of range for uint8 (0 to 255)"}},
		{`1.5`, uint64(0), []string{"expected integer, got 1.5"}},
		{`false`, uint64(0), []string{"expected integer, got false"}},
	})
	runReads(t, "Uint(64)", func(d *mcpimpl.Decoder) any { return d.Uint(64) }, []readCase{
		{`18446744073709551615`, uint64(18446744073709551615), nil},
		{`1.8446744073709551615e19`, uint64(18446744073709551615), nil},
		{`18446744073709551616`, uint64(0), []string{
			"18446744073709551616 is out of range for uint64 (0 to 18446744073709551615)"}},
		{`1e20`, uint64(0), []string{"1e20 is out of range for uint64 (0 to 18446744073709551615)"}},
	})
}

func TestFloat(t *testing.T) {
	t.Parallel()
	f64 := func(d *mcpimpl.Decoder) any { return d.Float(64) }
	runReads(t, "Float(64)", f64, []readCase{
		{`19.99`, 19.99, nil},
		{`-1e3`, -1000.0, nil},
		{`"2.5"`, 2.5, nil},
		{`"-1e3"`, -1000.0, nil},
		{`1e-400`, 0.0, nil},
		{`1e400`, 0.0, []string{"1e400 is out of range for float64"}},
		{`"abc"`, 0.0, []string{`expected number, got "abc"`}},
		{`"NaN"`, 0.0, []string{`expected number, got "NaN"`}},
		{`"Infinity"`, 0.0, []string{`expected number, got "Infinity"`}},
		{`" 1"`, 0.0, []string{`expected number, got " 1"`}},
		{`".5"`, 0.0, []string{`expected number, got ".5"`}},
		{`true`, 0.0, []string{"expected number, got true"}},
		{`{}`, 0.0, []string{"expected number, got object"}},
	})
	runReads(t, "Float(32)", func(d *mcpimpl.Decoder) any { return d.Float(32) }, []readCase{
		{`1.5`, 1.5, nil},
		{`3.4e38`, float64(float32(3.4e38)), nil},
		{`1e39`, 0.0, []string{"1e39 is out of range for float32"}},
	})
}

func TestBool(t *testing.T) {
	t.Parallel()
	runReads(t, "Bool", func(d *mcpimpl.Decoder) any { return d.Bool() }, []readCase{
		{`true`, true, nil},
		{`false`, false, nil},
		{`"true"`, true, nil},
		{`"false"`, false, nil},
		{`1`, false, []string{"expected boolean, got 1"}},
		{`"yes"`, false, []string{`expected boolean, got "yes"`}},
		{`"True"`, false, []string{`expected boolean, got "True"`}},
		{`[true]`, false, []string{"expected boolean, got array"}},
		{`trUe`, false, []string{"invalid JSON at offset 2: unexpected character 'U'"}},
	})
}

func TestString(t *testing.T) {
	t.Parallel()
	runReads(t, "String", func(d *mcpimpl.Decoder) any { return d.String() }, []readCase{
		{`"abc"`, "abc", nil},
		{`""`, "", nil},
		{`"a\"\\\/\b\f\n\r\t\u00e9\u20ac"`, "a\"\\/\b\f\n\r\t\u00e9\u20ac", nil},
		{`"\ud83d\ude00"`, "\U0001F600", nil},
		{`"héllo"`, "héllo", nil},
		{`12`, "", []string{"expected string, got 12"}},
		{`{"a":"b"}`, "", []string{"expected string, got object"}},
		{`[1]`, "", []string{"expected string, got array"}},
		{"\"a\xffb\"", "", []string{"string is not valid UTF-8"}},
		{`"\ud800"`, "", []string{"string holds an unpaired surrogate escape"}},
		{`"\ud800\u0041"`, "", []string{"string holds an unpaired surrogate escape"}},
		{`"\udc00\ud800"`, "", []string{"string holds an unpaired surrogate escape"}},
		{`"abc`, "", []string{"invalid JSON: unexpected end of input"}},
		{`"\u12"`, "", []string{"invalid JSON at offset 5: unexpected character '\"'"}},
		{"\"a\tb\"", "", []string{"invalid JSON at offset 2: unexpected byte 0x09"}},
	})
}

func TestTimeDurationBytes(t *testing.T) {
	t.Parallel()
	runReads(t, "Time", func(d *mcpimpl.Decoder) any { return d.Time() }, []readCase{
		{`"2026-01-01T00:00:00Z"`, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), nil},
		{`"2026-01-01T10:20:30.123456789Z"`, time.Date(2026, 1, 1, 10, 20, 30, 123456789, time.UTC), nil},
		{`"yesterday"`, time.Time{}, []string{`expected date-time (RFC 3339), got "yesterday"`}},
		{`"2026-01-01"`, time.Time{}, []string{`expected date-time (RFC 3339), got "2026-01-01"`}},
		{`"2026-01-01T00:00:00"`, time.Time{}, []string{`expected date-time (RFC 3339), got "2026-01-01T00:00:00"`}},
		{`5`, time.Time{}, []string{`expected date-time (RFC 3339), got 5`}},
	})
	const want = `expected duration (Go syntax such as "1h30m"), got `
	runReads(t, "Duration", func(d *mcpimpl.Decoder) any { return d.Duration() }, []readCase{
		{`"1h30m"`, 90 * time.Minute, nil},
		{`"-1.5s"`, -1500 * time.Millisecond, nil},
		{`"x"`, time.Duration(0), []string{want + `"x"`}},
		{`"90"`, time.Duration(0), []string{want + `"90"`}},
		{`90`, time.Duration(0), []string{want + `90`}},
	})
	runReads(t, "Bytes", func(d *mcpimpl.Decoder) any { return d.Bytes() }, []readCase{
		{`"aGVsbG8="`, []byte("hello"), nil},
		{`""`, []byte{}, nil},
		{`"aGVsbG8"`, []byte(nil), []string{`expected base64 string, got "aGVsbG8"`}},
		{`"!!"`, []byte(nil), []string{`expected base64 string, got "!!"`}},
		{`[1]`, []byte(nil), []string{`expected base64 string, got array`}},
	})
}

func TestRawAndAny(t *testing.T) {
	t.Parallel()
	runReads(t, "Raw", func(d *mcpimpl.Decoder) any { return string(d.Raw()) }, []readCase{
		{` { "a" : [1, 2, {"b c":" x "}], "d": null } `, `{"a":[1,2,{"b c":" x "}],"d":null}`, nil},
		{`"a\"b"`, `"a\"b"`, nil},
		{`[1,]`, "", []string{"invalid JSON at offset 3: unexpected character ']'"}},
		{"{\"a\":\"\xff\"}", "", []string{"value is not valid UTF-8"}},
		{"{\"\x83\":0}", "", []string{"value is not valid UTF-8"}},
	})
	runReads(t, "Any", func(d *mcpimpl.Decoder) any { return d.Any() }, []readCase{
		{`{"a":[1,"x",true,null,{}],"b":[]}`,
			map[string]any{"a": []any{1.0, "x", true, nil, map[string]any{}}, "b": []any{}}, nil},
		{`{"a":1,"a":2}`, map[string]any{"a": 2.0}, nil},
		{`{"a":[1e400]}`, map[string]any{"a": []any{0.0}}, []string{"a[0]: 1e400 is out of range for float64"}},
		{`{"a":[x]}`, map[string]any{"a": []any{0.0}}, []string{"a[0]: invalid JSON at offset 6: unexpected character 'x'"}},
	})
}

// TestKeysMustBeUTF8 checks that a key encoding/json would alter (invalid
// UTF-8 becomes U+FFFD, as does an unpaired surrogate escape) is a problem
// at its path, its value skipped, and that the keys after it are read.
func TestKeysMustBeUTF8(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		prob []string
	}{
		{"{\"labels\":{\"\x83\":\"0\",\"k\":\"v\"}}",
			[]string{`labels["\ufffd"]: property name is not valid UTF-8`}},
		{"{\"labels\":{\"a\xffb\":[1,{}],\"k\":\"v\"}}",
			[]string{`labels["a\ufffdb"]: property name is not valid UTF-8`}},
		{`{"labels":{"\ud800":"0","k":"v"}}`,
			[]string{"labels[\"\ufffd\"]: property name holds an unpaired surrogate escape"}},
		{`{"labels":{"x\udc00y":"0","k":"v"}}`,
			[]string{"labels[\"x\ufffdy\"]: property name holds an unpaired surrogate escape"}},
		{`{"labels":{"\u00e9\ud83d\ude00":"0","k":"v"}}`, nil},
		{`{"labels":{"é":"0","k":"v"}}`, nil},
	} {
		var d mcpimpl.Decoder
		d.Reset([]byte(tc.in))
		var keys []string
		if d.Object() {
			for d.NextField() {
				if d.Object() {
					for d.NextField() {
						keys = append(keys, string(d.Key()))
						d.Skip()
					}
				}
			}
		}
		checkProblems(t, tc.in, d.Finish(), tc.prob)
		if len(keys) == 0 || keys[len(keys)-1] != "k" {
			t.Errorf("decoding %q read keys %q, want the last to be \"k\"", tc.in, keys)
		}
		for _, k := range keys {
			if !utf8.ValidString(k) {
				t.Errorf("decoding %q returned the key %q, not valid UTF-8", tc.in, k)
			}
		}
	}
	var d mcpimpl.Decoder
	d.Reset([]byte("{\"\x83\":1}"))
	if got := d.Any(); !reflect.DeepEqual(got, map[string]any{}) {
		t.Errorf("Any kept a key that is not UTF-8: %#v", got)
	}
	checkProblems(t, "Any", d.Finish(), []string{`["\ufffd"]: property name is not valid UTF-8`})
}

func TestPathsAndExtras(t *testing.T) {
	t.Parallel()
	var d mcpimpl.Decoder
	d.Reset([]byte(`{"a":{"b c":[0,{"d":5}]}}`))
	var got []string
	if d.Object() {
		for d.NextField() { // a
			if d.Object() {
				for d.NextField() { // "b c"
					if d.Array() {
						for d.NextElem() {
							if d.Null() {
								continue
							}
							if d.Object() {
								for d.NextField() {
									if n := d.Int(64); n > 3 && !d.Failed() {
										d.Errorf("must be at most %d", 3)
									}
								}
								d.Missing("e")
								d.Missing("f g")
								continue
							}
						}
					}
				}
			}
		}
	}
	got = problemLines(t, d.Finish())
	want := []string{
		`a["b c"][0]: expected object, got 0`,
		`a["b c"][1].d: must be at most 3`,
		`a["b c"][1].e: required property is missing`,
		`a["b c"][1]["f g"]: required property is missing`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestUnreadValuesAreSkipped(t *testing.T) {
	t.Parallel()
	var d mcpimpl.Decoder
	d.Reset([]byte(`{"a":[1,2,{"x":[3]}],"b":"c"}`))
	var keys []string
	if d.Object() {
		for d.NextField() { // values left unread are skipped
			keys = append(keys, string(d.Key()))
		}
	}
	if err := d.Finish(); err != nil || !reflect.DeepEqual(keys, []string{"a", "b"}) {
		t.Errorf("keys %q, error %v", keys, err)
	}
	d.Reset([]byte(`{"a":[1,2,}`))
	if d.Object() {
		for d.NextField() {
		}
	}
	checkProblems(t, "unread bad value", d.Finish(),
		[]string{"a: invalid JSON at offset 10: unexpected character '}'"})
}

func TestMaxDepth(t *testing.T) {
	t.Parallel()
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	anyRead := func(d *mcpimpl.Decoder) any { d.Any(); return nil }
	skipRead := func(d *mcpimpl.Decoder) any { d.Skip(); return nil }
	rawRead := func(d *mcpimpl.Decoder) any { d.Raw(); return nil }
	for name, read := range map[string]func(*mcpimpl.Decoder) any{"Skip": skipRead, "Raw": rawRead} {
		runReads(t, name, read, []readCase{
			{deep(64), nil, nil},
			{deep(65), nil, []string{"nesting deeper than 64 levels"}},
			{deep(100000), nil, []string{"nesting deeper than 64 levels"}},
			{strings.Repeat(`{"a":`, 100000), nil, []string{"nesting deeper than 64 levels"}},
		})
	}
	// Any walks the value with Object and Array, so the path is known.
	at := strings.Repeat("[0]", 64) + ": nesting deeper than 64 levels"
	runReads(t, "Any", anyRead, []readCase{
		{deep(64), nil, nil},
		{deep(65), nil, []string{at}},
		{deep(100000), nil, []string{at}},
	})
	var d mcpimpl.Decoder
	d.MaxDepth = 2
	d.Reset([]byte(`{"region":"emea","changes":[{}]}`))
	var in priceInput
	decodePriceInput(&d, &in)
	checkProblems(t, "MaxDepth 2", d.Finish(), []string{"changes[0]: nesting deeper than 2 levels"})
	d.Reset([]byte(`{"region":"emea","changes":[],"x":[[1]]}`))
	decodePriceInput(&d, &in)
	checkProblems(t, "MaxDepth 2 skipped", d.Finish(),
		[]string{"x: unknown property", "x: nesting deeper than 2 levels"})
}

func TestQuote(t *testing.T) {
	t.Parallel()
	if got, want := jsonx.Quote("a\"<b>\n"), `"a\"\u003cb\u003e\n"`; got != want {
		t.Errorf("Quote = %s, want %s", got, want)
	}
}
