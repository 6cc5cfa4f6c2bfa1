package jsonx

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMembers walks objects member by member, and tells a malformed
// object from valid JSON of another kind.
func TestMembers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in          string
		want        string // key=name:value;...
		ok, another bool
	}{
		{` {"a": 1, "b" :[1,{"c":2}], "\u0064":"x"} `, `"a"=a:1;"b"=b:[1,{"c":2}];"\u0064"=d:"x";`, true, false},
		{`{}`, ``, true, false},
		{`[1]`, ``, false, true},
		{`"s"`, ``, false, true},
		{`{"a":1,}`, `"a"=a:1;`, false, false},
		{`{"a":1} x`, `"a"=a:1;`, false, false},
		{`{"a" 1}`, ``, false, false},
		{`{"a":tru}`, ``, false, false},
		{``, ``, false, false},
		{`{"a":` + strings.Repeat("[", MaxNesting) + strings.Repeat("]", MaxNesting) + `}`, ``, false, false},
	} {
		var got strings.Builder
		ok, another := Members([]byte(c.in), func(key, name, value []byte) {
			got.WriteString(string(key) + "=" + string(name) + ":" + string(value) + ";")
		})
		if got.String() != c.want || ok != c.ok || another != c.another {
			t.Errorf("Members(%.40q) = %q %v %v, want %q %v %v", c.in, got.String(), ok, another, c.want, c.ok, c.another)
		}
		if ok && !json.Valid([]byte(c.in)) {
			t.Errorf("Members(%.40q) took text encoding/json refuses", c.in)
		}
	}
}
