package mcpimpl

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Encoder collects the JSON of a result as generated encoders write it,
// byte for byte as encoding/json would, without reflection. The
// deliberate differences: a time.Duration is written as its Go string
// ("1h30m0s"), as the published schema says, where encoding/json writes
// nanoseconds; and a nil slice, map or []byte is written [], {} or "", as
// encoding/json/v2 writes them, where encoding/json writes null, so that
// output schemas need not allow null for them. Values that encode
// themselves (MarshalJSON, MarshalText) and values of type any go through
// encoding/json, which calls their methods; that is the only reflection
// on the result path.
type Encoder struct {
	B   []byte // the JSON written so far
	err error
}

// Float writes f (of a float type of bits bits). NaN and infinities are not
// JSON: they fail the encoding with encoding/json's error.
func (e *Encoder) Float(f float64, bits int) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.fail(fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, bits)))
		e.B = append(e.B, "null"...)
		return
	}
	e.B = jsonx.AppendFloat(e.B, f, bits)
}

// Time writes t as encoding/json does: RFC 3339 with nanoseconds. A year
// outside 0 to 9999 fails as it fails there.
func (e *Encoder) Time(t time.Time) {
	if y := t.Year(); y < 0 || y > 9999 {
		e.fail(fmt.Errorf("json: error calling MarshalJSON for type time.Time: Time.MarshalJSON: year outside of range [0,9999]"))
		e.B = append(e.B, "null"...)
		return
	}
	e.B = jsonx.AppendTime(e.B, t)
}

// Duration writes d as its Go string.
func (e *Encoder) Duration(d time.Duration) { e.B = jsonx.AppendString(e.B, d.String()) }

// Bytes writes b as a base64 string; nil is "", as encoding/json/v2
// writes it.
func (e *Encoder) Bytes(b []byte) {
	e.B = append(e.B, '"')
	e.B = base64.StdEncoding.AppendEncode(e.B, b)
	e.B = append(e.B, '"')
}

// RawJSON writes a json.RawMessage compacted, or null when it is nil, as
// encoding/json does; invalid JSON fails the encoding.
func (e *Encoder) RawJSON(raw []byte) {
	if raw == nil {
		e.B = append(e.B, "null"...)
		return
	}
	e.Marshal(json.RawMessage(raw))
}

// Marshal writes v with encoding/json. Generated encoders use it for any
// and for types with their own marshalling methods (given a pointer, so
// methods with pointer receivers are found as encoding/json finds them).
func (e *Encoder) Marshal(v any) {
	js, err := json.Marshal(v)
	if err != nil {
		e.fail(err)
		js = []byte("null")
	}
	e.B = append(e.B, js...)
}

func (e *Encoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// Err returns the first error of the encoding, or nil.
func (e *Encoder) Err() error { return e.err }

// Structured returns the result of a structured tool: the JSON as
// structuredContent and as the text block, or a failed result.
func (e *Encoder) Structured() mcprt.Result {
	if e.err != nil {
		return CallError(fmt.Errorf("encoding the result: %w", e.err))
	}
	return mcprt.StructuredResult(e.B)
}

// StructuredValue returns the result of a tool whose result is a JSON
// value other than an object: the value as structured content (wrapped for
// revisions before 2026-07-28, see mcprt.Result.WrapStructured) and as text.
func (e *Encoder) StructuredValue() mcprt.Result {
	r := e.Structured()
	r.WrapStructured = !r.IsError
	return r
}

// WithText returns r with text as its text block, for a tool returning
// mcprt.Structured: r as it is when text is empty or r failed, so that an
// encoding error is still what the model reads.
func WithText(r mcprt.Result, text string) mcprt.Result {
	if text == "" || r.IsError {
		return r
	}
	r.Content = []mcprt.Content{mcprt.Text(text)}
	return r
}

// Text returns the JSON as a single text block, or a failed result.
func (e *Encoder) Text() mcprt.Result {
	if e.err != nil {
		return CallError(fmt.Errorf("encoding the result: %w", e.err))
	}
	return mcprt.TextResult(string(e.B))
}

// SortedKeys returns m's keys in the order encoding/json writes them. The
// keys may be of any string type, as encoding/json takes them.
func SortedKeys[M ~map[K]E, K ~string, E any](m M) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// IsZeroValue reports whether v is zero as the json option omitzero sees
// it: through an IsZero method when v has one, else the zero value of its
// type. Generated encoders use it only for values they cannot compare.
func IsZeroValue(v any) bool {
	if z, ok := v.(interface{ IsZero() bool }); ok {
		return z.IsZero()
	}
	return v == nil || reflect.ValueOf(v).IsZero()
}

// IsEmptyValue reports whether v is empty as the json option omitempty
// sees it: false, 0, "", nil, or of length 0.
func IsEmptyValue(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return rv.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return rv.IsZero()
	}
	return false
}
