package difftest

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// reference is how the generated encoder writes a value: as encoding/json
// does, but for a nil slice, map or []byte, which it writes as
// encoding/json/v2 does ([], {} and "" where encoding/json writes null).
var reference = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv2.FormatNilSliceAsNull(false), jsonv2.FormatNilMapAsNull(false))

// encodeBoth encodes r with the generated encoder and with the reference.
func encodeBoth(r *Report) (ours, theirs []byte, oursErr, theirsErr error) {
	var enc mcpimpl.Encoder
	mcpgen_encode_Report(&enc, r)
	theirs, theirsErr = jsonv2.Marshal(r, reference)
	return enc.B, theirs, enc.Err(), theirsErr
}

func compareEncodings(t *testing.T, r *Report) {
	t.Helper()
	ours, theirs, oursErr, theirsErr := encodeBoth(r)
	if (oursErr != nil) != (theirsErr != nil) {
		t.Fatalf("errors differ: generated %v, reference %v", oursErr, theirsErr)
	}
	if theirsErr == nil && string(ours) != string(theirs) {
		t.Fatalf("generated encoder differs from the reference:\n got %s\nwant %s", ours, theirs)
	}
}

func TestEncoderMatchesEncodingJSON(t *testing.T) {
	when := time.Date(2026, 1, 2, 15, 4, 5, 123456789, time.FixedZone("x", 3600))
	full := &Report{
		Common: Common{ID: "r-1"}, Extra: &Extra{Note: "<b>&</b>"},
		Name: "naïve \u2028 \"quoted\"\n", Count: -9007199254740993, Small: -128, U: 7,
		F32: 0.1, F64: 1e21, OK: true, When: when, Maybe: &when, Later: when,
		Blob: []byte{0, 1, 254, 255}, Raw: json.RawMessage(` { "a" : [1, 2] } `),
		Any: map[string]any{"z": 1.5, "a": []any{"x", nil, true}}, Tags: []string{},
		Pair: [2]int{1, -1}, Labels: map[string]int{"b": 2, "a": 1, "é": 3},
		Items: []Item{{SKU: "s", Qty: 0, Tax: 1e-7}}, Next: &Report{Name: "inner"},
		Level: High, Odd: "&", Sets: map[string][]string{"k": nil},
	}
	full.Inline.A = 3
	cases := map[string]*Report{
		"zero":        {},
		"full":        full,
		"float32 max": {F32: math.MaxFloat32, F64: math.SmallestNonzeroFloat64},
		"NaN":         {F64: math.NaN()},
		"infinity":    {F32: float32(math.Inf(-1))},
		"bad raw":     {Raw: json.RawMessage(`{`)},
		"year 10000":  {When: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) { compareEncodings(t, r) })
	}
}

func TestDurationEncodesAsItsString(t *testing.T) {
	var enc mcpimpl.Encoder
	enc.Duration(90 * time.Minute)
	if got := string(enc.B); got != `"1h30m0s"` {
		t.Errorf("Duration = %s, want \"1h30m0s\", the form the schema publishes", got)
	}
}

// FuzzEncode decodes arbitrary JSON into a Report with encoding/json and
// checks the generated encoder writes exactly what the reference writes.
func FuzzEncode(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"name":"<a>","labels":{"b":1,"a":2},"tags":null,"items":[{"sku":"x","tax":0.5}]}`,
		`{"id":"i","note":"n","f32":3.4e38,"f64":-0,"when":"2026-01-02T15:04:05.5+01:00","blob":"AAE=","any":[1,{"b":[]}]}`,
		`{"next":{"next":{"name":"deep"}},"raw":[1, 2 ,3],"pair":[5],"level":2,"<odd>&key":"\u2029"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Report
		if json.Unmarshal(data, &r) != nil {
			return
		}
		compareEncodings(t, &r)
	})
}

// TestNilIsEmpty checks that a nil slice, map or []byte is written as an
// empty one, as the output schema, which allows no null for them, says;
// a nil pointer stays null.
func TestNilIsEmpty(t *testing.T) {
	t.Parallel()
	var enc mcpimpl.Encoder
	mcpgen_encode_Report(&enc, &Report{Sets: map[string][]string{"k": nil}})
	got := string(enc.B)
	for _, want := range []string{`"tags":[]`, `"labels":{}`, `"blob":""`, `"sets":{"k":[]}`, `"any":null`} {
		if !strings.Contains(got, want) {
			t.Errorf("a Report with nil values encodes as %s: want %s", got, want)
		}
	}
}
