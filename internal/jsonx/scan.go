package jsonx

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is the one scanner of JSON text in mcpgen: whitespace,
// strings, numbers, literals and whole values, each checked against JSON's
// grammar as it is passed over. The argument decoder of generated code
// (mcpimpl.Decoder) and the server's reading of messages both build on it.
//
// It is written by hand rather than built on jsontext (the tokenizer under
// encoding/json/v2) for a measured reason: decoding the reference arguments
// (bulk_price_update, ten changes) into the same structs with the same
// checks took 6.7 µs and 27 allocations on it against 10.4 µs and 57
// allocations through jsontext.Decoder.ReadToken (medians of 6 runs; see
// mcpimpl's BenchmarkDecodeReference and BenchmarkTokenizerJSONText).
//
// Scanners take the text and an offset and return the offset just past
// what they consumed, and bad: -1 when the text is well formed, else the
// offset of the first byte that breaks the grammar (len(b) when the text
// is cut short), so each caller words its own error.

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// SkipSpace returns the offset of the first byte from i on that is not
// white space.
func SkipSpace(b []byte, i int) int {
	// Most calls find no space at all: one comparison tells.
	for i < len(b) && b[i] <= ' ' && IsSpace(b[i]) {
		i++
	}
	return i
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

// PlainRun returns the index of the first byte from i on that is not
// plain in a string (see plainStringByte), or of the last up to eight
// bytes of s, looking at eight bytes at a time. Most strings are longer
// than eight bytes: in front of the byte-by-byte loop, this took the
// generated path from 4.8 to 4.2 µs (BenchmarkGeneratedPath, medians of
// 10).
func PlainRun(s []byte, i int) int {
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

// StringEnd scans the string whose opening quote is b[i]. It reports
// whether the string holds escapes and bytes from 0x80 up. It does not
// check UTF-8, as encoding/json does not.
func StringEnd(b []byte, i int) (end int, escaped, nonASCII bool, bad int) {
	for i++; i < len(b); {
		i = PlainRun(b, i)
		for i < len(b) && plainStringByte[b[i]] {
			i++
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		switch {
		case c == '"':
			return i + 1, escaped, nonASCII, -1
		case c < 0x20:
			return 0, false, false, i
		case c != '\\': // from 0x80 up
			nonASCII = true
			i++
			continue
		}
		escaped = true
		if i+1 >= len(b) {
			break
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			for k := i + 2; k < i+6; k++ {
				if k >= len(b) || !isHex(b[k]) {
					return 0, false, false, k
				}
			}
			i += 6
		default:
			return 0, false, false, i + 1
		}
	}
	return 0, false, false, len(b)
}

// NumberEnd scans the number literal starting at s[i].
func NumberEnd(s []byte, i int) (end, bad int) {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s) || !isDigit(s[i]):
		return 0, i
	case s[i] == '0':
		i++
	default:
		i = DigitsEnd(s, i)
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return 0, i
		}
		i = DigitsEnd(s, i)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return 0, i
		}
		i = DigitsEnd(s, i)
	}
	return i, -1
}

// DigitsEnd returns the offset of the first byte from i on that is not a
// decimal digit.
func DigitsEnd(s []byte, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// IsNumber reports whether s is exactly one JSON number literal.
func IsNumber(s []byte) bool {
	end, bad := NumberEnd(s, 0)
	return bad < 0 && end == len(s)
}

// LiteralEnd scans the word lit (true, false or null) at b[i].
func LiteralEnd(b []byte, i int, lit string) (end, bad int) {
	for k := 0; k < len(lit); k++ {
		if j := i + k; j >= len(b) || b[j] != lit[k] {
			return 0, j
		}
	}
	return i + len(lit), -1
}

// scalarEnd scans the string, number or literal at b[i].
func scalarEnd(b []byte, i int) (end, bad int) {
	switch b[i] {
	case '"':
		end, _, _, bad = StringEnd(b, i)
		return end, bad
	case 't':
		return LiteralEnd(b, i, "true")
	case 'f':
		return LiteralEnd(b, i, "false")
	case 'n':
		return LiteralEnd(b, i, "null")
	}
	return NumberEnd(b, i)
}

// TooDeep is the bad offset of [ValueEnd] for a value nested deeper than
// its bound.
const TooDeep = -2

// ValueEnd scans the value at b[i], white space before it included. Its
// containers may open at most room levels; deeper input is the bad offset
// TooDeep. It is one loop over the bytes, so deep input costs no Go stack.
func ValueEnd(b []byte, i, room int) (end, bad int) {
	var open containers
	for {
		if i = SkipSpace(b, i); i >= len(b) {
			return 0, i
		}
		switch c := b[i]; c {
		case '{', '[':
			if open.n >= room {
				return 0, TooDeep
			}
			closing := c + 2 // '{'+2 is '}', '['+2 is ']'
			if i = SkipSpace(b, i+1); i < len(b) && b[i] == closing {
				i++
				break
			}
			open.push(c == '{')
			if c == '{' {
				if i, bad = keyEnd(b, i); bad >= 0 {
					return 0, bad
				}
			}
			continue
		default:
			if i, bad = scalarEnd(b, i); bad >= 0 {
				return 0, bad
			}
		}
		// A value ended: close what it ends, or go on to the next one.
		for {
			if open.n == 0 {
				return i, -1
			}
			if i = SkipSpace(b, i); i >= len(b) {
				return 0, i
			}
			inObject := open.top()
			closing := byte(']')
			if inObject {
				closing = '}'
			}
			if b[i] == closing {
				i++
				open.pop()
				continue
			}
			if b[i] != ',' {
				return 0, i
			}
			i++
			if inObject {
				if i, bad = keyEnd(b, i); bad >= 0 {
					return 0, bad
				}
			}
			break
		}
	}
}

// containers is the stack of the objects and arrays a scan is inside, a
// bit each: 256 levels without allocating, deeper ones on the heap.
type containers struct {
	n     int
	small [4]uint64
	deep  []uint64
}

func (c *containers) word(k int) *uint64 {
	if k < len(c.small) {
		return &c.small[k]
	}
	return &c.deep[k-len(c.small)]
}

func (c *containers) push(object bool) {
	k := c.n / 64
	if k >= len(c.small) && k-len(c.small) >= len(c.deep) {
		c.deep = append(c.deep, 0)
	}
	w, bit := c.word(k), uint64(1)<<(c.n%64)
	if object {
		*w |= bit
	} else {
		*w &^= bit
	}
	c.n++
}

func (c *containers) pop() { c.n-- }

func (c *containers) top() bool {
	n := c.n - 1
	return *c.word(n / 64)&(uint64(1)<<(n%64)) != 0
}

// keyEnd scans an object key and its colon, white space around them
// included.
func keyEnd(b []byte, i int) (end, bad int) {
	if i = SkipSpace(b, i); i >= len(b) || b[i] != '"' {
		return 0, i
	}
	if i, _, _, bad = StringEnd(b, i); bad >= 0 {
		return 0, bad
	}
	if i = SkipSpace(b, i); i >= len(b) || b[i] != ':' {
		return 0, i
	}
	return i + 1, -1
}

// Unescape appends the text of the checked JSON string body s (without
// quotes) to dst with its escapes resolved. A \u escape of half a
// surrogate pair without its other half becomes U+FFFD, as encoding/json
// decodes it, and lone reports that one was seen.
func Unescape(dst, s []byte) (out []byte, lone bool) {
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
