package mcpimpl_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// color is a named string type, as map keys of generated code may be.
type color string

// decodeColors decodes an object of counts keyed by colors as generated
// code does: each key checked against the colors, then converted.
func decodeColors(d *mcpimpl.Decoder, m *map[color]int) {
	if d.Object() {
		if *m == nil {
			*m = mcpimpl.NewMap(*m)
		}
		for d.NextField() {
			if !d.KeyIn([]string{"red", "green"}) {
				continue
			}
			k := color(d.Key())
			(*m)[k] = int(d.Int(64))
		}
	}
}

// TestKeyIn checks that a key of a map keyed by an enum is taken when it
// is one of the allowed and reported at its path when not, its value
// skipped, every bad key once.
func TestKeyIn(t *testing.T) {
	t.Parallel()
	var d mcpimpl.Decoder
	in := `{"red":1,"purple":"x","green":2,"a\"b":3}`
	d.Reset([]byte(in))
	var m map[color]int
	decodeColors(&d, &m)
	checkProblems(t, in, d.Finish(), []string{
		`purple: property name "purple" is not one of "red", "green"`,
		`["a\"b"]: property name "a\"b" is not one of "red", "green"`,
	})
	if want := map[color]int{"red": 1, "green": 2}; !maps.Equal(m, want) {
		t.Errorf("decoded %v, want %v", m, want)
	}
}

// TestNamedKeyHelpers checks the generic helpers with a map of a named
// string key type: a new map, its values' zero and its keys in order.
func TestNamedKeyHelpers(t *testing.T) {
	t.Parallel()
	m := map[color]int{"green": 2, "blue": 3, "red": 1}
	if got := mcpimpl.SortedKeys(m); !slices.Equal(got, []color{"blue", "green", "red"}) {
		t.Errorf("SortedKeys = %v", got)
	}
	if n := mcpimpl.NewMap(m); n == nil || len(n) != 0 {
		t.Errorf("NewMap = %v, want an empty map", n)
	}
	if z := mcpimpl.MapZero(m); z != 0 {
		t.Errorf("MapZero = %v", z)
	}
}
