package mcpimpl

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// Decoder reads a tool call's JSON arguments in one pass over the bytes,
// for generated code that knows the shape it expects and asks for each
// value in turn: Object and NextField walk an object, Array and NextElem an
// array, and String, Int, Float and the other readers take one value each.
//
// A reader given a value of the wrong kind records a problem at the
// current path, skips the value and returns the zero value, so that one
// pass reports every problem; Finish returns them all as an
// *ArgumentError. Malformed JSON is a single problem that stops decoding:
// from then on every method returns false or a zero value.
//
// A Decoder is not safe for concurrent use. Reset it to reuse its buffers.
type Decoder struct {
	// MaxDepth limits how deeply objects and arrays nest; 0 means
	// jsonx.DefaultMaxDepth. Deeper input is a problem that stops decoding.
	MaxDepth int

	data    []byte
	pos     int
	start   int  // offset of the value read last
	pending bool // a value is due that no reader has taken yet
	stopped bool // malformed input or nesting too deep was found
	failed  bool // the value read last had a problem
	depth   int  // containers open: the length of the path
	near    [pathInline]segment
	far     []segment // the path beyond its first pathInline steps
	key     []byte
	keyBuf  []byte // unescaped keys of this call, which path may refer to
	buf     []byte // scratch for unescaped string values
	// textBlock holds the bytes of strings returned; see text.
	textBlock []byte
	// times holds the values of *time.Time fields; see NewTime.
	times    []time.Time
	problems []Problem
	more     int
	nonASCII bool // the string scanString last read has bytes from 0x80 up
	// coerced are the offsets of the strings read as numbers or booleans,
	// in order, for CheckUniqueJSON to compare them as what they were
	// read as.
	coerced []int
}

// pathInline is how many steps of the path a Decoder holds in itself.
// Arguments rarely nest deeper, and a Decoder on the stack then decodes
// them without allocating for the path (measured in BenchmarkToolsCall:
// a path grown by append cost three allocations a call, and write
// barriers on every key).
const pathInline = 8

// segment is one step of the path to the current value: the container
// being read and which of its members is current. It holds no pointers:
// the current member's key is d.data[keyStart:keyEnd], or d.keyBuf's
// bytes there when it had escapes. An array has no keys: its keyStart is
// where its first element starts, for Grow.
type segment struct {
	keyStart, keyEnd int
	index            int // the current element's index, in an array
	count            int // members started so far
	isArr            bool
	keyInBuf         bool
}

// seg returns step i of the path.
func (d *Decoder) seg(i int) *segment {
	if i < pathInline {
		return &d.near[i]
	}
	return &d.far[i-pathInline]
}

// top returns the innermost step of the path: the container being read.
func (d *Decoder) top() *segment { return d.seg(d.depth - 1) }

// push adds a step for a container just opened.
func (d *Decoder) push(isArr bool) {
	if d.depth < pathInline {
		d.near[d.depth] = segment{isArr: isArr}
	} else {
		d.far = append(d.far[:d.depth-pathInline], segment{isArr: isArr})
	}
	d.depth++
}

var emptyObject = []byte("{}")

// Reset starts decoding data, the arguments of one call. Empty data and
// JSON null stand for an empty object, as a call without arguments means.
func (d *Decoder) Reset(data []byte) {
	if isAbsent(data) {
		data = emptyObject
	}
	d.data, d.pos, d.start = data, 0, 0
	d.pending, d.stopped, d.failed = true, false, false
	d.depth, d.key = 0, nil
	d.keyBuf = d.keyBuf[:0]
	d.problems, d.more = d.problems[:0], 0
	d.coerced = d.coerced[:0]
}

// isAbsent reports whether data is empty or null, give or take whitespace.
func isAbsent(data []byte) bool {
	i, j := 0, len(data)
	for i < j && jsonx.IsSpace(data[i]) {
		i++
	}
	for j > i && jsonx.IsSpace(data[j-1]) {
		j--
	}
	return i == j || string(data[i:j]) == "null"
}

