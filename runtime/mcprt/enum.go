package mcprt

import "strings"

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
		quoted[i] = string(AppendString(nil, a))
	}
	d.failed = true
	d.report("", Quote(string(body))+" is not one of "+strings.Join(quoted, ", "))
	return ""
}
