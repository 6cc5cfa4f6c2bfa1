package mcpimpl

import (
	"fmt"
	"math"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// This file holds what Decoder adds to the scanner of package jsonx:
// on malformed input it records one problem through syntaxAt, which stops
// decoding, and reports failure.

// skipSpace moves past white space.
func (d *Decoder) skipSpace() { d.pos = jsonx.SkipSpace(d.data, d.pos) }

// scanString checks the JSON string starting with the quote at d.data[i]
// and returns the offset just past its closing quote and whether it holds
// escapes, noting in d.nonASCII whether it holds bytes from 0x80 up.
func (d *Decoder) scanString(i int) (end int, escaped, ok bool) {
	end, escaped, d.nonASCII, i = jsonx.StringEnd(d.data, i)
	if i >= 0 {
		d.syntaxAt(i)
		return 0, false, false
	}
	return end, escaped, true
}

// literal consumes the word lit (true, false or null) at d.pos.
func (d *Decoder) literal(lit string) bool {
	end, bad := jsonx.LiteralEnd(d.data, d.pos, lit)
	if bad >= 0 {
		d.syntaxAt(bad)
		return false
	}
	d.pos = end
	return true
}

// skipValue consumes the value at d.pos, checking its syntax and depth.
func (d *Decoder) skipValue() bool {
	end, bad := jsonx.ValueEnd(d.data, d.pos, d.maxDepth()-d.depth)
	switch {
	case bad == jsonx.TooDeep:
		d.tooDeep()
		return false
	case bad >= 0:
		d.syntaxAt(bad)
		return false
	}
	d.pos = end
	return true
}

// syntaxAt records that the input is not JSON at offset i (the end of the
// input meaning it is cut short) and stops decoding.
func (d *Decoder) syntaxAt(i int) {
	if i >= len(d.data) {
		d.fatal("invalid JSON: unexpected end of input")
		return
	}
	c := d.data[i]
	what := fmt.Sprintf("unexpected byte 0x%02x", c)
	if 0x20 <= c && c < 0x7f {
		what = fmt.Sprintf("unexpected character %q", rune(c))
	}
	d.fatal(fmt.Sprintf("invalid JSON at offset %d: %s", i, what))
}

// expect consumes the byte c after optional whitespace.
func (d *Decoder) expect(c byte) bool {
	d.pos = jsonx.SkipSpace(d.data, d.pos)
	if d.pos < len(d.data) && d.data[d.pos] == c {
		d.pos++
		return true
	}
	d.syntaxAt(d.pos)
	return false
}

// appendCompact appends the checked JSON text src to dst without the
// whitespace outside strings.
func appendCompact(dst, src []byte) []byte {
	for i := 0; i < len(src); i++ {
		c := src[i]
		if jsonx.IsSpace(c) {
			continue
		}
		if c != '"' {
			dst = append(dst, c)
			continue
		}
		start := i
		for i++; src[i] != '"'; i++ {
			if src[i] == '\\' {
				i++
			}
		}
		dst = append(dst, src[start:i+1]...)
	}
	return dst
}

// wholeNumber reads the JSON number literal lit as a whole number: its
// sign and magnitude, whether it is whole (2.0, 1e2 and 150e-1 are), and
// whether the magnitude fits a uint64 (when it does not, mag is 0).
func wholeNumber(lit []byte) (neg bool, mag uint64, whole, fits bool) {
	if lit[0] == '-' {
		neg, lit = true, lit[1:]
	}
	intEnd := jsonx.DigitsEnd(lit, 0)
	if intEnd == len(lit) { // the common case: digits only
		mag, fits = accumulate(0, lit)
		return neg, mag, true, fits
	}
	// The significant digits are lit[:intEnd] followed by frac; the
	// decimal point sits point digits from their start.
	var frac []byte
	i := intEnd
	if lit[i] == '.' {
		end := jsonx.DigitsEnd(lit, i+1)
		frac, i = lit[i+1:end], end
	}
	point := intEnd + exponent(lit[i:])
	digits := func(k int) byte {
		if k < intEnd {
			return lit[k]
		}
		return frac[k-intEnd]
	}
	first, last := 0, intEnd+len(frac) // nonzero digits lie in [first, last)
	for first < last && digits(first) == '0' {
		first++
	}
	for last > first && digits(last-1) == '0' {
		last--
	}
	if first == last {
		return neg, 0, true, true // zero
	}
	if point < last {
		return neg, 0, false, false // a nonzero digit after the point
	}
	if point-first > 20 {
		return neg, 0, true, false // at least 10^20
	}
	for k := first; k < point; k++ {
		c := byte('0')
		if k < last {
			c = digits(k)
		}
		if mag, fits = accumulate(mag, []byte{c}); !fits {
			return neg, 0, true, false
		}
	}
	return neg, mag, true, true
}

// accumulate appends the decimal digits s to mag, reporting overflow of
// a uint64.
func accumulate(mag uint64, s []byte) (uint64, bool) {
	for _, c := range s {
		v := uint64(c - '0')
		if mag > (math.MaxUint64-v)/10 {
			return 0, false
		}
		mag = mag*10 + v
	}
	return mag, true
}

// exponent returns the value of the exponent part s of a number literal
// (empty or e[+-]digits), saturating far beyond any meaningful value.
func exponent(s []byte) int {
	if len(s) == 0 {
		return 0
	}
	s = s[1:]
	neg := s[0] == '-'
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	e := 0
	for _, c := range s {
		if e < 1e8 {
			e = e*10 + int(c-'0')
		}
	}
	if neg {
		return -e
	}
	return e
}
