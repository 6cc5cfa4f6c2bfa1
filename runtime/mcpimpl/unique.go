package mcpimpl

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// The uniqueItems keyword of JSON Schema holds for items of any kind: two
// items are equal when their JSON values are, numbers compared by value
// and objects whatever the order of their members. Items of strings,
// numbers and booleans are compared as Go values by CheckUnique, with no
// work beyond a map of the values: Go and JSON agree on their equality.
// Other items are compared here by the canonical form of the JSON the
// client sent, not by the Go values decoded from it, because Go values
// may be equal where the JSON is not (a property left out and the same
// property sent as its zero value, "1h" and "60m" for a time.Duration, two
// spellings of one instant for a time.Time) and Go cannot compare some of
// them at all (slices, maps): the client is held to the schema it was
// given. A string the decoder read as a number or a boolean (coercion:
// "1" where the schema says integer) counts as what it was read as, so
// that the values a handler gets are as unique as the check says.

// ValueStart returns the offset in the arguments of the value read last:
// just after Array returns true, that of the array, which
// CheckUniqueJSON reads again once its items have been decoded.
func (d *Decoder) ValueStart() int { return d.start }

// CheckUniqueJSON records "items are not unique" when two items of the
// array at offset at of the arguments have the same JSON value, and
// returns s, the array's decoded value. It runs after the items are
// decoded; the array was well-formed if the decoder has not stopped.
func CheckUniqueJSON[S any](d *Decoder, s S, at int) S {
	if !d.stopped && !uniqueJSON(d.data, at, d.coerced) {
		d.Errorf("items are not unique")
	}
	return s
}

// uniqueJSON reports whether the items of the array at data[at] are
// pairwise different JSON values, the strings at the offsets coerced taken
// as the numbers or booleans they hold. Text it cannot read counts as
// unique: the decoder has reported it already.
func uniqueJSON(data []byte, at int, coerced []int) bool {
	if at >= len(data) || data[at] != '[' {
		return true
	}
	c := canonical{coerced: coerced}
	var ends []int // canonical items are c.buf[ends[i-1]:ends[i]]
	i := jsonx.SkipSpace(data, at+1)
	for i < len(data) && data[i] != ']' {
		var ok bool
		if i, ok = c.value(data, i); !ok {
			return true
		}
		ends = append(ends, len(c.buf))
		if i = jsonx.SkipSpace(data, i); i < len(data) && data[i] == ',' {
			i = jsonx.SkipSpace(data, i+1)
		}
	}
	seen := make(map[string]struct{}, len(ends))
	start := 0
	for _, end := range ends {
		item := string(c.buf[start:end])
		if _, dup := seen[item]; dup {
			return false
		}
		seen[item] = struct{}{}
		start = end
	}
	return true
}

// canonical writes JSON values in one form for each value: no white
// space, strings with their escapes resolved and written as encoding/json
// writes them, numbers as their digits without leading or trailing zeros
// and a power of ten (1, 1.0, 10e-1 are all 1e0; 0 and -0 are 0), object
// members sorted by name, the last of a repeated name kept.
type canonical struct {
	buf     []byte
	scratch []byte
	coerced []int // offsets of strings to write as the number or boolean they hold
}

// value appends the canonical form of the value at data[i] and returns
// the offset after it; false when the text is not a JSON value.
func (c *canonical) value(data []byte, i int) (int, bool) {
	if i = jsonx.SkipSpace(data, i); i >= len(data) {
		return i, false
	}
	switch data[i] {
	case '{':
		return c.object(data, i)
	case '[':
		return c.array(data, i)
	case '"':
		end, body, ok := c.str(data, i)
		if _, coerced := slices.BinarySearch(c.coerced, i); coerced && jsonx.IsNumber(body) {
			c.buf = appendNumber(c.buf, body)
		} else if coerced {
			c.buf = append(c.buf, body...) // true or false
		} else {
			c.buf = jsonx.AppendString(c.buf, string(body))
		}
		return end, ok
	case 't', 'f', 'n':
		end, bad := jsonx.LiteralEnd(data, i, literalAt(data[i]))
		if bad >= 0 {
			return i, false
		}
		c.buf = append(c.buf, data[i:end]...)
		return end, true
	}
	end, bad := jsonx.NumberEnd(data, i)
	if bad >= 0 {
		return i, false
	}
	c.buf = appendNumber(c.buf, data[i:end])
	return end, true
}

