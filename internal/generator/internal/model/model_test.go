package model

import "testing"

// TestIdent checks the identifier fragments generated names derive from:
// distinct for each instantiation of a generic type, and T_F for methods.
func TestIdent(t *testing.T) {
	t.Parallel()
	str := &Type{Kind: String, Basic: "string"}
	item := &Type{Kind: Struct, Named: &GoName{Name: "Item"}}
	for _, c := range []struct {
		typ  *Type
		want string
	}{
		{str, "string"},
		{&Type{Kind: Struct, Named: &GoName{Name: "Page", Args: []*Type{item}}}, "Page_Item"},
		{&Type{Kind: Struct, Named: &GoName{Name: "Pair", Args: []*Type{str, {Kind: Bool, Basic: "bool"}}}}, "Pair_string_bool"},
		{&Type{Kind: Struct, Named: &GoName{Name: "Page", Args: []*Type{{Kind: Slice, Elem: &Type{Kind: Int, Basic: "int"}}}}}, "Page_slice_int"},
		{&Type{Kind: Array, Len: 12, Elem: &Type{Kind: Pointer, Elem: item}}, "array12_ptr_Item"},
		{&Type{Kind: Map, Elem: &Type{Kind: Bytes}}, "map_bytes"},
	} {
		if got := c.typ.Ident(); got != c.want {
			t.Errorf("Ident() = %q, want %q", got, c.want)
		}
	}
	if got := (&Func{FuncName: "F"}).GoIdent(); got != "F" {
		t.Errorf("GoIdent of a function = %q, want F", got)
	}
	if got := (&Func{FuncName: "F", Recv: &Receiver{Name: "T"}}).GoIdent(); got != "T_F" {
		t.Errorf("GoIdent of a method = %q, want T_F", got)
	}
}

// TestArgumentDescription checks that a prompt argument's description says
// the values of its enum: the tag's, else its type's constants, with their
// doc comments when they have some.
func TestArgumentDescription(t *testing.T) {
	t.Parallel()
	plain := &Type{Kind: String, Enum: []EnumValue{{JSON: `"brief"`}, {JSON: `"long"`}}}
	documented := &Type{Kind: String, Enum: []EnumValue{{JSON: `"brief"`, Doc: "one sentence"}, {JSON: `"long"`}}}
	for _, tc := range []struct {
		f    Field
		want string
	}{
		{Field{Doc: "Style", Type: &Type{Kind: String}}, "Style"},
		{Field{Doc: "Style", Type: &Type{Kind: Pointer, Elem: plain}}, "Style\n\nOne of: \"brief\", \"long\"."},
		{Field{Type: plain}, "One of: \"brief\", \"long\"."},
		{Field{Doc: "Style", Type: documented}, "Style\n\nValues:\n- \"brief\": one sentence\n- \"long\""},
		{Field{Doc: "Level", Type: &Type{Kind: Int}, Constraints: Constraints{Enum: []EnumValue{{JSON: "1"}, {JSON: "2"}}}}, "Level\n\nOne of: 1, 2."},
		{Field{Doc: "Style", Type: documented, Constraints: Constraints{Enum: []EnumValue{{JSON: `"brief"`}}}}, "Style\n\nOne of: \"brief\"."},
	} {
		if got := tc.f.ArgumentDescription(); got != tc.want {
			t.Errorf("ArgumentDescription of %q = %q, want %q", tc.f.Doc, got, tc.want)
		}
	}
}
