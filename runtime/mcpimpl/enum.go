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
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = string(jsonx.AppendString(nil, a))
	}
	d.failed = true
	d.report("", jsonx.Quote(string(body))+" is not one of "+strings.Join(quoted, ", "))
	return ""
}