// str reads the string at data[i] and returns its text, unescaped; the
// text may be c.scratch, valid until the next call.
func (c *canonical) str(data []byte, i int) (int, []byte, bool) {
	end, escaped, _, bad := jsonx.StringEnd(data, i)
	if bad >= 0 {
		return i, nil, false
	}
	body := data[i+1 : end-1]
	if escaped {
		c.scratch, _ = jsonx.Unescape(c.scratch[:0], body)
		body = c.scratch
	}
	return end, body, true
}

// array appends the canonical form of the array at data[i].
func (c *canonical) array(data []byte, i int) (int, bool) {
	c.buf = append(c.buf, '[')
	i = jsonx.SkipSpace(data, i+1)
	for n := 0; i < len(data) && data[i] != ']'; n++ {
		if n > 0 {
			c.buf = append(c.buf, ',')
		}
		var ok bool
		if i, ok = c.value(data, i); !ok {
			return i, false
		}
		if i = jsonx.SkipSpace(data, i); i < len(data) && data[i] == ',' {
			i++
		}
		i = jsonx.SkipSpace(data, i)
	}
	c.buf = append(c.buf, ']')
	return i + 1, i < len(data)
}

// member is one member of an object being made canonical: its name and
// the span of its canonical value in the buffer it was written to.
type member struct {
	name       string
	start, end int
}

// object appends the canonical form of the object at data[i]: each
// member's value is written to a buffer of its own first, then the
// members in the order of their names.
func (c *canonical) object(data []byte, i int) (int, bool) {
	outer := c.buf
	c.buf = nil
	var members []member
	i = jsonx.SkipSpace(data, i+1)
	for i < len(data) && data[i] != '}' {
		end, name, ok := c.str(data, i)
		if !ok {
			return i, false
		}
		m := member{name: string(name), start: len(c.buf)}
		if i = jsonx.SkipSpace(data, end); i >= len(data) || data[i] != ':' {
			return i, false
		}
		if i, ok = c.value(data, i+1); !ok {
			return i, false
		}
		m.end = len(c.buf)
		members = append(members, m)
		if i = jsonx.SkipSpace(data, i); i < len(data) && data[i] == ',' {
			i = jsonx.SkipSpace(data, i+1)
		}
	}
	values := c.buf
	c.buf = append(outer, '{')
	// Stable, so that of a repeated name the last is the one after the
	// others: the one kept, as a JSON Schema validator reads the object.
	slices.SortStableFunc(members, func(a, b member) int { return strings.Compare(a.name, b.name) })
	n := 0
	for k, m := range members {
		if k+1 < len(members) && members[k+1].name == m.name {
			continue
		}
		if n > 0 {
			c.buf = append(c.buf, ',')
		}
		n++
		c.buf = append(jsonx.AppendString(c.buf, m.name), ':')
		c.buf = append(c.buf, values[m.start:m.end]...)
	}
	c.buf = append(c.buf, '}')
	return i + 1, i < len(data)
}

// literalAt is the literal that starts with c: true, false or null.
func literalAt(c byte) string {
	switch c {
	case 't':
		return "true"
	case 'f':
		return "false"
	}
	return "null"
}

// appendNumber appends the number literal lit in its canonical form: a
// sign for a negative number, its significant digits and the power of ten
// that scales them, as in -15e-1 for -1.50. Two literals of the same
// value have the same form. An exponent too long to add to is kept as
// written, marked so that it equals only the same literal.
func appendNumber(dst, lit []byte) []byte {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	mant, exp := lit, int64(0)
	if k := bytes.IndexAny(lit, "eE"); k >= 0 {
		e, err := strconv.ParseInt(string(lit[k+1:]), 10, 32)
		if err != nil {
			return append(append(dst, '#'), lit...)
		}
		mant, exp = lit[:k], e
	}
	var digits []byte
	if k := bytes.IndexByte(mant, '.'); k >= 0 {
		digits = append(append(digits, mant[:k]...), mant[k+1:]...)
		exp -= int64(len(mant) - k - 1)
	} else {
		digits = append(digits, mant...)
	}
	digits = bytes.TrimLeft(digits, "0")
	if len(digits) == 0 {
		return append(dst, '0')
	}
	for digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if neg {
		dst = append(dst, '-')
	}
	dst = append(append(dst, digits...), 'e')
	return strconv.AppendInt(dst, exp, 10)
}
