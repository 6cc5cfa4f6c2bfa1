package wire

import (
	"bytes"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// This file wraps the schema of a value that is not an object as the
// property "result" of an object schema, for the revisions whose output
// schemas are objects. A wrapped schema must still resolve: its $defs move
// to the root, where its references "#/$defs/..." point, and any other
// reference into the document gains the path of the property. It walks
// the schema with jsonx's scanners, as the rest of the runtime reads JSON,
// because a tree of encoding/json would lose the order of the properties,
// which clients show.

// resultPointer is where a wrapped schema sits in its wrapper.
const resultPointer = "/properties/result"

// appendWrapped appends schema wrapped as the required property "result"
// of an object schema, its $schema and $defs moved to the wrapper.
func appendWrapped(dst, schema []byte) []byte {
	if !bytes.Contains(schema, []byte(`"$`)) && !bytes.Contains(schema, []byte(`\u`)) {
		return plainWrap(dst, schema) // no keyword that refers or declares: most schemas
	}
	members, ok := objectMembers(schema)
	if !ok || hasMember(members, "$id") {
		// Not an object schema, or a resource of its own, whose references
		// resolve against its $id wherever it sits.
		return plainWrap(dst, schema)
	}
	var defs, dialect []byte
	value := []byte{'{'} // the schema less what moves
	for _, m := range members {
		switch string(m.name) {
		case "$defs":
			defs = m.value
		case "$schema":
			dialect = m.value
		default:
			if len(value) > 1 {
				value = append(value, ',')
			}
			value = append(append(append(value, m.key...), ':'), m.value...)
		}
	}
	value = append(value, '}')
	dst = append(dst, '{')
	if dialect != nil {
		dst = append(append(append(dst, `"$schema":`...), dialect...), ',')
	}
	dst = append(dst, `"type":"object","properties":{"result":`...)
	dst, _ = rebase(dst, value, 0)
	dst = append(dst, `},"required":["result"]`...)
	if defs != nil {
		dst = append(dst, `,"$defs":`...)
		dst, _ = rebaseValue(dst, defs, 0, true)
	}
	return append(dst, '}')
}

func plainWrap(dst, schema []byte) []byte {
	dst = append(dst, `{"type":"object","properties":{"result":`...)
	dst = append(dst, schema...)
	return append(dst, `},"required":["result"]}`...)
}

// member is one member of a JSON object: its key as written, the key's
// text, and its value.
type member struct {
	key, name, value []byte
}

// objectMembers splits the JSON object b into its members, or reports
// false when b is not one.
func objectMembers(b []byte) ([]member, bool) {
	var ms []member
	ok, _ := jsonx.Members(b, func(key, name, value []byte) {
		ms = append(ms, member{key: key, name: name, value: value})
	})
	return ms, ok
}

// readKey reads the key at b[i] of a valid object and its colon. It
// returns the key as written, its text and the offset after the colon.
func readKey(b []byte, i int) (key, name []byte, next int) {
	end, escaped, _, _ := jsonx.StringEnd(b, i)
	key, name = b[i:end], b[i+1:end-1]
	if escaped {
		name, _ = jsonx.Unescape(nil, name)
	}
	return key, name, jsonx.SkipSpace(b, end) + 1
}

func hasMember(ms []member, name string) bool {
	for _, m := range ms {
		if string(m.name) == name {
			return true
		}
	}
	return false
}

// rebase appends the valid JSON schema at b[i] without white space, each
// $ref into the document that does not name one of its $defs moved under
// the wrapper's "result", and returns the offset after the schema. Values
// of keywords that hold data (const, default, enum, examples) are copied
// as they are, and the values of keywords that map names to schemas
// (properties, $defs, ...) are read as schemas whatever their names.
func rebase(dst, b []byte, i int) ([]byte, int) {
	return rebaseValue(dst, b, i, false)
}

// rebaseValue is rebase of a schema, or, when names is set, of an object
// whose every member is one.
func rebaseValue(dst, b []byte, i int, names bool) ([]byte, int) {
	i = jsonx.SkipSpace(b, i)
	switch b[i] {
	case '{':
		dst = append(dst, '{')
		for i++; ; {
			i = jsonx.SkipSpace(b, i)
			switch b[i] {
			case '}':
				return append(dst, '}'), i + 1
			case ',':
				dst, i = append(dst, ','), i+1
			}
			key, name, next := readKey(b, jsonx.SkipSpace(b, i))
			dst = append(append(dst, key...), ':')
			i = jsonx.SkipSpace(b, next)
			switch kw := string(name); {
			case names:
				dst, i = rebaseValue(dst, b, i, false)
			case kw == "$ref" && b[i] == '"':
				end, escaped, _, _ := jsonx.StringEnd(b, i)
				ref := b[i+1 : end-1]
				if escaped {
					ref, _ = jsonx.Unescape(nil, ref)
				}
				dst, i = jsonx.AppendString(dst, rebaseRef(string(ref))), end
			case kw == "const" || kw == "default" || kw == "enum" || kw == "examples":
				end, _ := jsonx.ValueEnd(b, i, len(b))
				dst, i = append(dst, b[i:end]...), end
			default:
				named := kw == "properties" || kw == "patternProperties" || kw == "$defs" || kw == "definitions" || kw == "dependentSchemas"
				dst, i = rebaseValue(dst, b, i, named)
			}
		}
	case '[':
		dst = append(dst, '[')
		for i++; ; {
			i = jsonx.SkipSpace(b, i)
			switch b[i] {
			case ']':
				return append(dst, ']'), i + 1
			case ',':
				dst, i = append(dst, ','), i+1
			}
			dst, i = rebaseValue(dst, b, i, false)
		}
	}
	end, _ := jsonx.ValueEnd(b, i, 0)
	return append(dst, b[i:end]...), end
}

// rebaseRef returns ref as it reads from the wrapper: a reference to the
// moved $defs stays; any other into the document ("#", "#/items", ...)
// gains the path of "result"; one to another document or an anchor is
// left alone.
func rebaseRef(ref string) string {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || frag != "" && frag[0] != '/' || frag == "/$defs" || strings.HasPrefix(frag, "/$defs/") {
		return ref
	}
	return "#" + resultPointer + frag
}
