package jsonv

import (
	"testing"
)

// TestRoundTrip checks that what Parse reads Marshal writes back byte for
// byte, members in their order, HTML characters unescaped.
func TestRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{"z":1,"a":{"y":[1,2.50,"x"],"b":null},"m":true,"e":false}`,
		`["<a&b>","é\n\"q\""]`,
		`{}`, `[]`, `"s"`, `-1e3`,
	} {
		v, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("Parse(%s): %v", in, err)
		}
		if got := string(Marshal(v)); got != in {
			t.Errorf("Marshal(Parse(%s)) = %s", in, got)
		}
	}
	for _, bad := range []string{`{`, `{"a":1} {}`, `[1,]`, ``} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) accepted it", bad)
		}
	}
}

func TestObjectEdits(t *testing.T) {
	v, _ := Parse([]byte(`{"a":1,"b":"x","c":["p",2,"q"]}`))
	o := v.(Object)
	o.Set("b", "y")
	o.Set("d", true)
	o.Delete("a")
	if got := string(Marshal(o)); got != `{"b":"y","c":["p",2,"q"],"d":true}` {
		t.Errorf("after edits: %s", got)
	}
	if o.String("b") != "y" || !o.Has("d") || o.Has("a") || len(o.Strings("c")) != 2 {
		t.Errorf("getters disagree with %s", Marshal(o))
	}
	if Text("s") != "s" || Text(o.Array("c")[1]) != "2" {
		t.Error("Text")
	}
}

// TestNullable checks that anyOf a typed schema and null reads as that
// schema with null in its type, and that other schemas stay as they are.
func TestNullable(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}],"description":"d"}`: `{"type":["integer","null"],"minimum":1,"description":"d"}`,
		`{"anyOf":[{"type":["string","number"]},{"type":"null"}]}`:                     `{"type":["string","number","null"]}`,
		`{"anyOf":[{"$ref":"#/$defs/A"},{"type":"null"}]}`:                             `{"anyOf":[{"$ref":"#/$defs/A"},{"type":"null"}]}`,
		`{"anyOf":[{"type":"string"},{"type":"integer"}]}`:                             `{"anyOf":[{"type":"string"},{"type":"integer"}]}`,
		`{"type":"string"}`: `{"type":"string"}`,
	} {
		v, err := Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(Marshal(Nullable(v.(Object)))); got != want {
			t.Errorf("Nullable(%s) = %s, want %s", in, got, want)
		}
	}
}
