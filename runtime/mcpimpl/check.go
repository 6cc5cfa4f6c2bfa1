package mcpimpl

import (
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// The Check functions hold the checks a property's mcp tag asks for, so
// that generated decoders check a value in one call: each records its
// problems at the current path and returns the value it was given, as in
//
//	v.Name = mcprt.CheckLength(d, d.String(), 1, 64)
//
// The checks of a single value (CheckBounds, CheckLength, CheckFormatOf,
// CheckPattern) stay silent when the value read last already had a
// problem: a reader that fails returns a zero stand-in, and checking it
// would report a second, false problem. The checks of a whole array
// (CheckItems, CheckUnique) always apply.

// Number is the types whose values CheckBounds compares: Go's integer and
// floating-point types, and types defined on them.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64
}

// Bounds are the numeric bounds of a property: minimum or exclusive
// minimum, maximum or exclusive maximum, and a divisor. A bound is set when
// its text, the number as the tag writes it, is not empty; messages quote
// the text, comparisons use the value.
type Bounds struct {
	Min, Max         float64
	MinText, MaxText string
	ExclusiveMin     bool // Min itself is out of bounds
	ExclusiveMax     bool // Max itself is out of bounds
	MultipleOf       float64
	MultipleOfText   string
}

// CheckBounds records a problem for each bound of b that x breaks, as
// "5 is greater than the maximum 4", and returns x. x is compared as a
// float64.
func CheckBounds[T Number](d *Decoder, x T, b *Bounds) T {
	if d.Failed() {
		return x
	}
	f := float64(x)
	if b.MinText != "" {
		if b.ExclusiveMin && f <= b.Min {
			d.Errorf("%v is not greater than the exclusive minimum %s", x, b.MinText)
		} else if !b.ExclusiveMin && f < b.Min {
			d.Errorf("%v is less than the minimum %s", x, b.MinText)
		}
	}
	if b.MaxText != "" {
		if b.ExclusiveMax && f >= b.Max {
			d.Errorf("%v is not less than the exclusive maximum %s", x, b.MaxText)
		} else if !b.ExclusiveMax && f > b.Max {
			d.Errorf("%v is greater than the maximum %s", x, b.MaxText)
		}
	}
	if b.MultipleOfText != "" && !IsMultipleOf(f, b.MultipleOf) {
		d.Errorf("%v is not a multiple of %s", x, b.MultipleOfText)
	}
	return x
}

// CheckLength records a problem when s has fewer than min or more than max
// characters (Unicode code points, as JSON Schema counts them), and
// returns s. A max below zero means no maximum.
func CheckLength[S ~string](d *Decoder, s S, min, max int) S {
	if d.Failed() {
		return s
	}
	n := utf8.RuneCountInString(string(s))
	if n < min {
		d.Errorf("%d characters, fewer than the minimum length %d", n, min)
	}
	if max >= 0 && n > max {
		d.Errorf("%d characters, more than the maximum length %d", n, max)
	}
	return s
}

// CheckFormatOf records a problem when s is not in the named format (see
// ValidFormat), as "\"x\" is not a valid email", and returns s.
func CheckFormatOf[S ~string](d *Decoder, s S, format string) S {
	if !d.Failed() {
		d.CheckFormat(format, string(s))
	}
	return s
}

// CheckPattern records a problem when s does not match re, as
// "\"x\" does not match the pattern ^[a-z]+$", and returns s.
func CheckPattern[S ~string](d *Decoder, s S, re *regexp.Regexp) S {
	if !d.Failed() && !re.MatchString(string(s)) {
		d.Errorf("%s does not match the pattern %s", jsonx.Quote(string(s)), re.String())
	}
	return s
}

// CheckItems records a problem when s, the array just read, has fewer
// than min or more than max items, and returns s. A max below zero means
// no maximum. Once a problem is found, Grow stops growing s, and the
// items are counted as d read them.
func CheckItems[S ~[]E, E any](d *Decoder, s S, min, max int) S {
	n := len(s)
	if d.invalid() {
		n = d.itemsRead(n)
	}
	if n < min {
		d.Errorf("%s, fewer than the minimum %d", countItems(n), min)
	}
	if max >= 0 && n > max {
		d.Errorf("%s, more than the maximum %d", countItems(n), max)
	}
	return s
}

// itemsRead returns how many items the array just read had, or n when
// decoding stopped inside it. The array's step of the path, just left,
// still holds the count: nothing is opened between an array's last item
// and the checks of its count.
func (d *Decoder) itemsRead(n int) int {
	if d.stopped {
		return n // nothing more is reported
	}
	return d.seg(d.depth).count
}

// countItems is "1 item" or "n items".
func countItems(n int) string {
	if n == 1 {
		return "1 item"
	}
	return strconv.Itoa(n) + " items"
}

// CheckUnique records "items are not unique" when two items of s are
// equal, as the uniqueItems keyword of JSON Schema forbids, and returns s.
// at is the offset of the array in the arguments (see ValueStart).
//
// Items are compared as Go values. Once a problem is found, s holds only
// some of the items (see Grow), and an item that failed to read is a zero
// stand-in, which must not count as a repeat: the array is then compared
// by the JSON the client sent (see CheckUniqueJSON), and the items of s
// other than zero as Go values too.
func CheckUnique[S ~[]E, E comparable](d *Decoder, s S, at int) S {
	if !d.invalid() {
		if !Unique([]E(s)) {
			d.Errorf("items are not unique")
		}
		return s
	}
	var zero E
	repeated := !d.stopped && !uniqueJSON(d.data, at, d.coerced)
	seen := make(map[E]struct{}, len(s))
	for _, x := range s {
		if _, dup := seen[x]; dup && x != zero {
			repeated = true
		}
		seen[x] = struct{}{}
	}
	if repeated {
		d.Errorf("items are not unique")
	}
	return s
}

// Require records "required property is missing" for each property of an
// object just read whose index is in required and whose flag in seen is
// still false. names are the object's property names, in the order of
// seen.
func (d *Decoder) Require(seen []bool, names []string, required ...int) {
	for _, i := range required {
		if !seen[i] {
			d.Missing(names[i])
		}
	}
}