// invalid reports whether any problem has been found.
func (d *Decoder) invalid() bool { return len(d.problems) > 0 || d.more > 0 || d.stopped }

// Finish checks that only whitespace follows the arguments and returns the
// problems found, as an *ArgumentError, or nil when there were none. A
// value nothing was read from is skipped (and checked) first.
func (d *Decoder) Finish() error {
	if d.pending {
		d.Skip()
	}
	if !d.stopped {
		d.skipSpace()
		if d.pos < len(d.data) {
			d.syntaxAt(d.pos)
		}
	}
	if len(d.problems) == 0 && d.more == 0 {
		return nil
	}
	return &ArgumentError{Problems: slices.Clone(d.problems), More: d.more}
}

func (d *Decoder) maxDepth() int {
	if d.MaxDepth <= 0 {
		return jsonx.DefaultMaxDepth
	}
	return d.MaxDepth
}

func (d *Decoder) tooDeep() {
	d.fatal(fmt.Sprintf("nesting deeper than %d levels", d.maxDepth()))
}

// report records a problem at the current path, extended by leaf when it
// is not empty. Nothing is recorded once decoding has stopped.
func (d *Decoder) report(leaf, msg string) {
	if d.stopped {
		return
	}
	if len(d.problems) >= maxProblems {
		d.more++
		return
	}
	d.problems = append(d.problems, Problem{Path: d.pathString(leaf), Message: msg})
}

// fatal records a problem and stops decoding.
func (d *Decoder) fatal(msg string) {
	d.report("", msg)
	d.stopped = true
}

// pathString formats the current path, extended by leaf when not empty.
func (d *Decoder) pathString(leaf string) string {
	var b []byte
	for i := range d.depth {
		s := d.seg(i)
		switch {
		case s.count == 0:
			// no member yet: the path is the container's own
		case s.isArr:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.index), 10)
			b = append(b, ']')
		default:
			key := d.data
			if s.keyInBuf {
				key = d.keyBuf
			}
			b = appendPathKey(b, string(key[s.keyStart:s.keyEnd]))
		}
	}
	if leaf != "" {
		b = appendPathKey(b, leaf)
	}
	return string(b)
}

// value moves to the next value and returns its first byte; false when
// decoding has stopped or the input ends.
func (d *Decoder) value() (byte, bool) {
	if d.stopped {
		return 0, false
	}
	d.skipSpace()
	d.pending, d.failed, d.start = false, false, d.pos
	if d.pos >= len(d.data) {
		d.syntaxAt(d.pos)
		return 0, false
	}
	return d.data[d.pos], true
}

// bad records "expected <want>, got <the value read last>".
func (d *Decoder) bad(want string) {
	d.failed = true
	d.report("", "expected "+want+", got "+describe(d.data[d.start:d.pos]))
}

// wrongKind skips the value at d.pos, which is not the kind wanted, and
// records so.
func (d *Decoder) wrongKind(want string) {
	d.failed = true
	if c := d.data[d.pos]; c == '{' || c == '[' {
		// Report before skipping: a container is described by its first
		// byte, and its content may hold further problems.
		d.report("", "expected "+want+", got "+describe(d.data[d.pos:d.pos+1]))
		d.skipValue()
		return
	}
	if d.skipValue() {
		d.bad(want)
	}
}

// Skip consumes the next value, whatever it is, checking its syntax.
func (d *Decoder) Skip() {
	if _, ok := d.value(); ok {
		d.skipValue()
	}
}

// Null consumes the next value and returns true if it is null; else it
// consumes nothing and returns false.
func (d *Decoder) Null() bool {
	if d.stopped {
		return false
	}
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != 'n' {
		return false
	}
	d.value()
	return d.literal("null")
}

// Object consumes the '{' opening an object and returns true; for any
// other value it records "expected object, got ...", skips the value and
// returns false.
func (d *Decoder) Object() bool { return d.open('{', "object") }

// Array consumes the '[' opening an array and returns true; for any other
// value it records "expected array, got ...", skips the value and returns
// false.
func (d *Decoder) Array() bool { return d.open('[', "array") }

