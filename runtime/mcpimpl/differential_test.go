package mcpimpl_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// These tests hold the encoders and readers to encoding/json, the
// behaviour generated code must reproduce.

// testStrings returns fixed tricky strings plus random ones over an
// alphabet rich in bytes that need escaping.
func testStrings() []string {
	s := []string{
		"", "plain", `quote " backslash \ slash /`, "<script>&amp;</script>",
		"\x00\x01\x1f\x7f", "\b\f\n\r\t", "\u2028\u2029", "é€😀", "\xff", "a\xc3",
		"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\ufffd", "a\u2027b\u202a",
	}
	alphabet := []string{"a", "\"", "\\", "<", ">", "&", "\x00", "\x1f", "\n", "é", "\u2028",
		"\u2029", "😀", "\xff", "\xe2\x80", "\x80", " ", "\x7f"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s = append(s, b.String())
	}
	return s
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range testStrings() {
		want, _ := json.Marshal(s)
		if got := jsonx.AppendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got[1:], want)
		}
		if got := jsonx.Quote(s); got != string(want) {
			t.Errorf("Quote(%q) = %s, want %s", s, got, want)
		}
	}
}

func testFloats() []float64 {
	f := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 19.99, 1e20, 1e21, -1e21, 1e-6, 1e-7,
		-1e-7, 123456789, 1.5e300, 5e-324, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, 1e-5, 999999999999999999999.0, 100000000000000000000.0,
		float64(float32(1e-6)), float64(float32(1e21)), float64(math.MaxFloat32),
		float64(float32(0.1)), float64(float32(3.4e38)), float64(math.Nextafter32(1e-6, 0))}
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		f = append(f, math.Float64frombits(r.Uint64()), r.NormFloat64()*math.Pow(10, float64(r.IntN(60)-30)))
	}
	var out []float64
	for _, x := range f {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, x)
		}
	}
	return out
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, f := range testFloats() {
		want, _ := json.Marshal(f)
		if got := jsonx.AppendFloat(nil, f, 64); string(got) != string(want) {
			t.Errorf("AppendFloat(%v, 64) = %s, want %s", f, got, want)
		}
		f32 := float32(f)
		if math.IsInf(float64(f32), 0) {
			continue
		}
		want, _ = json.Marshal(f32)
		if got := jsonx.AppendFloat([]byte("["), float64(f32), 32); string(got) != "["+string(want) {
			t.Errorf("AppendFloat(%v, 32) = %s, want %s", f32, got[1:], want)
		}
	}
}

func TestAppendScalarsMatchEncodingJSON(t *testing.T) {
	t.Parallel()
	check := func(got []byte, v any) {
		t.Helper()
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("for %v got %s, want %s", v, got, want)
		}
	}
	for _, i := range []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 42} {
		check(jsonx.AppendInt(nil, i), i)
	}
	for _, u := range []uint64{0, 1, math.MaxUint64} {
		check(jsonx.AppendUint(nil, u), u)
	}
	check(jsonx.AppendBool(nil, true), true)
	check(jsonx.AppendBool(nil, false), false)
	zones := []*time.Location{time.UTC, time.FixedZone("x", -(3*3600 + 30*60)), time.FixedZone("y", 5*3600)}
	for i, ns := range []int{0, 1, 120000000, 123456789, 999999999} {
		tm := time.Date(2026, 1, 2, 3, 4, 5, ns, zones[i%len(zones)])
		check(jsonx.AppendTime(nil, tm), tm)
	}
	check(jsonx.AppendTime(nil, time.Time{}), time.Time{})
}

// validDocuments are JSON texts that encoding/json accepts, for comparing
// what the readers return with what it decodes.
var validDocuments = []string{
	`null`, `true`, `false`, `0`, `-0`, `-0.0`, `1e2`, `1E-2`, `19.99`, `-123.456e+7`,
	`1.7976931348623157e308`, `5e-324`, `123456789012345678901234567890`, `0.1`,
	`""`, `"abc"`, `"a\"\\\/\b\f\n\r\t"`, `"\u00e9\u20AC\ud83d\ude00"`, `"<&>"`,
	`"é€😀"`, `"\u0000"`, `"\u2028"`, `[]`, `{}`, `[1,"a",null,true,[],{}]`,
	` { "a" : 1 , "b" : [ 2 , 3 ] , "c" : { "d" : "e" } } `,
	`{"a":1,"a":2}`, `{"\u0061":1,"a\nb":[{"x":[[[]]]}]}`,
	"[\n\t1 ,\r\n 2 ]",
}

func TestReadersMatchEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, doc := range validDocuments {
		// Any
		var want any
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatalf("encoding/json rejects %s: %v", doc, err)
		}
		var d mcpimpl.Decoder
		d.Reset([]byte("[" + doc + "]")) // brackets keep null from meaning {}
		var got any
		if d.Array() && d.NextElem() {
			got = d.Any()
			d.NextElem() // consumes ']'
		}
		if err := d.Finish(); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Any of %s = %#v (%v), want %#v", doc, got, err, want)
		}
		// Raw
		var compact bytes.Buffer
		json.Compact(&compact, []byte(doc))
		d.Reset([]byte("[" + doc + "]"))
		var raw []byte
		if d.Array() && d.NextElem() {
			raw = d.Raw()
			d.NextElem()
		}
		if err := d.Finish(); err != nil || string(raw) != compact.String() {
			t.Errorf("Raw of %s = %s (%v), want %s", doc, raw, err, compact.String())
		}
		// String and Float, where encoding/json decodes that type.
		var s string
		if json.Unmarshal([]byte(doc), &s) == nil && doc != "null" {
			d.Reset([]byte(doc))
			if got := d.String(); got != s || d.Finish() != nil {
				t.Errorf("String of %s = %q, want %q", doc, got, s)
			}
		}
		var f float64
		if json.Unmarshal([]byte(doc), &f) == nil && doc != "null" {
			d.Reset([]byte(doc))
			if got := d.Float(64); got != f || math.Signbit(got) != math.Signbit(f) || d.Finish() != nil {
				t.Errorf("Float of %s = %v, want %v", doc, got, f)
			}
		}
	}
}

func TestFloatReadsWhatAppendFloatWrites(t *testing.T) {
	t.Parallel()
	var d mcpimpl.Decoder
	for _, f := range testFloats() {
		text := jsonx.AppendFloat(nil, f, 64)
		var want float64
		if err := json.Unmarshal(text, &want); err != nil {
			t.Fatal(err)
		}
		d.Reset(text)
		if got := d.Float(64); got != want || d.Finish() != nil {
			t.Errorf("Float(%s) = %v, want %v", text, got, want)
		}
	}
}

func TestStringReadsWhatAppendStringWrites(t *testing.T) {
	t.Parallel()
	var d mcpimpl.Decoder
	for _, s := range testStrings() {
		text := jsonx.AppendString(nil, s)
		var want string
		if err := json.Unmarshal(text, &want); err != nil {
			t.Fatal(err)
		}
		d.Reset(text)
		if got := d.String(); got != want || d.Finish() != nil {
			t.Errorf("String(%s) = %q, want %q", text, got, want)
		}
	}
}
