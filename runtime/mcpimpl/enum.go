package mcpimpl

import (
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// Enum reads a JSON string that must be one of allowed, and returns the
// allowed string itself: a valid value costs no allocation. Any other
// string is recorded as `"x" is not one of "a", "b"` and "" is returned.
func (d *Decoder) Enum(allowed []string) string {
	body, ok := d.stringBody("string")
	if !ok {
		return ""
	}
	for _, a := range allowed {
		if string(body) == a {
			return a
		}
	}
	d.failed = true
	d.report("", jsonx.Quote(string(body))+" is not one of "+quoteAll(allowed))
	return ""
}

// KeyIn reports whether the key of the current property is one of
// allowed: a map whose keys are of a type with constants takes only them.
// Any other key is recorded at the property's path as `property name "x"
// is not one of "a", "b"`, and its value is skipped.
func (d *Decoder) KeyIn(allowed []string) bool {
	for _, a := range allowed {
		if string(d.key) == a {
			return true
		}
	}
	if !d.stopped {
		d.report("", "property name "+jsonx.Quote(string(d.key))+" is not one of "+quoteAll(allowed))
	}
	d.Skip()
	return false
}

// quoteAll writes strings, whole, as a JSON list without brackets: "a", "b".
func quoteAll(ss []string) string {
	quoted := make([]string, len(ss))
	for i, s := range ss {
		quoted[i] = string(jsonx.AppendString(nil, s))
	}
	return strings.Join(quoted, ", ")
}
