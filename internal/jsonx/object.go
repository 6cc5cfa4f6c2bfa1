package jsonx

// MaxNesting bounds how deeply objects and arrays may nest, as
// encoding/json bounds them.
const MaxNesting = 10000

// Members walks the JSON object b, calling member for each member in
// order with its key as written (quotes and escapes included), the key's
// text and its value. It reports whether b, white space around it
// included, is one well-formed object; notObject is true when b is valid
// JSON of another kind. member is called only for members whose syntax was
// checked, so a malformed object may have had some members seen.
//
// It is the one walker of JSON objects of the servers and the wire
// helpers: the message scanner of the built-in server reads requests'
// envelopes with it, and the schema wrapper splits schemas with it.
func Members(b []byte, member func(key, name, value []byte)) (ok, notObject bool) {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		if i >= len(b) {
			return false, false
		}
		end, bad := ValueEnd(b, i, MaxNesting)
		return false, bad == -1 && SkipSpace(b, end) == len(b)
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return SkipSpace(b, i+1) == len(b), false
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false, false
		}
		end, escaped, _, bad := StringEnd(b, i)
		if bad >= 0 {
			return false, false
		}
		key, name := b[i:end], b[i+1:end-1]
		if escaped {
			name, _ = Unescape(make([]byte, 0, len(name)), name)
		}
		if i = SkipSpace(b, end); i >= len(b) || b[i] != ':' {
			return false, false
		}
		start := SkipSpace(b, i+1)
		if end, bad = ValueEnd(b, start, MaxNesting-1); bad != -1 {
			return false, false
		}
		member(key, name, b[start:end])
		switch i = SkipSpace(b, end); {
		case i < len(b) && b[i] == ',':
			i = SkipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return SkipSpace(b, i+1) == len(b), false
		default:
			return false, false
		}
	}
}
