package annotations

import (
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file splits directive arguments and mcp tag values into key/value
// arguments. It is written by hand because (*ast.Directive).ParseArgs knows
// only bare words and whole quoted strings: it cannot split
// title="Bulk price update" into a key and a quoted value.

// arg is one key, with or without a value, as written.
type arg struct {
	key      string
	pos      token.Pos // position of the key
	hasValue bool      // an '=' followed the key
	value    string    // unquoted when quoted
	quoted   bool      // the value was quoted, so an empty value was meant
	lead     string    // the spaces before the key, in an mcp tag
}

// text is the item as written, unquoted: key, or key=value.
func (a arg) text() string {
	if !a.hasValue {
		return a.key
	}
	return a.key + "=" + a.value
}

// posFunc maps a byte offset in the text being lexed to a file position.
type posFunc func(off int) token.Pos

// lexer walks one string, collecting arguments and errors.
type lexer struct {
	s    string
	i    int
	at   posFunc
	args []arg
	errs []Error
}

func (l *lexer) errorf(off int, format string, a ...any) {
	l.errs = append(l.errs, errorf(l.at(off), format, a...))
}

// spaceLen returns the byte length of the Unicode space at s[i], or 0.
func spaceLen(s string, i int) int {
	r, n := utf8.DecodeRuneInString(s[i:])
	if unicode.IsSpace(r) {
		return n
	}
	return 0
}

// The one quoting rule of directives and tags: a value that starts with a
// quote is quoted. 'Single quotes' hold any text but a single quote, with
// no escapes; "double quotes" and `backquotes` hold a Go string literal.
// So pattern='^a,b$' and pattern="^a,b$" are one value, in either place.

// The states quotedValue finds a quoted value in.
const (
	quoteOK   = iota
	quoteOpen // no closing quote
	quoteBad  // closed, but not a Go string literal
)

// isQuote reports whether c opens a quoted value.
func isQuote(c byte) bool { return c == '\'' || c == '"' || c == '`' }

// quotedValue reads the quoted value at the start of s: its text, the
// length of its quoted form (all of s when it is not closed) and its state.
func quotedValue(s string) (value string, n, state int) {
	if s[0] == '\'' {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", len(s), quoteOpen
		}
		return s[1 : end+1], end + 2, quoteOK
	}
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		if end := closingQuote(s); end >= 0 {
			return "", end + 1, quoteBad
		}
		return "", len(s), quoteOpen
	}
	value, _ = strconv.Unquote(q) // QuotedPrefix has checked it
	return value, len(q), quoteOK
}

// quoted lexes the quoted value of a, which starts at l.i, into a and
// moves l.i past it. It reports an unclosed or malformed quote and
// returns false then.
func (l *lexer) quoted(a *arg) bool {
	v, n, state := quotedValue(l.s[l.i:])
	l.i += n
	switch state {
	case quoteOpen:
		// Nothing after an unclosed quote can be told apart from the value.
		l.errs = append(l.errs, errorf(a.pos, "unterminated quoted value for key %q", a.key))
		return false
	case quoteBad:
		l.errs = append(l.errs, errorf(a.pos, "bad quoted value for key %q: want a Go string literal, or single quotes, which take no escapes", a.key))
		return false
	}
	a.value, a.quoted = v, true
	return true
}

// lexDirective splits directive arguments: space-separated words of the
// forms key, key=bareword and key=quoted value.
func lexDirective(s string, at posFunc) ([]arg, []Error) {
	l := &lexer{s: s, at: at}
	for {
		for l.i < len(s) && spaceLen(s, l.i) > 0 {
			l.i += spaceLen(s, l.i)
		}
		if l.i == len(s) {
			return l.args, l.errs
		}
		l.directiveArg()
	}
}

// directiveArg lexes one directive argument starting at l.i.
func (l *lexer) directiveArg() {
	start := l.i
	for l.i < len(l.s) && l.s[l.i] != '=' && spaceLen(l.s, l.i) == 0 {
		l.i++
	}
	a := arg{key: l.s[start:l.i], pos: l.at(start)}
	if l.i == len(l.s) || l.s[l.i] != '=' {
		l.args = append(l.args, a)
		return
	}
	l.i++ // '='
	a.hasValue = true
	if a.key == "" {
		l.errorf(start, `missing key before "="`)
		l.skipWord()
		return
	}
	if l.i < len(l.s) && isQuote(l.s[l.i]) {
		l.directiveQuoted(a)
		return
	}
	vstart := l.i
	l.skipWord()
	a.value = l.s[vstart:l.i]
	l.args = append(l.args, a)
}

// directiveQuoted lexes the quoted value of a, which starts at l.i.
func (l *lexer) directiveQuoted(a arg) {
	if !l.quoted(&a) {
		l.skipWord()
		return
	}
	if l.i < len(l.s) && spaceLen(l.s, l.i) == 0 {
		l.errs = append(l.errs, errorf(a.pos, "unexpected text after quoted value for key %q", a.key))
		l.skipWord()
		return
	}
	l.args = append(l.args, a)
}