func (d *Decoder) open(c byte, want string) bool {
	got, ok := d.value()
	if !ok {
		return false
	}
	if got != c {
		d.wrongKind(want)
		return false
	}
	if d.depth >= d.maxDepth() {
		d.tooDeep()
		return false
	}
	d.pos++
	d.push(c == '[')
	if c == '[' {
		d.top().keyStart = d.pos
	}
	return true
}

// member moves to the next member of the innermost container, whose
// closing bracket is closing: it skips the current member's value if no
// reader took it, then consumes the comma before the next member and
// returns true, or consumes the closing bracket, leaves the container and
// returns false.
func (d *Decoder) member(closing byte) bool {
	if d.stopped || d.depth == 0 {
		return false
	}
	if d.pending {
		d.Skip()
		if d.stopped {
			return false
		}
	}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == closing {
		d.pos++
		d.depth--
		return false
	}
	if d.top().count > 0 && !d.expect(',') {
		return false
	}
	d.pending = true
	return true
}

// NextField moves to the next property of the object being read: it
// returns true with the property's key available from Key and the
// property's value next, or false after consuming the closing '}'.
//
// A key that is not valid UTF-8, or holds an unpaired surrogate escape, is
// a problem at its path; its value is skipped and NextField moves on, so
// that callers only ever see keys encoding/json would keep unchanged.
func (d *Decoder) NextField() bool {
	for d.member('}') {
		ok, valid := d.fieldKey()
		if !ok {
			return false
		}
		if valid {
			return true
		}
		d.Skip()
	}
	return false
}

// fieldKey reads a property's key and the colon after it and makes the
// property current. valid is false when the key is not valid UTF-8 or
// holds an unpaired surrogate escape, which fieldKey records.
func (d *Decoder) fieldKey() (ok, valid bool) {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		d.syntaxAt(d.pos)
		return false, false
	}
	end, escaped, ok := d.scanString(d.pos)
	if !ok {
		return false, false
	}
	nonASCII, lone := d.nonASCII, false
	keyStart, keyEnd := d.pos+1, end-1
	d.key = d.data[keyStart:keyEnd]
	if escaped {
		keyStart = len(d.keyBuf)
		d.keyBuf, lone = jsonx.Unescape(d.keyBuf, d.key)
		keyEnd = len(d.keyBuf)
		d.key = d.keyBuf[keyStart:keyEnd:keyEnd]
	}
	d.pos = end
	if !d.expect(':') {
		return false, false
	}
	seg := d.top()
	seg.keyStart, seg.keyEnd, seg.keyInBuf = keyStart, keyEnd, escaped
	seg.count++
	switch {
	case lone:
		d.report("", "property name holds an unpaired surrogate escape")
		return true, false
	case nonASCII && !utf8.Valid(d.key):
		d.report("", "property name is not valid UTF-8")
		return true, false
	}
	return true, true
}

// Key returns the key of the current property, unescaped. The bytes may
// be part of the input and must not be modified; they are valid until the
// next call of Reset.
func (d *Decoder) Key() []byte { return d.key }

// NextElem moves to the next element of the array being read: it returns
// true with the element next, or false after consuming the closing ']'.
func (d *Decoder) NextElem() bool {
	if !d.member(']') {
		return false
	}
	seg := d.top()
	seg.index = seg.count
	seg.count++
	return true
}

// Duplicate records "duplicate property" for the current property and
// skips its value.
func (d *Decoder) Duplicate() {
	d.report("", "duplicate property")
	d.Skip()
}

// UnknownField records "unknown property" for the current property,
// naming the nearest of the valid names when one is close, and skips its
// value.
func (d *Decoder) UnknownField(valid []string) {
	if !d.stopped {
		d.report("", unknownMessage(string(d.key), valid))
	}
	d.Skip()
}

// Missing records "required property is missing" at the path of the
// property name in the object just read.
func (d *Decoder) Missing(name string) {
	d.report(name, "required property is missing")
}

