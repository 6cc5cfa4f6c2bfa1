// Package skillfile reads Agent Skills as SEP-2640 serves them: the YAML
// frontmatter of a SKILL.md, the rules a skill must follow, the skill://
// URIs of its files and their media types.
//
// It imports only the standard library, so that package mcprt can check
// skills at run time (mcprt.SkillsFS) with the same rules the generator
// checks at go generate. The frontmatter reader is small on purpose (see
// [Read]): it reads the YAML that frontmatter is written in and refuses the
// rest with a positioned message, and a differential test holds it to a
// full YAML library on everything it accepts.
package skillfile

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// The limits and names of SEP-2640 and the Agent Skills specification.
const (
	Manifest       = "SKILL.md"                 // the file that makes a directory a skill
	MaxFiles       = 512                        // files a skill should have at most, SKILL.md included
	MaxBytes       = 16 << 20                   // bytes a skill's files should hold at most
	MaxName        = 64                         // characters of a skill name
	MaxDescription = 1024                       // characters of a description
	MaxCompat      = 500                        // characters of compatibility
	ReservedPrefix = "io.modelcontextprotocol/" // metadata keys reserved for MCP extensions
	DirectoryMIME  = "inode/directory"          // the media type of a directory resource
	ManifestMIME   = "text/markdown"            // the media type of SKILL.md
)

// Problem is one thing wrong with a skill: in File (a path below the
// skill root, "refunds/SKILL.md"; "" for the set as a whole), at Line and
// Col when they are known (1-based; 0 otherwise).
type Problem struct {
	File      string
	Line, Col int
	Msg       string
}

// Error returns the problem as file:line:col: message, leaving out what is
// not known.
func (p *Problem) Error() string {
	s := p.File
	if p.Line > 0 {
		s += ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
	}
	if s == "" {
		return p.Msg
	}
	return s + ": " + p.Msg
}

// Kind is the kind of a frontmatter value.
type Kind int

// The kinds of values, as JSON has them.
const (
	Null Kind = iota
	Bool
	Int
	Float
	String
	Map
	Seq
)

// Node is one value of a frontmatter, where it was written. Both the
// reader of this package and the generator's YAML library build Nodes, so
// that the rules and the JSON rendering are one code for both.
type Node struct {
	Kind      Kind
	Line, Col int // in SKILL.md, 1-based
	Str       string
	Bool      bool
	Int       int64
	Float     float64
	Keys      []*Node // Map: the keys, strings, in the order written
	Values    []*Node // Map: the value of each key
	Items     []*Node // Seq
}

// Get returns the value of key in a Map node, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Map {
		return nil
	}
	for i, k := range n.Keys {
		if k.Str == key {
			return n.Values[i]
		}
	}
	return nil
}

// AppendJSON appends n as JSON: maps keep the order their keys were
// written in.
func (n *Node) AppendJSON(dst []byte) []byte {
	switch n.Kind {
	case Bool:
		return strconv.AppendBool(dst, n.Bool)
	case Int:
		return strconv.AppendInt(dst, n.Int, 10)
	case Float:
		return jsonx.AppendFloat(dst, n.Float, 64)
	case String:
		return jsonx.AppendString(dst, n.Str)
	case Map:
		dst = append(dst, '{')
		for i, k := range n.Keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(jsonx.AppendString(dst, k.Str), ':')
			dst = n.Values[i].AppendJSON(dst)
		}
		return append(dst, '}')
	case Seq:
		dst = append(dst, '[')
		for i, it := range n.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = it.AppendJSON(dst)
		}
		return append(dst, ']')
	}
	return append(dst, "null"...)
}

// Frontmatter is the frontmatter block of a SKILL.md: its text and the
// line of SKILL.md its first line is on.
type Frontmatter struct {
	Text []byte
	Line int
}

// Split finds the frontmatter of a SKILL.md: the file opens with a line
// "---" (after an optional byte order mark) and the block ends at the
// next line that is "---", trailing spaces and tabs allowed. This is the
// block hosts read, so it is the one checked.
func Split(src []byte) (*Frontmatter, *Problem) {
	if !utf8.Valid(src) {
		return nil, &Problem{Line: 1, Col: 1, Msg: "SKILL.md is not UTF-8 text"}
	}
	body := bytes.TrimPrefix(src, []byte("\uFEFF"))
	rest, ok := bytes.CutPrefix(body, []byte("---\n"))
	if !ok {
		rest, ok = bytes.CutPrefix(body, []byte("---\r\n"))
	}
	if !ok {
		return nil, &Problem{Line: 1, Col: 1, Msg: "SKILL.md does not begin with YAML frontmatter: make its first line --- and close the block with another ---"}
	}
	// The block is empty when the closing line follows at once; otherwise
	// it ends before the line break of the first closing line.
	line := 2
	for at := 0; at <= len(rest); {
		end := bytes.IndexByte(rest[at:], '\n')
		next := len(rest)
		if end >= 0 {
			next = at + end + 1
			end += at
		} else {
			end = len(rest)
		}
		if isClosing(rest[at:end]) {
			text := rest[:max(at-1, 0)]
			text = bytes.TrimSuffix(text, []byte("\r"))
			if at == 0 {
				return nil, &Problem{Line: line, Col: 1, Msg: "the frontmatter is empty: it needs name and description"}
			}
			return &Frontmatter{Text: text, Line: 2}, nil
		}
		if end == len(rest) {
			break
		}
		at = next
		line++
	}
	return nil, &Problem{Line: 1, Col: 1, Msg: "the frontmatter is not closed: end it with a line ---"}
}

// isClosing reports whether line (without its "\n") closes the
// frontmatter: "---", then spaces and tabs, then an optional "\r".
func isClosing(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("---"))
	if !ok {
		return false
	}
	rest = bytes.TrimSuffix(rest, []byte("\r"))
	return len(bytes.Trim(rest, " \t")) == 0
}