// closingQuote returns the offset of the quote that closes the Go string
// literal at the start of s, or -1 if it is not closed. It tells a string
// that QuotedPrefix rejects for its contents from one left open.
func closingQuote(s string) int {
	if s[0] == '`' {
		if i := strings.IndexByte(s[1:], '`'); i >= 0 {
			return i + 1
		}
		return -1
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// skipWord advances l.i to the next space or the end.
func (l *lexer) skipWord() {
	for l.i < len(l.s) && spaceLen(l.s, l.i) == 0 {
		l.i++
	}
}

// lexTag splits the value of an mcp struct tag: comma-separated items of
// the forms key, key=value and key=quoted value ('value, with commas').
// Spaces around an item and around a bare value are ignored.
func lexTag(s string, at posFunc) ([]arg, []Error) {
	l := &lexer{s: s, at: at}
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for {
		l.tagItem()
		if l.i >= len(s) {
			return l.args, l.errs
		}
		l.i++ // ','
	}
}

// tagItem lexes one item of an mcp tag, from l.i up to the next comma that
// is not inside single quotes.
func (l *lexer) tagItem() {
	begin := l.i
	l.skipTagSpace()
	start := l.i
	for l.i < len(l.s) && l.s[l.i] != '=' && l.s[l.i] != ',' {
		l.i++
	}
	a := arg{key: strings.TrimRight(l.s[start:l.i], " \t"), pos: l.at(start), lead: l.s[begin:start]}
	switch {
	case a.key == "" && (l.i == len(l.s) || l.s[l.i] == ','):
		l.errorf(start, "empty item in mcp tag")
		return
	case a.key == "":
		l.errorf(start, `missing key before "="`)
		l.skipItem()
		return
	case l.i == len(l.s) || l.s[l.i] == ',':
		l.args = append(l.args, a)
		return
	}
	l.i++ // '='
	a.hasValue = true
	l.skipTagSpace()
	if l.i < len(l.s) && isQuote(l.s[l.i]) {
		l.tagQuoted(a)
		return
	}
	vstart := l.i
	l.skipItem()
	a.value = strings.TrimRight(l.s[vstart:l.i], " \t")
	l.args = append(l.args, a)
}

// tagQuoted lexes the quoted value of a, which starts at l.i.
func (l *lexer) tagQuoted(a arg) {
	if !l.quoted(&a) {
		l.skipItem()
		return
	}
	l.skipTagSpace()
	if l.i < len(l.s) && l.s[l.i] != ',' {
		l.errs = append(l.errs, errorf(a.pos, "unexpected text after quoted value for key %q", a.key))
		l.skipItem()
		return
	}
	l.args = append(l.args, a)
}

func (l *lexer) skipTagSpace() {
	for l.i < len(l.s) && (l.s[l.i] == ' ' || l.s[l.i] == '\t') {
		l.i++
	}
}

// skipItem advances l.i to the next comma or the end.
func (l *lexer) skipItem() {
	if n := strings.IndexByte(l.s[l.i:], ','); n >= 0 {
		l.i += n
	} else {
		l.i = len(l.s)
	}
}

// unquoteOffsets unquotes the Go string literal lit (double-quoted or raw)
// and also returns, for each byte of the result, the offset in lit of the
// text that produced it, plus a last entry for the closing quote. The
// offsets let positions inside a struct tag point into the source literal
// even when escapes shift the bytes.
func unquoteOffsets(lit string) (string, []int, bool) {
	n := len(lit)
	if n < 2 || lit[0] != lit[n-1] {
		return "", nil, false
	}
	switch lit[0] {
	case '`':
		return unquoteRaw(lit)
	case '"':
		return unquoteInterpreted(lit)
	}
	return "", nil, false
}

// unquoteRaw is unquoteOffsets for a backquoted literal.
func unquoteRaw(lit string) (string, []int, bool) {
	body := lit[1 : len(lit)-1]
	if strings.IndexByte(body, '`') >= 0 {
		return "", nil, false
	}
	var out []byte
	var offs []int
	for i := 0; i < len(body); i++ {
		if body[i] != '\r' { // raw strings drop carriage returns
			out = append(out, body[i])
			offs = append(offs, i+1)
		}
	}
	return string(out), append(offs, len(lit)-1), true
}

// unquoteInterpreted is unquoteOffsets for a double-quoted literal.
func unquoteInterpreted(lit string) (string, []int, bool) {
	var out []byte
	var offs []int
	s := lit[1 : len(lit)-1]
	for off := 1; s != ""; {
		if s[0] == '\n' {
			return "", nil, false
		}
		r, multibyte, tail, err := strconv.UnquoteChar(s, '"')
		if err != nil {
			return "", nil, false
		}
		before := len(out)
		if r < utf8.RuneSelf || !multibyte {
			out = append(out, byte(r))
		} else {
			out = utf8.AppendRune(out, r)
		}
		for range len(out) - before {
			offs = append(offs, off)
		}
		off += len(s) - len(tail)
		s = tail
	}
	return string(out), append(offs, len(lit)-1), true
}

// lookupTag finds key in a struct tag written in the conventional
// key:"value" form and returns the offsets of its quoted value, quotes
// included. Like reflect.StructTag.Lookup it gives up at the first
// malformed pair.
func lookupTag(tag, key string) (start, end int, found bool) {
	i := 0
	for {
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		k := i
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == k || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			return 0, 0, false
		}
		name := tag[k:i]
		start = i + 1
		i = start + 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			return 0, 0, false
		}
		i++ // closing quote
		if name == key {
			return start, i, true
		}
	}
}
