package skillfile

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Read reads the frontmatter fm as YAML and returns its value, each node
// positioned in SKILL.md.
//
// It reads the YAML that frontmatter is written in, and nothing more:
// block mappings and sequences (a sequence may sit at its key's
// indentation, an item may be a compact mapping), plain scalars over one
// or more lines, single- and double-quoted scalars on one line, literal
// and folded block scalars (| and >, with chomping and indentation
// indicators), flow sequences and mappings on one line, and comments.
// Plain scalars are typed as [Resolve] says. Anchors, aliases, tags,
// complex keys, merge keys, directives, quoted scalars over several lines
// and flow collections over several lines are refused with a positioned
// message that says how to write the value instead; so is invalid YAML.
//
// A full YAML library would do, but package mcprt reads skills at run time
// and imports only the standard library. What this reader accepts it reads
// as go.yaml.in/yaml/v3 does (a differential test checks it), and the
// generator refuses, at go generate, frontmatter it would refuse.
func Read(fm *Frontmatter) (*Node, *Problem) {
	r := &reader{first: fm.Line, lastBreak: bytes.HasSuffix(fm.Text, []byte("\n"))}
	// A final line break ends the last line; it starts no empty one.
	for line := range bytes.SplitSeq(bytes.TrimSuffix(fm.Text, []byte("\n")), []byte("\n")) {
		r.lines = append(r.lines, string(bytes.TrimSuffix(line, []byte("\r"))))
	}
	if p := r.checkLines(); p != nil {
		return nil, p
	}
	if !r.skip() {
		return nil, r.errAt(0, 0, "the frontmatter is empty: it needs name and description")
	}
	root, p := r.node(-1)
	if p != nil {
		return nil, p
	}
	if r.skip() {
		return nil, r.errAt(r.i, indentOf(r.lines[r.i]), "unexpected text: it is not part of the frontmatter's mapping; check its indentation")
	}
	return root, nil
}

// reader reads a frontmatter by lines.
type reader struct {
	lines     []string // the lines, without line breaks
	lastBreak bool     // the last line has a line break
	first     int      // the line of SKILL.md lines[0] is on
	i         int      // the line being read
}

func (r *reader) errAt(line, col int, msg string) *Problem {
	return &Problem{Line: r.first + line, Col: col + 1, Msg: msg}
}

// checkLines refuses what no part of the reader reads: tabs in
// indentation, directives and document markers.
func (r *reader) checkLines() *Problem {
	for i, l := range r.lines {
		for j, c := range l {
			if !printable(c) {
				return r.errAt(i, j, "the character "+strconv.QuoteRune(c)+", which YAML does not allow: remove it, or write it as an escape in a double-quoted value")
			}
		}
		n := indentOf(l)
		switch {
		case n < len(l) && l[n] == '\t':
			return r.errAt(i, n, "a tab in indentation, which YAML does not allow: indent with spaces")
		case strings.HasPrefix(l, "%"):
			return r.errAt(i, 0, "a YAML directive, which frontmatter does not need: remove it")
		case marker(l, "...") || marker(l, "---"):
			return r.errAt(i, 0, "a YAML document marker ("+l[:3]+"), which frontmatter does not need: remove it")
		}
	}
	return nil
}

// marker reports whether l starts with the document marker m.
func marker(l, m string) bool {
	return strings.HasPrefix(l, m) && (len(l) == 3 || l[3] == ' ' || l[3] == '\t')
}

// printable reports whether c may stand as it is in a frontmatter: the
// characters YAML allows in a stream (c-printable), but the byte order
// mark and those some readers take for line breaks.
func printable(c rune) bool {
	switch {
	case c == '\t', 0x20 <= c && c <= 0x7e:
		return true
	case c == 0x2028 || c == 0x2029:
		return false // line breaks to YAML 1.1 readers, as U+0085 is
	case 0xa0 <= c && c <= 0xd7ff, 0xe000 <= c && c <= 0xfffd && c != 0xfeff, 0x10000 <= c && c <= 0x10ffff:
		return true
	}
	return false
}