// BadEnum records `<got> is not one of <allowed>` for the value just read,
// unless that value already had a problem. got and allowed are written as
// JSON, as in BadEnum(jsonx.Quote(s), `"emea", "amer", "apac"`).
func (d *Decoder) BadEnum(got, allowed string) {
	if !d.failed {
		d.failed = true
		d.report("", got+" is not one of "+allowed)
	}
}

// Errorf records a problem at the current path, with a message formatted
// as by fmt.Sprintf. Generated code uses it for bounds and patterns.
func (d *Decoder) Errorf(format string, args ...any) {
	d.report("", fmt.Sprintf(format, args...))
}

// Failed reports whether the value read last had a problem, so that
// generated checks of its bounds can stay silent about a zero value
// returned in its place.
func (d *Decoder) Failed() bool { return d.failed || d.stopped }

// stringBody reads a string value and returns its content, unescaped; for
// any other value it records "expected <want>" and returns false. The
// content may alias the input or the decoder's scratch buffer. Invalid
// UTF-8 and escapes of lone surrogates are problems.
func (d *Decoder) stringBody(want string) ([]byte, bool) {
	c, ok := d.value()
	if !ok {
		return nil, false
	}
	if c != '"' {
		d.wrongKind(want)
		return nil, false
	}
	end, escaped, ok := d.scanString(d.pos)
	if !ok {
		return nil, false
	}
	body := d.data[d.pos+1 : end-1]
	d.pos = end
	if escaped {
		var lone bool
		if cap(d.buf) < len(body) {
			// Unescaping never lengthens a string: one allocation of the
			// escaped length holds it, where growing by appends would
			// allocate about twice that.
			d.buf = make([]byte, 0, len(body))
		}
		d.buf, lone = jsonx.Unescape(d.buf[:0], body)
		body = d.buf
		if lone {
			d.failed = true
			d.report("", "string holds an unpaired surrogate escape")
			return nil, false
		}
	}
	if d.nonASCII && !utf8.Valid(body) {
		d.failed = true
		d.report("", "string is not valid UTF-8")
		return nil, false
	}
	return body, true
}

// String reads a JSON string.
func (d *Decoder) String() string {
	body, ok := d.stringBody("string")
	if !ok {
		return ""
	}
	return d.text(body)
}

// textBlockSize is the most a Decoder allocates at once for the strings
// it returns; a longer string gets an allocation of its own.
const textBlockSize = 256

// text returns a string with the bytes of b. Short strings are copied
// into a block shared by the strings of the call, one allocation for many
// rather than one each (measured in BenchmarkGeneratedPath: ten product
// ids cost ten allocations, about a tenth of the decoder's time). The
// block is only ever appended to, never written where a string already
// points, so the strings stay immutable; a string kept keeps its block
// alive, at most textBlockSize bytes, and never more than the input holds.
func (d *Decoder) text(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > textBlockSize/4 {
		return string(b)
	}
	if cap(d.textBlock)-len(d.textBlock) < len(b) {
		// The rest of the input bounds the strings still to come.
		d.textBlock = make([]byte, 0, min(textBlockSize, len(d.data)-d.start))
	}
	start := len(d.textBlock)
	d.textBlock = append(d.textBlock, b...)
	return unsafe.String(&d.textBlock[start], len(b))
}

// NewTime returns a pointer to a new zero time.Time, for a *time.Time
// field to decode into. The date-times of one call share one allocation
// rather than one each (five in the benchmarks' reference call). A block
// is only ever appended to, so each pointer is to a value of its own;
// one kept keeps its block alive, at most maxTimeBlock values, and never
// more than the rest of the input can hold.
func (d *Decoder) NewTime() *time.Time {
	if len(d.times) == cap(d.times) {
		// A date-time takes at least len(`"2006-01-02T15:04:05Z"`) bytes.
		left := max(1, (len(d.data)-d.pos)/22)
		d.times = make([]time.Time, 0, min(max(8, 2*cap(d.times)), maxTimeBlock, left))
	}
	d.times = d.times[:len(d.times)+1]
	return &d.times[len(d.times)-1]
}

