package analyze

import (
	"bytes"
	"go/token"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// jnode is one value of a JSON file, with where it is written, so that a
// diagnostic about a schema file can point at the keyword it is about.
type jnode struct {
	pos     token.Position
	kind    byte      // '{', '[', '"', '0' (a number), 't', 'f' or 'n'
	text    string    // a string's value; a number's or literal's text
	members []jmember // an object's, in order
	items   []*jnode  // an array's
}

// jmember is one member of a JSON object: its name, where the name is
// written, and its value.
type jmember struct {
	name string
	pos  token.Position
	val  *jnode
}

// get returns the member of object n named name, or nil; of a repeated
// name, the last, as JSON Schema validators read the object.
func (n *jnode) get(name string) *jmember {
	if n == nil || n.kind != '{' {
		return nil
	}
	var m *jmember
	for i := range n.members {
		if n.members[i].name == name {
			m = &n.members[i]
		}
	}
	return m
}

// jsonParser reads a JSON file into jnodes. The file has been checked to
// be JSON already; text that is not stops the parse.
type jsonParser struct {
	path string
	data []byte
	pos  int
	ok   bool
}

// parseJSON reads data, the text of the file at path; nil when it is not
// JSON.
func parseJSON(path string, data []byte) *jnode {
	p := &jsonParser{path: path, data: data, ok: true}
	n := p.value()
	if !p.ok {
		return nil
	}
	return n
}

// at is the position of offset off in the file.
func (p *jsonParser) at(off int) token.Position {
	line := 1 + bytes.Count(p.data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(p.data[:off], '\n')
	return token.Position{Filename: p.path, Offset: off, Line: line, Column: col}
}

// value reads the value at p.pos: a single switch over its first byte.
func (p *jsonParser) value() *jnode {
	p.pos = jsonx.SkipSpace(p.data, p.pos)
	if !p.ok || p.pos >= len(p.data) {
		p.ok = false
		return nil
	}
	n := &jnode{pos: p.at(p.pos), kind: p.data[p.pos]}
	var end, bad int
	switch n.kind {
	case '{':
		p.object(n)
		return n
	case '[':
		p.array(n)
		return n
	case '"':
		n.text, end, bad = p.str()
	case 't':
		end, bad = jsonx.LiteralEnd(p.data, p.pos, "true")
	case 'f':
		end, bad = jsonx.LiteralEnd(p.data, p.pos, "false")
	case 'n':
		end, bad = jsonx.LiteralEnd(p.data, p.pos, "null")
	default:
		n.kind = '0'
		end, bad = jsonx.NumberEnd(p.data, p.pos)
	}
	if bad >= 0 {
		p.ok = false
		return n
	}
	if n.kind != '"' {
		n.text = string(p.data[p.pos:end])
	}
	p.pos = end
	return n
}

// str reads the string at p.pos and returns its value.
func (p *jsonParser) str() (string, int, int) {
	end, escaped, _, bad := jsonx.StringEnd(p.data, p.pos)
	if bad >= 0 {
		return "", 0, bad
	}
	body := p.data[p.pos+1 : end-1]
	if escaped {
		body, _ = jsonx.Unescape(nil, body)
	}
	return string(body), end, -1
}

// object reads the members of the object at p.pos into n.
func (p *jsonParser) object(n *jnode) {
	p.pos++
	for p.ok {
		p.pos = jsonx.SkipSpace(p.data, p.pos)
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return
		}
		if len(n.members) > 0 && !p.expect(',') {
			return
		}
		if p.pos = jsonx.SkipSpace(p.data, p.pos); p.pos >= len(p.data) || p.data[p.pos] != '"' {
			p.ok = false
			return
		}
		m := jmember{pos: p.at(p.pos)}
		name, end, bad := p.str()
		if bad >= 0 {
			p.ok = false
			return
		}
		m.name, p.pos = name, end
		if !p.expect(':') {
			return
		}
		m.val = p.value()
		n.members = append(n.members, m)
	}
}

// array reads the items of the array at p.pos into n.
func (p *jsonParser) array(n *jnode) {
	p.pos++
	for p.ok {
		p.pos = jsonx.SkipSpace(p.data, p.pos)
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return
		}
		if len(n.items) > 0 && !p.expect(',') {
			return
		}
		n.items = append(n.items, p.value())
	}
}

// expect consumes c after white space, or stops the parse.
func (p *jsonParser) expect(c byte) bool {
	p.pos = jsonx.SkipSpace(p.data, p.pos)
	if p.pos >= len(p.data) || p.data[p.pos] != c {
		p.ok = false
		return false
	}
	p.pos++
	return true
}

// number returns a number node's value; false for another node or one
// out of float64's range.
func (n *jnode) number() (float64, bool) {
	if n == nil || n.kind != '0' {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.text, 64)
	return f, err == nil
}

// count returns the value of a node that must be a non-negative integer
// (minLength, minItems, ...); false for anything else.
func (n *jnode) count() (int, bool) {
	f, ok := n.number()
	if !ok || f < 0 || f != float64(int(f)) || f > 1<<31 {
		return 0, false
	}
	return int(f), true
}