// indentOf returns the number of spaces l starts with.
func indentOf(l string) int {
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	return n
}

// blank reports whether l holds nothing but spaces and tabs, or a comment.
func blank(l string) bool {
	t := strings.TrimLeft(l, " \t")
	return t == "" || t[0] == '#'
}

// skip moves past blank and comment lines and reports whether a line is
// left.
func (r *reader) skip() bool {
	for r.i < len(r.lines) && blank(r.lines[r.i]) {
		r.i++
	}
	return r.i < len(r.lines)
}

// node reads the block node that starts at the next line indented more
// than parent; with none it is null, an empty value.
func (r *reader) node(parent int) (*Node, *Problem) {
	if !r.skip() || indentOf(r.lines[r.i]) <= parent {
		return &Node{Kind: Null, Line: r.first + min(r.i, len(r.lines)-1), Col: 1}, nil
	}
	l := r.lines[r.i]
	n := indentOf(l)
	switch {
	case isEntry(l[n:]):
		return r.seq(n)
	case r.isKey(l, n):
		return r.mapping(n)
	}
	return r.inline(n, parent)
}

// isEntry reports whether s starts a block sequence entry: "-" then a
// space or the end of the line.
func isEntry(s string) bool {
	return s == "-" || strings.HasPrefix(s, "- ")
}

// isKey reports whether line l holds a mapping key at column n.
func (r *reader) isKey(l string, n int) bool {
	_, _, _, ok := r.key(l, n)
	return ok
}

// key reads the key of a mapping entry at column n of l: its text, the
// column of its ':' and whether it was quoted. ok is false when the line
// holds no key there.
func (r *reader) key(l string, n int) (text string, colon int, quoted, ok bool) {
	s := l[n:]
	if s == "" || isEntry(s) || strings.HasPrefix(s, "-\t") {
		return "", 0, false, false
	}
	switch s[0] {
	case '"', '\'':
		end := quoteEnd(s)
		if end < 0 {
			return "", 0, false, false
		}
		rest := strings.TrimLeft(s[end:], " \t")
		if !strings.HasPrefix(rest, ":") || !(len(rest) == 1 || rest[1] == ' ' || rest[1] == '\t') {
			return "", 0, false, false
		}
		return s[:end], n + len(s) - len(rest), true, true
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t'):
			return "", 0, false, false
		case s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t'):
			return strings.TrimRight(s[:i], " \t"), n + i, false, true
		}
	}
	return "", 0, false, false
}

// quoteEnd returns the index just past the closing quote of the quoted
// scalar s starts with, or -1 when it does not close on the line.
func quoteEnd(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i + 1
		}
	}
	return -1
}

// mapping reads a block mapping whose keys are at column n.
func (r *reader) mapping(n int) (*Node, *Problem) {
	m := &Node{Kind: Map, Line: r.first + r.i, Col: n + 1}
	seen := map[string]bool{}
	for {
		l := r.lines[r.i]
		text, colon, quoted, ok := r.key(l, n)
		if !ok {
			return nil, r.errAt(r.i, n, "expected a key: a line of a mapping is key: value")
		}
		k, p := r.keyNode(text, quoted, r.i, n)
		if p != nil {
			return nil, p
		}
		if seen[k.Str] {
			return nil, r.errAt(r.i, n, "the key "+strconv.Quote(k.Str)+" is written twice: keep one")
		}
		seen[k.Str] = true
		line, rest := r.i, colon+1
		if strings.Contains(l[rest:rest+len(l[rest:])-len(strings.TrimLeft(l[rest:], " \t"))], "\t") {
			return nil, r.errAt(r.i, rest, "a tab after a key's :, which YAML readers refuse: use spaces")
		}
		rest += len(l[rest:]) - len(strings.TrimLeft(l[rest:], " \t"))
		var v *Node
		if blank(l[rest:]) {
			r.i++
			if r.skip() && indentOf(r.lines[r.i]) == n && isEntry(r.lines[r.i][n:]) {
				v, p = r.seq(n) // a sequence may sit at its key's indentation
			} else {
				v, p = r.node(n)
				if p == nil && v.Kind == Null {
					v.Line, v.Col = r.first+line, colon+2
				}
			}
		} else {
			v, p = r.inline(rest, n)
		}
		if p != nil {
			return nil, p
		}
		m.Keys, m.Values = append(m.Keys, k), append(m.Values, v)
		if !r.skip() {
			return m, nil
		}
		switch next := indentOf(r.lines[r.i]); {
		case next < n:
			return m, nil
		case next > n:
			return nil, r.errAt(r.i, next, "unexpected indentation: a value that goes on the next lines is indented under its key, and a key of the same mapping is at its column")
		}
	}
}

