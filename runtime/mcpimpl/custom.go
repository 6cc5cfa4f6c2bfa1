package mcpimpl

import (
	"encoding"
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// Unmarshal reads any JSON value for a type with JSON methods of its own
// and hands the value's text to v: to v's UnmarshalJSON when it has one,
// else to encoding/json. This is the one place where decoding may use
// reflection: a type that only has MarshalJSON is decoded as encoding/json
// decodes it, since nothing else knows what its methods expect. A problem
// v reports is recorded at the current path.
func (d *Decoder) Unmarshal(v any) {
	raw := d.Raw()
	if d.Failed() {
		return
	}
	d.unmarshal(raw, v)
}

// UnmarshalString is Unmarshal for a type whose values are declared to be
// strings (its field's tag gives a format): a value that is not a string
// is a problem, and so is one not in format (see ValidFormat).
func (d *Decoder) UnmarshalString(v any, format string) {
	c, ok := d.value()
	if !ok {
		return
	}
	if c != '"' {
		d.wrongKind("string")
		return
	}
	start := d.start
	s := d.String()
	if d.Failed() {
		return
	}
	raw := d.data[start:d.pos]
	if format != "" && !ValidFormat(format, s) {
		d.CheckFormat(format, s)
		return
	}
	d.unmarshal(raw, v)
}

func (d *Decoder) unmarshal(raw []byte, v any) {
	var err error
	if u, ok := v.(json.Unmarshaler); ok {
		err = u.UnmarshalJSON(raw)
	} else {
		err = json.Unmarshal(raw, v)
	}
	if err != nil {
		d.failed = true
		d.report("", err.Error())
	}
}

// UnmarshalText hands s, a string already read and checked, to u's
// UnmarshalText, unless the value read last had a problem. A problem u
// reports is recorded at the current path.
func (d *Decoder) UnmarshalText(u encoding.TextUnmarshaler, s string) {
	if d.Failed() {
		return
	}
	if err := u.UnmarshalText([]byte(s)); err != nil {
		d.failed = true
		d.report("", jsonx.Quote(s)+": "+err.Error())
	}
}

// Unique reports whether the items of s are pairwise different, as the
// uniqueItems keyword of JSON Schema wants.
func Unique[T comparable](s []T) bool {
	if len(s) < 2 {
		return true
	}
	seen := make(map[T]struct{}, len(s))
	for _, v := range s {
		if _, dup := seen[v]; dup {
			return false
		}
		seen[v] = struct{}{}
	}
	return true
}
