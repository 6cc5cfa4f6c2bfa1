package jsonx

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// The Append functions write JSON values exactly as encoding/json's Marshal
// writes them, so generated encoders produce the same bytes as the
// reflection-based path without its cost.

const hexDigits = "0123456789abcdef"

// asciiEscapes holds, for each ASCII byte, the text encoding/json writes in
// its place, or "" when the byte is written as it is.
var asciiEscapes = func() [utf8.RuneSelf]string {
	var t [utf8.RuneSelf]string
	for c := 0; c < 0x20; c++ {
		t[c] = `\u00` + string(hexDigits[c>>4]) + string(hexDigits[c&0xf])
	}
	t['\b'], t['\f'], t['\n'], t['\r'], t['\t'] = `\b`, `\f`, `\n`, `\r`, `\t`
	t['"'], t['\\'] = `\"`, `\\`
	// encoding/json escapes these by default so that JSON can be embedded
	// in HTML.
	t['<'], t['>'], t['&'] = `\u003c`, `\u003e`, `\u0026`
	return t
}()

// AppendString appends s as a JSON string, as encoding/json writes it:
// control characters, quote and backslash escaped, <, > and & written as
// \u003c, \u003e and \u0026, U+2028 and U+2029 escaped, and each byte of
// invalid UTF-8 replaced by \ufffd.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	done := 0 // s[:done] is already in dst
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if esc := asciiEscapes[c]; esc != "" {
				dst = append(append(dst, s[done:i]...), esc...)
				done = i + 1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == utf8.RuneError && size == 1:
			esc = `\ufffd`
		case r == '\u2028':
			esc = `\u2028`
		case r == '\u2029':
			esc = `\u2029`
		}
		if esc != "" {
			dst = append(append(dst, s[done:i]...), esc...)
			done = i + size
		}
		i += size
	}
	dst = append(dst, s[done:]...)
	return append(dst, '"')
}

// MaxQuoted is how many bytes of a value a message quotes.
const MaxQuoted = 40

// Quote returns s as a quoted JSON string, as AppendString writes it; it is
// how messages show string values. A value longer than a message should
// quote is cut after 40 bytes, at a character boundary, and marked "...":
// a model needs to recognize the value, and a 4 MiB value must not be
// copied into a message.
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return string(AppendString(make([]byte, 0, len(s)+2), s))
	}
	cut := MaxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return string(AppendString(nil, s[:cut])) + "..."
}

// AppendFloat appends f, a float64 or (bits 32) a float32 value, formatted
// as encoding/json formats numbers: the shortest representation that reads
// back as the same value, in exponent form below 1e-6 and from 1e21 up,
// with a one-digit exponent written without a leading zero (1e-7, not
// 1e-07). encoding/json refuses NaN and infinities; callers never pass them,
// and for them the result is strconv's text, which is not JSON.
func AppendFloat(dst []byte, f float64, bits int) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 {
		// For float32 the thresholds are float32 values too, which differ
		// from the float64 ones.
		if bits == 32 && (float32(a) < 1e-6 || float32(a) >= 1e21) ||
			bits != 32 && (a < 1e-6 || a >= 1e21) {
			format = 'e'
		}
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// strconv writes at least two exponent digits: 1e-07 becomes 1e-7.
		n := len(dst)
		if n-start >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// AppendInt appends i in decimal, as encoding/json writes integers.
func AppendInt(dst []byte, i int64) []byte {
	return strconv.AppendInt(dst, i, 10)
}

// AppendUint appends u in decimal, as encoding/json writes unsigned integers.
func AppendUint(dst []byte, u uint64) []byte {
	return strconv.AppendUint(dst, u, 10)
}

// AppendBool appends true or false.
func AppendBool(dst []byte, b bool) []byte {
	return strconv.AppendBool(dst, b)
}

// AppendTime appends t as encoding/json marshals a time.Time: a JSON string
// in RFC 3339 with as many fractional-second digits as needed. encoding/json
// refuses years outside 0 to 9999, which RFC 3339 cannot express; for them
// AppendTime writes what time.RFC3339Nano formatting gives.
func AppendTime(dst []byte, t time.Time) []byte {
	dst = append(dst, '"')
	dst = t.AppendFormat(dst, time.RFC3339Nano)
	return append(dst, '"')
}