// keyNode makes the key text read at line, column n into a string node.
func (r *reader) keyNode(text string, quoted bool, line, n int) (*Node, *Problem) {
	if len(text) > maxKey {
		return nil, r.errAt(line, n, "a key longer than YAML allows (1024 characters): shorten it")
	}
	if quoted {
		s, p := r.unquote(text, line, n)
		if p != nil {
			return nil, p
		}
		return &Node{Kind: String, Str: s, Line: r.first + line, Col: n + 1}, nil
	}
	switch {
	case text == "<<":
		return nil, r.errAt(line, n, "a merge key (<<), which frontmatter readers differ on: write the keys out")
	case text == "?" || strings.HasPrefix(text, "? "):
		return nil, r.errAt(line, n, "a complex key (?), which frontmatter does not need: write a plain key")
	case text != "" && strings.ContainsRune("[]{}&*!|>%@`,", rune(text[0])):
		return nil, r.errAt(line, n, "a key starting with "+strconv.Quote(text[:1])+", which this reader does not read: quote the key")
	}
	k, p := Resolve(text, r.first+line, n+1)
	if p != nil {
		return nil, p
	}
	if k.Kind != String {
		return nil, r.errAt(line, n, "the key "+strconv.Quote(text)+" is not text to JSON: quote it")
	}
	return k, nil
}

// maxKey is how long a key may be: YAML bounds an implicit key at 1024
// characters, and some readers count them in bytes.
const maxKey = 1000

// seq reads a block sequence whose entries' dashes are at column n.
func (r *reader) seq(n int) (*Node, *Problem) {
	s := &Node{Kind: Seq, Line: r.first + r.i, Col: n + 1}
	for {
		l := r.lines[r.i]
		if !isEntry(l[n:]) {
			return nil, r.errAt(r.i, n, "expected an entry of the sequence: - value")
		}
		c := n + 1 + len(l[n+1:]) - len(strings.TrimLeft(l[n+1:], " "))
		if c < len(l) && l[c] == '\t' {
			return nil, r.errAt(r.i, c, "a tab after a sequence's -, which YAML readers refuse: use spaces")
		}
		var item *Node
		var p *Problem
		if blank(l[c:]) {
			line := r.i
			r.i++
			item, p = r.node(n)
			if p == nil && item.Kind == Null {
				item.Line, item.Col = r.first+line, n+1
			}
		} else {
			// The entry's content stands as if the dash were a space: a
			// compact mapping or sequence is then a block node at its column.
			r.lines[r.i] = l[:n] + " " + l[n+1:]
			if isEntry(l[c:]) || r.isKey(r.lines[r.i], c) {
				item, p = r.node(n)
			} else {
				item, p = r.inline(c, n)
			}
		}
		if p != nil {
			return nil, p
		}
		s.Items = append(s.Items, item)
		if !r.skip() {
			return s, nil
		}
		switch next := indentOf(r.lines[r.i]); {
		case next < n:
			return s, nil
		case next > n:
			return nil, r.errAt(r.i, next, "unexpected indentation: entries of a sequence start at the column of its first -")
		}
	}
}

