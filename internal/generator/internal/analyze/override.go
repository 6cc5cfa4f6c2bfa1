package analyze

import (
	"bytes"
	"encoding/json"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
)

// jsonKey is a member name of a JSON object and where it is written.
type jsonKey struct {
	name string
	pos  token.Position
}

// checkOverride compares the properties of a schema file given with
// output= with the wire names of the Go struct it stands for, which the
// result's encoder writes, so the two must name the same properties. (An
// input= file is matched with the Go type at every depth, see
// inputfile.go.) A property of the file the struct lacks is reported at its
// key; a field the file lacks at the file's "properties" key.
func (a *analyzer) checkOverride(s annotations.String, t *model.Type) {
	if t == nil || t.Kind != model.Struct {
		return
	}
	path := filepath.Join(filepath.Dir(a.in.Fset.Position(s.Pos).Filename), s.Value)
	data, err := a.in.ReadFile(path)
	if err != nil {
		return // schemaFile has reported it
	}
	propsAt, keys, ok := propertyKeys(path, data)
	if !ok {
		propsAt = a.in.Fset.Position(s.Pos)
	}
	wire := map[string]bool{}
	var names []string
	for _, f := range t.Fields {
		wire[f.WireName] = true
		names = append(names, f.WireName)
	}
	inFile := map[string]bool{}
	for _, k := range keys {
		inFile[k.name] = true
		if !wire[k.name] {
			a.diagAt(k.pos, "schema file %s: property %q is not a field of the Go type (its properties: %s)", s.Value, k.name, strings.Join(names, ", "))
		}
	}
	for _, n := range names {
		if !inFile[n] {
			a.diagAt(propsAt, "schema file %s: property %q of the Go type is missing from \"properties\"", s.Value, n)
		}
	}
}

func (a *analyzer) diagAt(pos token.Position, format string, args ...any) {
	a.diags = append(a.diags, diag.Errorf(pos, format, args...))
}

func (a *analyzer) warnAt(pos token.Position, format string, args ...any) {
	a.diags = append(a.diags, diag.Warningf(pos, format, args...))
}

// propertyKeys finds the "properties" member of the top-level object in
// data and returns its position and the keys of its value, positioned.
func propertyKeys(path string, data []byte) (token.Position, []jsonKey, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return token.Position{}, nil, false
	}
	for dec.More() {
		at := keyStart(data, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return token.Position{}, nil, false
		}
		if tok != "properties" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return token.Position{}, nil, false
			}
			continue
		}
		keys, ok := objectKeys(path, data, dec)
		return position(path, data, at), keys, ok
	}
	return token.Position{}, nil, false
}

// objectKeys reads an object's members from dec, returning its keys.
func objectKeys(path string, data []byte, dec *json.Decoder) ([]jsonKey, bool) {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var keys []jsonKey
	for dec.More() {
		at := keyStart(data, dec.InputOffset())
		tok, err := dec.Token()
		name, isStr := tok.(string)
		if err != nil || !isStr {
			return nil, false
		}
		keys = append(keys, jsonKey{name, position(path, data, at)})
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil, false
		}
	}
	return keys, true
}

// keyStart skips the separators after off: the offset of the next key.
func keyStart(data []byte, off int64) int {
	i := int(off)
	for i < len(data) && strings.IndexByte(" \t\r\n,", data[i]) >= 0 {
		i++
	}
	return i
}

// position converts a byte offset of data to a line and column.
func position(path string, data []byte, off int) token.Position {
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return token.Position{Filename: path, Offset: off, Line: line, Column: col}
}
