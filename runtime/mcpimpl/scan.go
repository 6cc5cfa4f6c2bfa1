package mcpimpl

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds the byte-level JSON scanning under Decoder: whitespace,
// strings, numbers, literals and whole values. Each scanner checks the
// syntax as it goes; on malformed input it records one problem through
// syntaxAt, which stops decoding, and reports failure.
//
// It is written by hand rather than built on jsontext (the tokenizer under
// encoding/json/v2) for a measured reason: decoding the reference arguments
// (bulk_price_update, ten changes) into the same structs with the same
// checks takes 6.7 µs and 27 allocations here against 10.4 µs and 57
// allocations through jsontext.Decoder.ReadToken (medians of 6 runs; see
// BenchmarkDecodeReference and BenchmarkTokenizerJSONText). Every
// allocation left here is a value handed to the caller.

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// plainStringByte tells the bytes a string holds without further thought:
// ASCII but control characters, the quote and the backslash. A byte from
// 0x80 up is noted on the way, so that strings of ASCII alone, most of
// them, skip the UTF-8 check.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainRun returns the index of the first byte from i on that is not
// plain in a string (see plainStringByte), or of the last up to eight
// bytes of s, looking at eight bytes at a time. Most strings of arguments
// are longer than eight bytes: in front of the byte-by-byte loop, this
// took the generated path from 4.8 to 4.2 µs (BenchmarkGeneratedPath,
// medians of 10).
func plainRun(s []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(s) {
		w := binary.LittleEndian.Uint64(s[i:])
		// A byte of w sets its high bit in special if it is a quote, a
		// backslash, below 0x20 or from 0x80 up. Above the lowest byte
		// that truly is one, a byte may be flagged wrongly by a borrow;
		// only the lowest flag is used.
		quote, backslash := w^(ones*'"'), w^(ones*'\\')
		special := (quote-ones)&^quote | (backslash-ones)&^backslash | (w-ones*0x20)&^w | w
		if special &= highs; special != 0 {
			return i + bits.TrailingZeros64(special)/8
		}
		i += 8
	}
	return i
}

func (d *Decoder) skipSpace() {
	// Most calls find no space at all: one comparison tells.
	for d.pos < len(d.data) && d.data[d.pos] <= ' ' && isSpace(d.data[d.pos]) {
		d.pos++
	}
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
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == c {
		d.pos++
		return true
	}
	d.syntaxAt(d.pos)
	return false
}

// scanString checks the JSON string starting with the quote at d.data[i]
// and returns the offset just past its closing quote and whether it holds
// escapes. It does not check UTF-8, as encoding/json does not.
func (d *Decoder) scanString(i int) (end int, escaped, ok bool) {
	data := d.data
	d.nonASCII = false
	for i++; i < len(data); {
		i = plainRun(data, i)
		for i < len(data) && plainStringByte[data[i]] {
			i++
		}
		if i >= len(data) {
			break
		}
		c := data[i]
		switch {
		case c == '"':
			return i + 1, escaped, true
		case c < 0x20:
			d.syntaxAt(i)
			return 0, false, false
		case c != '\\': // from 0x80 up
			d.nonASCII = true
			i++
			continue
		}
		escaped = true
		if i+1 >= len(data) {
			break
		}
		switch data[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			for k := i + 2; k < i+6; k++ {
				if k >= len(data) || !isHex(data[k]) {
					d.syntaxAt(k)
					return 0, false, false
				}
			}
			i += 6
		default:
			d.syntaxAt(i + 1)
			return 0, false, false
		}
	}
	d.syntaxAt(len(data))
	return 0, false, false
}

// numberEnd returns the offset just past the JSON number literal starting
// at s[i]; if s[i:] does not start with one, bad is the offset of the
// first byte that breaks the grammar (len(s) when s ends too early), else
// bad is -1.
func numberEnd(s []byte, i int) (end, bad int) {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s) || !isDigit(s[i]):
		return 0, i
	case s[i] == '0':
		i++
	default:
		i = digitsEnd(s, i)
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return 0, i
		}
		i = digitsEnd(s, i)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return 0, i
		}
		i = digitsEnd(s, i)
	}
	return i, -1
}