// inline reads the scalar or flow collection at column c of the current
// line, the value of a node whose parent is indented parent: it may go on
// over the next lines (a plain scalar, a block scalar).
func (r *reader) inline(c, parent int) (*Node, *Problem) {
	l := r.lines[r.i]
	s := l[c:]
	switch s[0] {
	case '"', '\'':
		end := quoteEnd(s)
		if end < 0 {
			return nil, r.errAt(r.i, c, "a quoted value over several lines, which this reader does not read: keep it on one line, or write a block scalar (| or >)")
		}
		v, p := r.unquote(s[:end], r.i, c)
		if p != nil {
			return nil, p
		}
		if p := r.endOfValue(c + end); p != nil {
			return nil, p
		}
		r.i++
		return &Node{Kind: String, Str: v, Line: r.first + r.i - 1, Col: c + 1}, nil
	case '[', '{':
		f := &flow{r: r, s: l, i: c}
		v, p := f.node()
		if p != nil {
			return nil, p
		}
		if p := r.endOfValue(f.i); p != nil {
			return nil, p
		}
		r.i++
		return v, nil
	case '|', '>':
		return r.block(c, parent)
	case '&', '*':
		return nil, r.errAt(r.i, c, "an anchor or alias, which this reader does not read: write the value out")
	case '!':
		return nil, r.errAt(r.i, c, "a tag, which this reader does not read: write the value without it, quoted if it is text")
	case '%', '@', '`', ',', ']', '}':
		return nil, r.errAt(r.i, c, strconv.Quote(s[:1])+" cannot start a plain value: quote it")
	case '-', '?', ':':
		switch {
		case len(s) > 1 && s[1] != ' ' && s[1] != '\t':
		case s[0] == '?':
			return nil, r.errAt(r.i, c, "a complex key (?), which frontmatter does not need: write a plain key")
		default:
			return nil, r.errAt(r.i, c, strconv.Quote(s[:1])+" followed by a space starts no value here: quote the value, or put a sequence on the lines under its key")
		}
	}
	return r.plain(c, parent)
}

// endOfValue checks that nothing but spaces and a comment follows column
// end of the current line.
func (r *reader) endOfValue(end int) *Problem {
	rest := r.lines[r.i][end:]
	t := strings.TrimLeft(rest, " \t")
	if t == "" || (t[0] == '#' && len(t) < len(rest)) {
		return nil
	}
	return r.errAt(r.i, end+len(rest)-len(t), "unexpected text after the value: quote the whole value, or start a comment with a space and #")
}

// plain reads a plain scalar from column c, continued by the lines
// indented more than parent.
func (r *reader) plain(c, parent int) (*Node, *Problem) {
	line := r.i
	first, p := r.plainLine(r.lines[r.i][c:], r.i, c)
	if p != nil {
		return nil, p
	}
	var b strings.Builder
	b.WriteString(first)
	// A comment ends the scalar: it goes on only while no line has one.
	ended := len(first) < len(strings.TrimRight(r.lines[r.i][c:], " \t"))
	r.i++
	for !ended {
		empty := 0
		j := r.i
		for j < len(r.lines) && strings.TrimLeft(r.lines[j], " \t") == "" {
			empty++
			j++
		}
		if j == len(r.lines) || indentOf(r.lines[j]) <= parent || strings.TrimLeft(r.lines[j], " \t")[0] == '#' {
			break
		}
		l := r.lines[j]
		n := indentOf(l)
		if strings.ContainsRune("-?:[]{}&*!|>'\"%@`,", rune(l[n])) {
			return nil, r.errAt(j, n, "a value over several lines whose line starts with "+strconv.Quote(l[n:n+1])+", which this reader does not read: write it as a block scalar (| or >) or quote it")
		}
		text, p := r.plainLine(l[n:], j, n)
		if p != nil {
			return nil, p
		}
		if empty == 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.Repeat("\n", empty))
		b.WriteString(text)
		ended = len(text) < len(strings.TrimRight(l[n:], " \t"))
		r.i = j + 1
	}
	return Resolve(b.String(), r.first+line, c+1)
}