// maxTimeBlock is the most values NewTime allocates at once.
const maxTimeBlock = 64

// Bool reads true or false; the strings "true" and "false" are accepted
// too.
func (d *Decoder) Bool() bool {
	c, ok := d.value()
	switch {
	case !ok:
		return false
	case c == 't':
		return d.literal("true")
	case c == 'f':
		d.literal("false")
		return false
	case c != '"':
		d.wrongKind("boolean")
		return false
	}
	body, ok := d.stringBody("boolean")
	if ok && string(body) != "true" && string(body) != "false" {
		d.bad("boolean")
		return false
	}
	if ok {
		d.coerced = append(d.coerced, d.start)
	}
	return ok && string(body) == "true"
}

// numberText reads a number, or a string whose whole content is a JSON
// number literal, and returns the literal; else it records
// "expected <want>, got ..." and returns false.
func (d *Decoder) numberText(want string) ([]byte, bool) {
	c, ok := d.value()
	if !ok {
		return nil, false
	}
	if c == '"' {
		body, ok := d.stringBody(want)
		if ok && !jsonx.IsNumber(body) {
			d.bad(want)
			return nil, false
		}
		if ok {
			d.coerced = append(d.coerced, d.start)
		}
		return body, ok
	}
	if c != '-' && (c < '0' || c > '9') {
		d.wrongKind(want)
		return nil, false
	}
	end, bad := jsonx.NumberEnd(d.data, d.pos)
	if bad >= 0 {
		d.syntaxAt(bad)
		return nil, false
	}
	d.pos = end
	return d.data[d.start:end], true
}

// Int reads a whole number that fits an int of the given size (8, 16, 32
// or 64 bits). 2.0 and 1e2 are whole; a string holding a number is
// accepted too.
func (d *Decoder) Int(bits int) int64 {
	lit, ok := d.numberText("integer")
	if !ok {
		return 0
	}
	neg, mag, whole, fits := wholeNumber(lit)
	if !whole {
		d.bad("integer")
		return 0
	}
	maxV := uint64(1)<<(bits-1) - 1
	limit := maxV
	if neg {
		limit++ // the most negative value has no positive counterpart
	}
	if !fits || mag > limit {
		d.failed = true
		d.report("", fmt.Sprintf("%s is out of range for int%d (%d to %d)",
			lit, bits, -int64(maxV)-1, maxV))
		return 0
	}
	if neg {
		return int64(-mag)
	}
	return int64(mag)
}

// Uint reads a whole number that fits an unsigned int of the given size
// (8, 16, 32 or 64 bits), as Int does.
func (d *Decoder) Uint(bits int) uint64 {
	lit, ok := d.numberText("integer")
	if !ok {
		return 0
	}
	neg, mag, whole, fits := wholeNumber(lit)
	if !whole {
		d.bad("integer")
		return 0
	}
	limit := uint64(math.MaxUint64) >> (64 - bits)
	if !fits || mag > limit || neg && mag != 0 {
		d.failed = true
		d.report("", fmt.Sprintf("%s is out of range for uint%d (0 to %d)", lit, bits, limit))
		return 0
	}
	return mag
}

// Float reads a number into a float of the given size (32 or 64 bits); a
// number beyond the type's range is a problem. A string holding a number
// is accepted too.
func (d *Decoder) Float(bits int) float64 {
	lit, ok := d.numberText("number")
	if !ok {
		return 0
	}
	if bits == 64 {
		if f, ok := exactFloat(lit); ok {
			return f
		}
	}
	f, err := strconv.ParseFloat(string(lit), bits)
	if err != nil {
		d.failed = true
		d.report("", fmt.Sprintf("%s is out of range for float%d", lit, bits))
		return 0
	}
	return f
}

