// Package jsonv reads and writes JSON values keeping the order of object
// members. The generator's schemas list properties in struct field order;
// -doc documents them in that order, -lint names them by it, and the
// portable form rewrites a schema without reordering it, so a plain
// map[string]any, which forgets the order, will not do.
package jsonv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Member is one member of an object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object, its members in document order. Values are
// Object, []any, json.Number, string, bool or nil.
type Object []Member

// Get returns the value of key and whether the object has it.
func (o Object) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Has reports whether the object has key.
func (o Object) Has(key string) bool {
	_, ok := o.Get(key)
	return ok
}

// Types returns the type names a schema's "type" keyword holds: one for a
// string, the strings of a list, nil when it has none (any type).
func (o Object) Types() []string {
	switch t, _ := o.Get("type"); t := t.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if name, ok := x.(string); ok {
				out = append(out, name)
			}
		}
		return out
	}
	return nil
}

// Nullable returns the schema s with null written into its type when s
// is anyOf a schema with a type and {"type":"null"}, as mcpgen writes a
// property that takes null for absent: that schema, null added to its
// type, with the other keywords of s. Any other s is returned as it is.
func Nullable(s Object) Object {
	branches := s.Array("anyOf")
	if len(branches) != 2 {
		return s
	}
	value, ok := branches[0].(Object)
	null, _ := branches[1].(Object)
	types := value.Types()
	if !ok || len(types) == 0 || len(null) != 1 || null.String("type") != "null" {
		return s
	}
	out := append(Object(nil), value...)
	for _, m := range s {
		if m.Key != "anyOf" {
			out.Set(m.Key, m.Value)
		}
	}
	list := make([]any, 0, len(types)+1)
	for _, t := range types {
		list = append(list, t)
	}
	out.Set("type", append(list, "null"))
	return out
}

// Object returns the value of key when it is an object.
func (o Object) Object(key string) (Object, bool) {
	v, _ := o.Get(key)
	obj, ok := v.(Object)
	return obj, ok
}

// String returns the value of key when it is a string.
func (o Object) String(key string) string {
	v, _ := o.Get(key)
	s, _ := v.(string)
	return s
}

// Array returns the value of key when it is an array.
func (o Object) Array(key string) []any {
	v, _ := o.Get(key)
	a, _ := v.([]any)
	return a
}

// Strings returns the string items of the array at key.
func (o Object) Strings(key string) []string {
	var out []string
	for _, v := range o.Array(key) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Set replaces the value of key, or appends the member when the object
// lacks it.
func (o *Object) Set(key string, v any) {
	for i := range *o {
		if (*o)[i].Key == key {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, Member{key, v})
}

// Delete removes key.
func (o *Object) Delete(key string) {
	for i := range *o {
		if (*o)[i].Key == key {
			*o = append((*o)[:i:i], (*o)[i+1:]...)
			return
		}
	}
}

// Parse reads one JSON value.
func Parse(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := value(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("jsonv: data after the value")
	}
	return v, nil
}

// value reads the value whose first token comes next.
func value(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		return object(dec)
	case json.Delim('['):
		return array(dec)
	}
	return tok, nil // string, json.Number, bool or nil
}

func object(dec *json.Decoder) (Object, error) {
	obj := Object{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string) // the decoder only gives a string here
		v, err := value(dec)
		if err != nil {
			return nil, err
		}
		obj = append(obj, Member{key, v})
	}
	_, err := dec.Token() // '}'
	return obj, err
}

func array(dec *json.Decoder) ([]any, error) {
	arr := []any{}
	for dec.More() {
		v, err := value(dec)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	_, err := dec.Token() // ']'
	return arr, err
}

// Marshal writes v compactly, members in order, without escaping HTML
// characters, as the generator writes schemas.
func Marshal(v any) []byte {
	var b bytes.Buffer
	write(&b, v)
	return b.Bytes()
}

func write(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case Object:
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, m.Key)
			b.WriteByte(':')
			write(b, m.Value)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			write(b, x)
		}
		b.WriteByte(']')
	case string:
		writeString(b, v)
	case json.Number:
		b.WriteString(string(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	default:
		panic(fmt.Sprintf("jsonv: cannot write %T", v)) // only Parse's values and those above are written
	}
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}

// Text returns a scalar as it is written in JSON: a string unquoted, a
// number as written; a composite value compactly.
func Text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(Marshal(v))
}