// plainLine returns the text of one line of a plain scalar, s, found at
// line, column c: up to a comment, without trailing space.
func (r *reader) plainLine(s string, line, c int) (string, *Problem) {
	end := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
			end = i
			break
		}
	}
	t := strings.TrimRight(s[:end], " \t")
	for i := 0; i < len(t); i++ {
		if t[i] == ':' && (i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\t') {
			return "", r.errAt(line, c+i, "a ':' followed by a space inside a value, which YAML reads as a key: quote the value")
		}
	}
	return t, nil
}

// unquote returns the value of the quoted scalar q, which closes, written
// at line, column c.
func (r *reader) unquote(q string, line, c int) (string, *Problem) {
	body := q[1 : len(q)-1]
	if q[0] == '\'' {
		return strings.ReplaceAll(body, "''", "'"), nil
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' {
			b.WriteByte(body[i])
			continue
		}
		i++
		if i == len(body) {
			break // quoteEnd does not end a string on an escaped quote
		}
		if s, ok := escapes[body[i]]; ok {
			b.WriteString(s)
			continue
		}
		width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[body[i]]
		if width == 0 || i+1+width > len(body) {
			return "", r.errAt(line, c+1+i, "an unknown escape \\"+body[i:i+1]+" in a double-quoted value")
		}
		v, err := strconv.ParseUint(body[i+1:i+1+width], 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return "", r.errAt(line, c+1+i, "a bad escape \\"+body[i:min(i+1+width, len(body))]+" in a double-quoted value")
		}
		b.WriteRune(rune(v))
		i += width
	}
	return b.String(), nil
}

// escapes are YAML's one-letter escapes of double-quoted scalars.
var escapes = map[byte]string{
	'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", '\t': "\t", 'n': "\n", 'v': "\v", 'f': "\f",
	'r': "\r", 'e': "\x1b", ' ': " ", '"': "\"", '\\': "\\",
	'N': "\u0085", '_': "\u00a0", 'L': "\u2028", 'P': "\u2029",
}

