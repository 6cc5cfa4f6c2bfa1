package mcpserver

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// maxNesting bounds how deeply a message's objects and arrays may nest, as
// encoding/json does.
const maxNesting = jsonx.MaxNesting

// rawScanner walks JSON text without decoding it: it finds the members of
// an object and the extent of each value, checking the syntax on the way
// with the scanners of package jsonx.
//
// It is hand-written because the envelope and params of every request pass
// through it: encoding/json can only decode into Go values, which for a
// tools/call took three passes over the arguments (envelope, _meta,
// params) and a dozen allocations before the generated decoder read them
// once more. This is one pass that allocates nothing; the arguments
// themselves are left to the generated decoder.
type rawScanner struct {
	b     []byte
	i     int
	depth int
	// checkArgs checks a tool call's arguments where the parse would
	// skip them (see requestMeta.argsUnchecked).
	checkArgs bool
}

// space skips white space.
func (s *rawScanner) space() { s.i = jsonx.SkipSpace(s.b, s.i) }

// value consumes one value and returns its text; ok is false when the
// text is not JSON.
func (s *rawScanner) value() (raw []byte, ok bool) {
	s.space()
	if s.i >= len(s.b) {
		return nil, false
	}
	start, end, bad := s.i, 0, 0
	switch c := s.b[s.i]; {
	case c == '{' || c == '[':
		end, bad = jsonx.ValueEnd(s.b, s.i, maxNesting-s.depth)
	case c == '"':
		end, _, _, bad = jsonx.StringEnd(s.b, s.i)
	case c == 't':
		end, bad = jsonx.LiteralEnd(s.b, s.i, "true")
	case c == 'f':
		end, bad = jsonx.LiteralEnd(s.b, s.i, "false")
	case c == 'n':
		end, bad = jsonx.LiteralEnd(s.b, s.i, "null")
	default:
		end, bad = jsonx.NumberEnd(s.b, s.i)
	}
	if bad != -1 {
		return nil, false
	}
	s.i = end
	return s.b[start:end], true
}

// skipped consumes a value nobody reads.
func (s *rawScanner) skipped() bool {
	_, ok := s.value()
	return ok
}

// fields consumes the object at s.i, calling member with each key
// (unescaped) when the scan has reached its value. member consumes the
// value itself, with value or a nested fields, and returns false to fail
// the scan as a syntax error would. A nil member skips every value.
func (s *rawScanner) fields(member func(key []byte) bool) bool {
	if s.depth++; s.depth > maxNesting {
		return false
	}
	s.i++ // '{'
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		s.depth--
		return true
	}
	for {
		key, escaped, ok := s.key()
		switch {
		case !ok:
			return false
		case member == nil:
			ok = s.skipped()
		case escaped:
			ok = member(unescapeKey(key))
		default:
			ok = member(key)
		}
		if !ok {
			return false
		}
		if !s.next('}') {
			s.depth--
			return s.i <= len(s.b) && s.b[s.i-1] == '}'
		}
	}
}

// key consumes a member's key and the colon after it.
func (s *rawScanner) key() (key []byte, escaped, ok bool) {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false, false
	}
	start := s.i + 1
	end, escaped, _, bad := jsonx.StringEnd(s.b, s.i)
	if bad >= 0 {
		return nil, false, false
	}
	s.i = end
	key = s.b[start : end-1]
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != ':' {
		return nil, false, false
	}
	s.i++
	return key, escaped, true
}

// next consumes the ',' before another member or element (true), or the
// closing bracket (false; then s.b[s.i-1] is that bracket, unless the
// text is malformed).
func (s *rawScanner) next(closing byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == ',' {
		s.i++
		return true
	}
	if s.i < len(s.b) && s.b[s.i] == closing {
		s.i++
		return false
	}
	s.i = len(s.b) + 1 // malformed: make the caller's check fail
	return false
}

// skipUnchecked consumes the object or array at s.i by matching brackets
// outside strings, without checking anything else: the arguments of a
// tool call, which the tool's own decoder checks as it reads them (see
// requestMeta.argsUnchecked). It fails only when the brackets never close.
// On malformed text it may stop early or late, but only text that is not
// JSON as a whole can make it do so, and that text fails a later check.
func (s *rawScanner) skipUnchecked() bool {
	const ones = 0x0101010101010101
	b, i, depth := s.b, s.i, 0
	inString, escaped := false, false
	// Eight bytes at a time: a mask flags the quotes, backslashes and
	// brackets, and only those bytes are looked at, in order.
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		folded := w | ones*0x20 // '[' and ']' become '{' and '}'
		m := zeroBytes(w^ones*'"') | zeroBytes(w^ones*'\\') | zeroBytes(folded^ones*'{') | zeroBytes(folded^ones*'}')
		if escaped {
			m &^= 0x80 // the byte a backslash escaped, in the word before
			escaped = false
		}
		for m != 0 {
			k := bits.TrailingZeros64(m) / 8
			m &= m - 1
			switch c := b[i+k]; {
			case inString && c == '"':
				inString = false
			case inString && c == '\\':
				if k == 7 {
					escaped = true
				} else {
					m &^= 0x80 << (8 * (k + 1))
				}
			case inString:
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				if depth--; depth == 0 {
					s.i = i + k + 1
					return true
				}
			}
		}
	}
	if escaped {
		i++
	}
	if inString {
		i = skipString(b, i)
	}
	for {
		for i < len(b) && !bracketOrQuote[b[i]] {
			i++
		}
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case '"':
			i = skipString(b, i+1)
			continue
		case '{', '[':
			depth++
		default: // '}' or ']'
			if depth--; depth == 0 {
				s.i = i + 1
				return true
			}
		}
		i++
	}
}

// zeroBytes sets the high bit of each byte of w that is zero, and no
// other bit: no borrow crosses bytes, so every flag is exact.
func zeroBytes(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((w&low7 + low7) | w | low7)
}

// bracketOrQuote marks the bytes skipUnchecked looks at outside strings.
var bracketOrQuote = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// skipString returns the index after the string whose body starts at i:
// after the next quote that no backslash escapes, or len(b).
func skipString(b []byte, i int) int {
	for i < len(b) {
		i = jsonx.PlainRun(b, i)
		for i < len(b) && b[i] != '"' && b[i] != '\\' {
			i++
		}
		if i < len(b) && b[i] == '\\' {
			i += 2
			continue
		}
		return min(i+1, len(b))
	}
	return len(b)
}

// validArgs reports whether args, the text of a tool call's arguments
// that skipUnchecked passed over, is one JSON value nested no deeper than
// a whole message may be (it sits two levels down, in params).
func validArgs(args []byte) bool {
	s := rawScanner{b: args, depth: 2}
	_, ok := s.value()
	return ok && s.i == len(args)
}

// unescapeKey resolves the escapes of a checked key.
func unescapeKey(key []byte) []byte {
	k, _ := jsonx.Unescape(make([]byte, 0, len(key)), key)
	return k
}

// stringValue returns the value of the checked JSON string raw, or ok
// false when raw is not a string. Strings without escapes are converted
// directly.
func stringValue(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' {
			return string(unescapeKey(body)), true
		}
	}
	return string(body), true
}

// stringIs reports whether raw, checked JSON, is a string whose value is
// v, without a copy when it holds no escapes.
func stringIs(raw []byte, v string) bool {
	if len(raw) < 2 || raw[0] != '"' {
		return false
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body) == v
	}
	s, _ := stringValue(raw)
	return s == v
}
