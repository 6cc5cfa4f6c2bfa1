package mcpserver

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
)

// maxNesting bounds how deeply a message's objects and arrays may nest, as
// encoding/json does.
const maxNesting = 10000

// rawScanner walks JSON text without decoding it: it finds the members of
// an object and the extent of each value, checking the syntax on the way.
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
}

// space skips white space. Like the other hot loops here it works on
// locals and stores the index once: going through s on every byte made
// the scanner several times slower (measured in BenchmarkToolsCall).
func (s *rawScanner) space() {
	b, i := s.b, s.i
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	s.i = i
}

// plainByte tells the bytes a string holds that need no further look: all
// but control characters, the quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// value consumes one value and returns its text; ok is false when the
// text is not JSON.
func (s *rawScanner) value() (raw []byte, ok bool) {
	s.space()
	if s.i >= len(s.b) {
		return nil, false
	}
	start := s.i
	switch c := s.b[s.i]; {
	case c == '{':
		ok = s.fields(nil)
	case c == '[':
		ok = s.array()
	case c == '"':
		_, ok = s.str()
	case c == 't':
		ok = s.lit("true")
	case c == 'f':
		ok = s.lit("false")
	case c == 'n':
		ok = s.lit("null")
	default:
		ok = s.number()
	}
	if !ok {
		return nil, false
	}
	return s.b[start:s.i], true
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
	if escaped, ok = s.str(); !ok {
		return nil, false, false
	}
	key = s.b[start : s.i-1]
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

func (s *rawScanner) array() bool {
	if s.depth++; s.depth > maxNesting {
		return false
	}
	s.i++ // '['
	s.space()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		s.depth--
		return true
	}
	for {
		if _, ok := s.value(); !ok {
			return false
		}
		if !s.next(']') {
			s.depth--
			return s.i <= len(s.b) && s.b[s.i-1] == ']'
		}
	}
}

// str consumes a string and reports whether it holds escapes.
func (s *rawScanner) str() (escaped, ok bool) {
	b, i := s.b, s.i+1 // after '"'
	for {
		for i < len(b) && plainByte[b[i]] {
			i++
		}
		if i >= len(b) || b[i] < 0x20 {
			s.i = i
			return false, false
		}
		if b[i] == '"' {
			s.i = i + 1
			return escaped, true
		}
		escaped = true
		s.i = i
		if !s.escape() {
			return false, false
		}
		i = s.i
	}
}

// escape consumes one escape sequence at s.i.
func (s *rawScanner) escape() bool {
	if s.i+1 >= len(s.b) {
		return false
	}
	switch s.b[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return true
	case 'u':
		if s.i+6 > len(s.b) {
			return false
		}
		for _, h := range s.b[s.i+2 : s.i+6] {
			if !isHexDigit(h) {
				return false
			}
		}
		s.i += 6
		return true
	}
	return false
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func (s *rawScanner) lit(l string) bool {
	if len(s.b)-s.i < len(l) || string(s.b[s.i:s.i+len(l)]) != l {
		return false
	}
	s.i += len(l)
	return true
}

// number consumes a number as JSON's grammar has it.
func (s *rawScanner) number() bool {
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.digits() == 0:
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

func (s *rawScanner) digits() int {
	n := 0
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}

// skipUnchecked consumes the object or array at s.i by matching brackets
// outside strings, without checking anything else: the arguments of a
// tool call, which the tool's own decoder checks as it reads them (see
// requestMeta.argsUnchecked). It fails only when the brackets never close.
// On malformed text it may stop early or late, but only text that is not
// JSON as a whole can make it do so, and that text fails a later check.
func (s *rawScanner) skipUnchecked() bool {
	b, i, depth := s.b, s.i, 0
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

// bracketOrQuote marks the bytes skipUnchecked looks at outside strings.
var bracketOrQuote = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// quoteOrBackslash marks the bytes that end a run of a string's content.
var quoteOrBackslash = [256]bool{'"': true, '\\': true}

// skipString returns the index after the string whose body starts at i:
// after the next quote that no backslash escapes, or len(b).
func skipString(b []byte, i int) int {
	for i < len(b) {
		i = quoteRun(b, i)
		for i < len(b) && !quoteOrBackslash[b[i]] {
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

// quoteRun returns the index of the first quote or backslash from i on,
// or of the last up to eight bytes of b, looking at eight bytes at a time
// (as mcprt's decoder does in its strings, for the same reason).
func quoteRun(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(b) {
		w := binary.LittleEndian.Uint64(b[i:])
		// Only the lowest flagged byte is sure to be a quote or backslash.
		quote, backslash := w^(ones*'"'), w^(ones*'\\')
		if found := ((quote-ones)&^quote | (backslash-ones)&^backslash) & highs; found != 0 {
			return i + bits.TrailingZeros64(found)/8
		}
		i += 8
	}
	return i
}

// validArgs reports whether args, the text of a tool call's arguments
// that skipUnchecked passed over, is one JSON value nested no deeper than
// a whole message may be (it sits two levels down, in params).
func validArgs(args []byte) bool {
	s := rawScanner{b: args, depth: 2}
	_, ok := s.value()
	return ok && s.i == len(args)
}

// scanObject walks the object text b, calling member for each member with
// its key unescaped. It reports whether b is one well-formed object;
// notObject is true when b is valid JSON of another kind.
func scanObject(b []byte, member func(key []byte, val []byte)) (ok, notObject bool) {
	s := rawScanner{b: b}
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		_, valid := s.value()
		s.space()
		return false, valid && s.i == len(s.b)
	}
	ok = s.fields(func(key []byte) bool {
		val, ok := s.value()
		if ok {
			member(key, val)
		}
		return ok
	})
	s.space()
	return ok && s.i == len(s.b), false
}

// unescapeKey decodes the escapes of a key; keys with escapes are rare
// enough to go through encoding/json.
func unescapeKey(key []byte) []byte {
	var k string
	quoted := make([]byte, 0, len(key)+2)
	quoted = append(append(append(quoted, '"'), key...), '"')
	if json.Unmarshal(quoted, &k) != nil {
		return key
	}
	return []byte(k)
}

// stringValue returns the value of the JSON string raw, or ok false when
// raw is not a string. Strings without escapes are converted directly.
func stringValue(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' {
			var v string
			if json.Unmarshal(raw, &v) != nil {
				return "", false
			}
			return v, true
		}
	}
	return string(body), true
}