// block reads a literal (|) or folded (>) block scalar whose header is at
// column c of the current line, the value of a node indented parent.
func (r *reader) block(c, parent int) (*Node, *Problem) {
	line := r.i
	head := r.lines[r.i][c:]
	folded := head[0] == '>'
	chomp, indent := byte(0), 0
	i := 1
	for ; i < len(head) && i < 3; i++ {
		switch ch := head[i]; {
		case (ch == '-' || ch == '+') && chomp == 0:
			chomp = ch
		case '1' <= ch && ch <= '9' && indent == 0:
			indent = int(ch - '0')
		default:
			goto rest
		}
	}
rest:
	if p := r.endOfValue(c + i); p != nil {
		return nil, r.errAt(line, c, "a block scalar header is | or >, then - or + and a digit if any, then a comment if any")
	}
	r.i++
	// The content's indentation: given, or that of its first line with
	// text; lines of spaces before it may not be longer.
	m := max(parent, 0) + indent
	if indent == 0 {
		longest, j := 0, r.i
		for ; j < len(r.lines) && strings.TrimLeft(r.lines[j], " ") == ""; j++ {
			longest = max(longest, len(r.lines[j]))
		}
		m = max(parent+1, 1)
		if j < len(r.lines) && indentOf(r.lines[j]) >= m {
			m = indentOf(r.lines[j])
		}
		if longest > m && j < len(r.lines) && indentOf(r.lines[j]) >= m {
			return nil, r.errAt(j-1, 0, "a line of spaces before a block scalar's text is longer than the text's indentation: shorten it")
		}
	}
	var lines []string // the content, indentation removed; "" for an empty line
	for r.i < len(r.lines) {
		l := r.lines[r.i]
		n := indentOf(l)
		if n < len(l) && n < m {
			if l[n] == '\t' {
				return nil, r.errAt(r.i, n, "a tab in a block scalar's indentation: indent with spaces")
			}
			break // a line of text indented less ends the scalar
		}
		switch {
		case n >= len(l) && n > m:
			return nil, r.errAt(r.i, m, "a line of spaces only, longer than the block scalar's indentation: remove its spaces")
		case n >= len(l):
			lines = append(lines, "")
		default:
			lines = append(lines, l[m:])
		}
		r.i++
	}
	// Trailing empty lines belong to the chomping. The frontmatter's last
	// line has no line break (hosts read the text before the closing
	// ---'s), so a scalar that ends the frontmatter ends without one.
	trail := 0
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
		trail++
	}
	missing := 0
	if r.i == len(r.lines) && !r.lastBreak {
		missing = 1
	}
	// Hosts split the frontmatter from SKILL.md differently: some keep
	// the line break before the closing ---, some do not. A scalar that
	// ends the frontmatter and keeps its final line break reads
	// differently to them.
	if r.i == len(r.lines) && (chomp == '+' || chomp == 0 && missing == 1 && trail == 0 && len(lines) > 0) {
		return nil, r.errAt(line, c, "a block scalar that ends the frontmatter, whose final line break hosts read differently: write "+head[:1]+"- to drop it, or put another key after the scalar")
	}
	var b strings.Builder
	lead := true
	prevSpaced := false
	empty := 0
	for _, l := range lines {
		if l == "" {
			empty++
			continue
		}
		spaced := l[0] == ' ' || l[0] == '\t'
		switch {
		case lead:
			b.WriteString(strings.Repeat("\n", empty))
		case folded && !spaced && !prevSpaced && empty == 0:
			b.WriteByte(' ')
		case folded && !spaced && !prevSpaced:
			b.WriteString(strings.Repeat("\n", empty))
		default:
			b.WriteString(strings.Repeat("\n", empty+1))
		}
		b.WriteString(l)
		lead, prevSpaced, empty = false, spaced, 0
	}
	switch breaks := 1 + trail - missing; {
	case chomp == '-':
	case lead && chomp == '+':
		b.WriteString(strings.Repeat("\n", max(trail-missing, 0)))
	case lead:
	case chomp == '+':
		b.WriteString(strings.Repeat("\n", breaks))
	case breaks > 0:
		b.WriteByte('\n')
	}
	return &Node{Kind: String, Str: b.String(), Line: r.first + line, Col: c + 1}, nil
}

// flow reads a flow collection or scalar on one line.
type flow struct {
	r *reader
	s string // the line
	i int    // the column being read
}

func (f *flow) space() {
	for f.i < len(f.s) && (f.s[f.i] == ' ' || f.s[f.i] == '\t') {
		f.i++
	}
}

func (f *flow) errorf(msg string) *Problem { return f.r.errAt(f.r.i, f.i, msg) }

// node reads one flow node.
func (f *flow) node() (*Node, *Problem) {
	f.space()
	if f.i == len(f.s) {
		return nil, f.errorf(multiLineFlow)
	}
	at := f.i
	switch f.s[f.i] {
	case '[':
		return f.seq()
	case '{':
		return f.mapping()
	case '"', '\'':
		end := quoteEnd(f.s[f.i:])
		if end < 0 {
			return nil, f.errorf("a quoted value that does not close on its line: close it, or write a block sequence or mapping")
		}
		v, p := f.r.unquote(f.s[f.i:f.i+end], f.r.i, f.i)
		f.i += end
		return &Node{Kind: String, Str: v, Line: f.r.first + f.r.i, Col: at + 1}, p
	case '&', '*', '!', '%', '@', '`', '|', '>', '#', ',', ']', '}':
		return nil, f.errorf(strconv.Quote(f.s[f.i:f.i+1]) + " cannot start a value in a flow collection: quote the value")
	case '-', '?', ':':
		if f.i+1 == len(f.s) || strings.ContainsRune(" \t,[]{}", rune(f.s[f.i+1])) {
			return nil, f.errorf(strconv.Quote(f.s[f.i:f.i+1]) + " alone cannot be a value in a flow collection: quote it")
		}
	}
	for f.i < len(f.s) {
		c := f.s[f.i]
		if strings.IndexByte(",[]{}", c) >= 0 || c == '#' && (f.s[f.i-1] == ' ' || f.s[f.i-1] == '\t') {
			break
		}
		if c == ':' && (f.i+1 == len(f.s) || f.s[f.i+1] == ' ' || f.s[f.i+1] == '\t') {
			break
		}
		if c == ':' || c == '?' || c == '#' {
			// YAML readers part plain scalars of flow collections
			// differently around these.
			return nil, f.errorf(strconv.Quote(string(c)) + " inside an unquoted value of a flow collection, which YAML readers read differently: quote the value")
		}
		f.i++
	}
	return Resolve(strings.TrimRight(f.s[at:f.i], " \t"), f.r.first+f.r.i, at+1)
}

