package annotations

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCatalogDirectivesGood(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want any
	}{
		{`//mcp:tool group=billing group=payments pin`, &Tool{Pos: base,
			Groups: []String{{"billing", p(11), true}, {"payments", p(25), true}}, Pin: Bool{true, p(40), true}}},
		{`//mcp:prompt group=a.b-c`, &Prompt{Pos: base, Groups: []String{{"a.b-c", p(13), true}}}},
		{`//mcp:resource uri=kb://x group=kb`, &Resource{Pos: base, URI: String{"kb://x", p(15), true},
			Template: URITemplate{Parts: []URIPart{{Literal: "kb://x"}}}, Groups: []String{{"kb", p(26), true}}}},
		{`//mcp:group billing title="Billing" description='Invoices and payments'`, &Group{Pos: base,
			Name: String{"billing", p(12), true}, Title: String{"Billing", p(20), true}, Description: String{"Invoices and payments", p(36), true}}},
		{`//mcp:group billing`, &Group{Pos: base, Name: String{"billing", p(12), true}}},
		{`//mcp:search`, &Search{Pos: base}},
	}
	for _, tt := range tests {
		got, errs := ParseDirective(base, tt.in)
		if len(errs) > 0 {
			t.Errorf("ParseDirective(%q): unexpected errors %v", tt.in, errs)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseDirective(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestParseCatalogDirectivesBad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []wantErr
	}{
		{`//mcp:tool group=a group=a`, []wantErr{{19, `group "a" is given twice`}}},
		{`//mcp:tool group="a b"`, []wantErr{{11, `bad group name "a b": character ' ' is not allowed (use A-Z, a-z, 0-9, '_', '.', '-')`}}},
		{`//mcp:tool group`, []wantErr{{11, `key "group" needs a value`}}},
		{`//mcp:tool pin=maybe`, []wantErr{{11, `bad value "maybe" for key "pin": want true or false`}}},
		{`//mcp:tool pin pin`, []wantErr{{15, `repeated key "pin"`}}},
		{`//mcp:prompt group=x/y`, []wantErr{{13, `bad group name "x/y": character '/' is not allowed (use A-Z, a-z, 0-9, '_', '.', '-')`}}},
		{`//mcp:group`, []wantErr{{0, `missing group name: want //mcp:group NAME [title=TEXT] [description=TEXT]`}}},
		{`//mcp:group title=x`, []wantErr{{0, `missing group name: want //mcp:group NAME [title=TEXT] [description=TEXT]`}}},
		{`//mcp:group a/b`, []wantErr{{12, `bad group name "a/b": character '/' is not allowed (use A-Z, a-z, 0-9, '_', '.', '-')`}}},
		{`//mcp:group a titel=x`, []wantErr{{14, `unknown key "titel"; did you mean "title"? (valid keys: title, description)`}}},
		{`//mcp:group a title=x title=y`, []wantErr{{22, `repeated key "title"`}}},
		{`//mcp:search x`, []wantErr{{13, `//mcp:search takes no arguments`}}},
		{`//mcp:serach`, []wantErr{{6, `unknown directive //mcp:serach; did you mean //mcp:search?`}}},
	}
	for _, tt := range tests {
		_, errs := ParseDirective(base, tt.in)
		if diff := cmp.Diff(tt.want, offsets(errs)); diff != "" {
			t.Errorf("ParseDirective(%q) errors mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}