// Time reads a date-time string in RFC 3339, as time.Time's UnmarshalJSON
// accepts it.
func (d *Decoder) Time() time.Time {
	var t time.Time
	var scratch [64]byte
	body, ok := d.stringBody("date-time (RFC 3339)")
	if ok {
		if t, ok := utcTime(body); ok {
			return t
		}
	}
	if ok && (!hourAt(body, 11) || t.UnmarshalText(upperTZ(body, &scratch)) != nil || !offsetInRange(t)) {
		d.bad("date-time (RFC 3339)")
		return time.Time{}
	}
	return t
}

// hourAt reports whether s has two digits and a colon at i, where RFC 3339
// puts the hour: Go's parser takes a hour of one digit too.
func hourAt[T string | []byte](s T, i int) bool { return len(s) > i+2 && s[i+2] == ':' }

// offsetInRange reports whether t's zone offset is one RFC 3339 can write:
// Go's parser takes "+24:00", which RFC 3339 and encoding/json do not.
func offsetInRange(t time.Time) bool {
	_, off := t.Zone()
	return -24*3600 < off && off < 24*3600
}

// upperTZ returns b with "t" and "z" upper-cased: RFC 3339 allows them in
// lower case, and JSON Schema's date-time with it, where Go's parser wants
// "T" and "Z". They are the only letters a date-time holds.
func upperTZ(b []byte, scratch *[64]byte) []byte {
	if !bytes.ContainsAny(b, "tz") {
		return b
	}
	c := scratch[:0]
	if len(b) > len(scratch) {
		c = make([]byte, 0, len(b))
	}
	c = append(c, b...)
	for i, x := range c {
		if x == 't' || x == 'z' {
			c[i] = x - ('a' - 'A')
		}
	}
	return c
}

// Duration reads a duration string in Go syntax, such as "1h30m".
func (d *Decoder) Duration() time.Duration {
	const want = `duration (Go syntax such as "1h30m")`
	body, ok := d.stringBody(want)
	if !ok {
		return 0
	}
	v, err := time.ParseDuration(string(body))
	if err != nil {
		d.bad(want)
		return 0
	}
	return v
}

// Bytes reads a string of base64 (standard alphabet, with padding), as
// encoding/json decodes a []byte.
func (d *Decoder) Bytes() []byte {
	body, ok := d.stringBody("base64 string")
	if !ok {
		return nil
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(body)))
	n, err := base64.StdEncoding.Decode(out, body)
	if err != nil {
		d.bad("base64 string")
		return nil
	}
	return out[:n]
}

// Raw reads any JSON value and returns a compact copy of its text. Text
// that is not valid UTF-8 is a problem, as it is in a string read alone.
func (d *Decoder) Raw() []byte {
	if _, ok := d.value(); !ok || !d.skipValue() {
		return nil
	}
	raw := d.data[d.start:d.pos]
	if !utf8.Valid(raw) {
		d.failed = true
		d.report("", "value is not valid UTF-8")
		return nil
	}
	return appendCompact(make([]byte, 0, len(raw)), raw)
}

// Any reads any JSON value as encoding/json decodes it into an any:
// map[string]any, []any, float64, string, bool or nil.
func (d *Decoder) Any() any {
	c, ok := d.value()
	switch {
	case !ok:
		return nil
	case c == '{':
		m := map[string]any{}
		if d.Object() {
			for d.NextField() {
				m[string(d.Key())] = d.Any()
			}
		}
		return m
	case c == '[':
		s := []any{}
		if d.Array() {
			for d.NextElem() {
				s = append(s, d.Any())
			}
		}
		return s
	case c == '"':
		return d.String()
	case c == 't' || c == 'f':
		return d.Bool()
	case c == 'n':
		d.literal("null")
		return nil
	}
	return d.Float(64)
}

// Repeated reports whether the property whose flag is seen was read before
// in this object, recording "duplicate property" and skipping its value if
// so; otherwise it sets the flag. Generated decoders call it first for each
// known property.
func (d *Decoder) Repeated(seen *bool) bool {
	if *seen {
		d.Duplicate()
		return true
	}
	*seen = true
	return false
}