const multiLineFlow = "a flow collection ([...] or {...}) over several lines, which this reader does not read: keep it on one line, or write a block sequence or mapping"

// seq reads a flow sequence.
func (f *flow) seq() (*Node, *Problem) {
	s := &Node{Kind: Seq, Line: f.r.first + f.r.i, Col: f.i + 1}
	f.i++
	for {
		f.space()
		if f.i < len(f.s) && f.s[f.i] == ']' {
			f.i++
			return s, nil
		}
		item, p := f.node()
		if p != nil {
			return nil, p
		}
		s.Items = append(s.Items, item)
		f.space()
		switch {
		case f.i < len(f.s) && f.s[f.i] == ',':
			f.i++
		case f.i < len(f.s) && f.s[f.i] == ']':
		case f.i < len(f.s) && f.s[f.i] == ':':
			return nil, f.errorf("a key: value inside a flow sequence, which this reader does not read: write it as {key: value}")
		case f.i == len(f.s):
			return nil, f.errorf(multiLineFlow)
		default:
			return nil, f.errorf("expected , or ] in a flow sequence on this line")
		}
	}
}

// mapping reads a flow mapping.
func (f *flow) mapping() (*Node, *Problem) {
	m := &Node{Kind: Map, Line: f.r.first + f.r.i, Col: f.i + 1}
	seen := map[string]bool{}
	f.i++
	for {
		f.space()
		if f.i < len(f.s) && f.s[f.i] == '}' {
			f.i++
			return m, nil
		}
		at := f.i
		k, p := f.node()
		if p != nil {
			return nil, p
		}
		if k.Kind == Map || k.Kind == Seq {
			return nil, f.r.errAt(f.r.i, at, "a collection as a key, which JSON has not: write a plain key")
		}
		if k.Kind != String {
			return nil, f.r.errAt(f.r.i, at, "the key "+strconv.Quote(strings.TrimSpace(f.s[at:f.i]))+" is not text to JSON: quote it")
		}
		if f.i-at > maxKey {
			return nil, f.r.errAt(f.r.i, at, "a key longer than YAML allows (1024 characters): shorten it")
		}
		if seen[k.Str] {
			return nil, f.r.errAt(f.r.i, at, "the key "+strconv.Quote(k.Str)+" is written twice: keep one")
		}
		seen[k.Str] = true
		f.space()
		if f.i == len(f.s) || f.s[f.i] != ':' {
			return nil, f.errorf("expected : after the key, in a flow mapping on this line")
		}
		f.i++
		var v *Node
		if f.space(); f.i < len(f.s) && (f.s[f.i] == ',' || f.s[f.i] == '}') {
			v = &Node{Kind: Null, Line: f.r.first + f.r.i, Col: f.i + 1}
		} else if v, p = f.node(); p != nil {
			return nil, p
		}
		m.Keys, m.Values = append(m.Keys, k), append(m.Values, v)
		f.space()
		switch {
		case f.i < len(f.s) && f.s[f.i] == ',':
			f.i++
		case f.i < len(f.s) && f.s[f.i] == '}':
		case f.i == len(f.s):
			return nil, f.errorf(multiLineFlow)
		default:
			return nil, f.errorf("expected , or } in a flow mapping on this line")
		}
	}
}