func digitsEnd(s []byte, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// isNumber reports whether s is exactly one JSON number literal.
func isNumber(s []byte) bool {
	end, bad := numberEnd(s, 0)
	return bad < 0 && end == len(s)
}

// literal consumes the word lit (true, false or null) at d.pos.
func (d *Decoder) literal(lit string) bool {
	for k := 0; k < len(lit); k++ {
		if i := d.pos + k; i >= len(d.data) || d.data[i] != lit[k] {
			d.syntaxAt(i)
			return false
		}
	}
	d.pos += len(lit)
	return true
}

// scalar consumes the string, number or literal at d.pos.
func (d *Decoder) scalar() bool {
	switch c := d.data[d.pos]; {
	case c == '"':
		end, _, ok := d.scanString(d.pos)
		d.pos = end
		return ok
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	}
	end, bad := numberEnd(d.data, d.pos)
	if bad >= 0 {
		d.syntaxAt(bad)
		return false
	}
	d.pos = end
	return true
}

// skipValue consumes the value at d.pos, checking its syntax and depth.
// It is one loop over the bytes with a stack of the closing brackets still
// expected, so deep input costs no Go stack.
func (d *Decoder) skipValue() bool {
	stack := d.stack[:0]
	defer func() { d.stack = stack[:0] }()
	for {
		d.skipSpace()
		if d.pos >= len(d.data) {
			d.syntaxAt(d.pos)
			return false
		}
		switch c := d.data[d.pos]; c {
		case '{', '[':
			if d.depth+len(stack) >= d.maxDepth() {
				d.tooDeep()
				return false
			}
			d.pos++
			closing := c + 2 // '{'+2 is '}', '['+2 is ']'
			d.skipSpace()
			if d.pos < len(d.data) && d.data[d.pos] == closing {
				d.pos++
				break
			}
			stack = append(stack, closing)
			if c == '{' && !d.skipKey() {
				return false
			}
			continue
		default:
			if !d.scalar() {
				return false
			}
		}
		// A value ended: close what it ends, or go on to the next one.
		for {
			if len(stack) == 0 {
				return true
			}
			d.skipSpace()
			if d.pos >= len(d.data) {
				d.syntaxAt(d.pos)
				return false
			}
			c, top := d.data[d.pos], stack[len(stack)-1]
			if c == top {
				d.pos++
				stack = stack[:len(stack)-1]
				continue
			}
			if c != ',' {
				d.syntaxAt(d.pos)
				return false
			}
			d.pos++
			if top == '}' && !d.skipKey() {
				return false
			}
			break
		}
	}
}

// skipKey consumes an object key and its colon.
func (d *Decoder) skipKey() bool {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		d.syntaxAt(d.pos)
		return false
	}
	end, _, ok := d.scanString(d.pos)
	if !ok {
		return false
	}
	d.pos = end
	return d.expect(':')
}

// unescape appends the text of the checked JSON string body s (without
// quotes) to dst with its escapes resolved. A \u escape of half a
// surrogate pair without its other half becomes U+FFFD, as encoding/json
// decodes it, and lone reports that one was seen.
func unescape(dst, s []byte) (out []byte, lone bool) {
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			j := i + 1
			for j < len(s) && s[j] != '\\' {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		if s[i+1] != 'u' {
			dst = append(dst, unescapeByte(s[i+1]))
			i += 2
			continue
		}
		r := hex4(s[i+2:])
		i += 6
		if utf16.IsSurrogate(r) {
			pair := utf8.RuneError
			if r < 0xdc00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
				pair = utf16.DecodeRune(r, hex4(s[i+2:]))
			}
			if pair == utf8.RuneError {
				lone = true
			} else {
				i += 6
			}
			r = pair
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst, lone
}

// unescapeByte returns the byte a one-letter escape such as \n stands for.
func unescapeByte(c byte) byte {
	switch c {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return c // '"', '\\' and '/' stand for themselves
}

// hex4 returns the value of the four hex digits starting s.
func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c >= 'a':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// appendCompact appends the checked JSON text src to dst without the
// whitespace outside strings.
func appendCompact(dst, src []byte) []byte {
	for i := 0; i < len(src); i++ {
		c := src[i]
		if isSpace(c) {
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
	intEnd := digitsEnd(lit, 0)
	if intEnd == len(lit) { // the common case: digits only
		mag, fits = accumulate(0, lit)
		return neg, mag, true, fits
	}
	// The significant digits are lit[:intEnd] followed by frac; the
	// decimal point sits point digits from their start.
	var frac []byte
	i := intEnd
	if lit[i] == '.' {
		end := digitsEnd(lit, i+1)
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
