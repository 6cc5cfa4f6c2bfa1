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
