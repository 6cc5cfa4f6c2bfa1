package annotations

import (
	"go/token"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// base is the position given to the parsers; expected positions are
// written as offsets from it.
const base = token.Pos(1000)

// p returns the position off bytes after base.
func p(off int) token.Pos { return base + token.Pos(off) }

// wantErr is an expected error: its offset from base and its message.
type wantErr struct {
	Off int
	Msg string
}

// offsets turns errors into wantErrs for comparison.
func offsets(errs []Error) []wantErr {
	var out []wantErr
	for _, e := range errs {
		out = append(out, wantErr{int(e.Pos - base), e.Msg})
	}
	return out
}

func TestParseDirectiveGood(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`//mcp:tool`, &Tool{Pos: base}},
		{`//mcp:skills`, &Skills{Pos: base}},
		{`//mcp:skills scope="kb.read kb.write"`, &Skills{Pos: base, Scopes: List{[]string{"kb.read", "kb.write"}, p(13), true}}},
		{`//mcp:tool scope="kb:read  kb:write" name=x`, &Tool{Pos: base, Scopes: List{[]string{"kb:read", "kb:write"}, p(11), true}, Name: String{"x", p(37), true}}},
		{`//mcp:tool scope=https://api.example.com/!#[]~`, &Tool{Pos: base, Scopes: List{[]string{"https://api.example.com/!#[]~"}, p(11), true}}},
		{
			`//mcp:tool name=bulk_price_update title="Bulk price update" readonly idempotent=true openworld=false task=optional`,
			&Tool{
				Pos:        base,
				Name:       String{"bulk_price_update", p(11), true},
				Title:      String{"Bulk price update", p(34), true},
				ReadOnly:   Bool{true, p(60), true},
				Idempotent: Bool{true, p(69), true},
				OpenWorld:  Bool{false, p(85), true},
				Task:       String{"optional", p(101), true},
			},
		},
		{
			"//mcp:tool\tdescription=\"say \\\"hi\\\"\\tnow\"  input=`in put.json` output=out.json destructive=true   ",
			&Tool{
				Pos:         base,
				Description: String{"say \"hi\"\tnow", p(11), true},
				Input:       String{"in put.json", p(42), true},
				Output:      String{"out.json", p(62), true},
				Destructive: Bool{true, p(78), true},
			},
		},
		{
			`//mcp:tool readonly destructive=false title="" name=a.b-C_9 task=forbidden`,
			&Tool{
				Pos:         base,
				ReadOnly:    Bool{true, p(11), true},
				Destructive: Bool{false, p(20), true},
				Title:       String{"", p(38), true},
				Name:        String{"a.b-C_9", p(47), true},
				Task:        String{"forbidden", p(60), true},
			},
		},
		{
			`//mcp:tool name=` + strings.Repeat("x", 128),
			&Tool{Pos: base, Name: String{strings.Repeat("x", 128), p(11), true}},
		},
		{
			`//mcp:param a description="The a" min=1 enum=x|y`,
			&Param{
				Pos:  base,
				Name: String{"a", p(12), true},
				Tag: Tag{
					Pos:  base,
					Desc: String{"The a", p(14), true},
					Min:  Number{1, "1", p(34), true},
					Enum: List{[]string{"x", "y"}, p(40), true},
				},
			},
		},
		{
			`//mcp:param count min=0 max=100 multipleOf=0.5 required minLength=0 pattern="^a, b$" uniqueItems=false`,
			&Param{
				Pos:  base,
				Name: String{"count", p(12), true},
				Tag: Tag{
					Pos:         base,
					Min:         Number{0, "0", p(18), true},
					Max:         Number{100, "100", p(24), true},
					MultipleOf:  Number{0.5, "0.5", p(32), true},
					Required:    Bool{true, p(47), true},
					MinLength:   Int{0, p(56), true},
					Pattern:     String{"^a, b$", p(68), true},
					UniqueItems: Bool{false, p(85), true},
				},
			},
		},
		{
			`//mcp:param city complete=completeCity description=City`,
			&Param{
				Pos:  base,
				Name: String{"city", p(12), true},
				Tag: Tag{
					Pos:      base,
					Complete: String{"completeCity", p(17), true},
					Desc:     String{"City", p(39), true},
				},
			},
		},
		{
			`//mcp:param _x desc=d`,
			&Param{Pos: base, Name: String{"_x", p(12), true}, Tag: Tag{Pos: base, Desc: String{"d", p(15), true}}},
		},
		{
			`//mcp:icon src=https://example.com/i.png?a=b mime=image/png sizes=48x48,any,16x16 theme=dark`,
			&Icon{
				Pos:   base,
				Src:   String{"https://example.com/i.png?a=b", p(11), true},
				MIME:  String{"image/png", p(45), true},
				Sizes: List{[]string{"48x48", "any", "16x16"}, p(60), true},
				Theme: String{"dark", p(82), true},
			},
		},
		{
			`//mcp:tool ui=ui://kb/viewer visibility=app|model`,
			&Tool{Pos: base, UI: String{"ui://kb/viewer", p(11), true}, Visibility: List{[]string{"app", "model"}, p(29), true}},
		},
		{`//mcp:icon src="data:image/png;base64,AAAA"`, &Icon{Pos: base, Src: String{"data:image/png;base64,AAAA", p(11), true}}},
		// Not directives at all.
		{`// mcp:tool`, nil},
		{`//go:generate mcpgen`, nil},
		{`// plain text`, nil},
		{`//mcptool`, nil},
		{`/* //mcp:tool */`, nil},
		{``, nil},
	}
	for _, tt := range tests {
		got, errs := ParseDirective(base, tt.in)
		if len(errs) > 0 {
			t.Errorf("ParseDirective(%q): unexpected errors %v", tt.in, offsets(errs))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseDirective(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

const toolKeyList = "(valid keys: name, title, description, readonly, destructive, idempotent, openworld, task, input, output, ui, visibility, scope, nolint, group, pin)"

const paramKeyList = "(valid keys: required, optional, enum, noenum, desc, title, default, min, max, exclusiveMin, exclusiveMax, multipleOf, minLength, maxLength, pattern, format, minItems, maxItems, uniqueItems, complete, header, nolint, description)"

func TestParseDirectiveBad(t *testing.T) {
	tests := []struct {
		in   string
		want []wantErr
	}{
		{`//mcp:tool titel="x"`, []wantErr{{11, `unknown key "titel"; did you mean "title"? ` + toolKeyList}}},
		{`//mcp:tool readOnly`, []wantErr{{11, `unknown key "readOnly"; did you mean "readonly"? ` + toolKeyList}}},
		{`//mcp:tool zzz=1`, []wantErr{{11, `unknown key "zzz" ` + toolKeyList}}},
		{`//mcp:tool title=a title=b`, []wantErr{{19, `repeated key "title"`}}},
		{`//mcp:tool title`, []wantErr{{11, `key "title" needs a value`}}},
		{`//mcp:tool title= name=x`, []wantErr{{11, `key "title" needs a value`}}},
		{`//mcp:tool name`, []wantErr{{11, `key "name" needs a value`}}},
		{`//mcp:tool destructive=yes`, []wantErr{{11, `bad value "yes" for key "destructive": want true or false`}}},
		{`//mcp:tool readonly=`, []wantErr{{11, `bad value "" for key "readonly": want true or false`}}},
		{`//mcp:tool task=sometimes`, []wantErr{{11, `bad value "sometimes" for key "task" (valid: forbidden, optional, required)`}}},
		{`//mcp:tool task=optinal`, []wantErr{{11, `bad value "optinal" for key "task"; did you mean "optional"? (valid: forbidden, optional, required)`}}},
		{`//mcp:tool task`, []wantErr{{11, `key "task" needs a value`}}},
		{`//mcp:tool name="a b"`, []wantErr{{11, `bad tool name "a b": character ' ' is not allowed (use A-Z, a-z, 0-9, '_', '.', '-')`}}},
		{`//mcp:tool name=""`, []wantErr{{11, `bad tool name "": want 1 to 128 characters of A-Z, a-z, 0-9, '_', '.', '-'`}}},
		{`//mcp:tool name=` + strings.Repeat("x", 129), []wantErr{{11, `bad tool name "` + strings.Repeat("x", 129) + `": it is 129 characters long, shorten it to at most 128`}}},
		{`//mcp:tool readonly destructive`, []wantErr{{20, `readonly and destructive contradict each other: a read-only tool cannot be destructive`}}},
		{`//mcp:tool destructive=true readonly=true`, []wantErr{{11, `readonly and destructive contradict each other: a read-only tool cannot be destructive`}}},
		{`//mcp:tool title="Bulk price`, []wantErr{{11, `unterminated quoted value for key "title"`}}},
		{"//mcp:tool title=`Bulk price", []wantErr{{11, `unterminated quoted value for key "title"`}}},
		{`//mcp:tool title="a\" name=x`, []wantErr{{11, `unterminated quoted value for key "title"`}}},
		{`//mcp:tool title="a\qb" name=x`, []wantErr{{11, `bad quoted value for key "title": want a Go string literal, or single quotes, which take no escapes`}}},
		{`//mcp:tool title="a \q b" name=x`, []wantErr{{11, `bad quoted value for key "title": want a Go string literal, or single quotes, which take no escapes`}}},
		{`//mcp:tool title="a"b name=x`, []wantErr{{11, `unexpected text after quoted value for key "title"`}}},
		{`//mcp:tool =x name=y`, []wantErr{{11, `missing key before "="`}}},
		{`//mcp:tool name=x scope="kb:read kb\\write"`, []wantErr{{18, `bad value "kb:read kb\\write" for key "scope": scope "kb\\write" has character '\\', which RFC 6749 does not allow in a scope (printable ASCII but space, '"' and '\')`}}},
		{`//mcp:tool scope="kb:réad"`, []wantErr{{11, `bad value "kb:réad" for key "scope": scope "kb:réad" has character 'é', which RFC 6749 does not allow in a scope (printable ASCII but space, '"' and '\')`}}},
		{"//mcp:tool scope=`a\"b`", []wantErr{{11, `bad value "a\"b" for key "scope": scope "a\"b" has character '"', which RFC 6749 does not allow in a scope (printable ASCII but space, '"' and '\')`}}},
		{`//mcp:tool scope="a b a"`, []wantErr{{11, `bad value "a b a" for key "scope": "a" is repeated`}}},
		{`//mcp:tool scope=" "`, []wantErr{{11, `bad value " " for key "scope": want one or more OAuth scopes separated by spaces`}}},
		{`//mcp:tool scope`, []wantErr{{11, `key "scope" needs a value`}}},
		{
			`//mcp:tool titel=x title=y title=z zzz destructive=maybe task=never`,
			[]wantErr{
				{11, `unknown key "titel"; did you mean "title"? ` + toolKeyList},
				{27, `repeated key "title"`},
				{35, `unknown key "zzz" ` + toolKeyList},
				{39, `bad value "maybe" for key "destructive": want true or false`},
				{57, `bad value "never" for key "task" (valid: forbidden, optional, required)`},
			},
		},
		{`//mcp:tool ui=kb://viewer`, []wantErr{{11, `bad value "kb://viewer" for key "ui": want the uri of an MCP App's page, which starts with ui://, as ui://kb/viewer`}}},
		{`//mcp:tool ui=ui://x visibility=model|user`, []wantErr{{21, `bad value "user" for key "visibility" (valid: model, app, separated by '|')`}}},
		{`//mcp:tool visibility=app`, []wantErr{{11, `visibility= is for the tool of an MCP App: set ui=ui://... to the page that shows its results`}}},
		{`//mcp:tol name=x`, []wantErr{{6, `unknown directive //mcp:tol; did you mean //mcp:tool?`}}},
		{`//mcp:Tool`, []wantErr{{6, `unknown directive //mcp:Tool; did you mean //mcp:tool?`}}},
		{`//mcp:params a`, []wantErr{{6, `unknown directive //mcp:params; did you mean //mcp:param?`}}},
		{`//mcp:tool openWorldHint=false`, []wantErr{{11, `unknown key "openWorldHint"; did you mean "openworld"? ` + toolKeyList}}},
		{`//mcp:form x=1`, []wantErr{{11, `//mcp:form takes no arguments; describe the form's fields with tags`}}},
		{`//mcp:skills scopes=a`, []wantErr{{13, `unknown key "scopes"; did you mean "scope"? (valid keys: scope)`}}},
		{`//mcp:skill`, []wantErr{{6, `unknown directive //mcp:skill; did you mean //mcp:skills?`}}},
		{`//mcp:resources uri=a:b`, []wantErr{{6, `unknown directive //mcp:resources; did you mean //mcp:resource?`}}},
		{`//mcp:promt`, []wantErr{{6, `unknown directive //mcp:promt; did you mean //mcp:prompt?`}}},
		{`//mcp:`, []wantErr{{6, `unknown directive //mcp: (valid: tool, resource, prompt, param, icon, form, skills, group, search)`}}},

		{`//mcp:param`, []wantErr{{0, `missing parameter name: want //mcp:param NAME [key=value]...`}}},
		{`//mcp:param min=1`, []wantErr{{0, `missing parameter name: want //mcp:param NAME [key=value]...`}}},
		{`//mcp:param 1a min=1`, []wantErr{{12, `bad parameter name "1a": want a Go identifier`}}},
		{`//mcp:param func`, []wantErr{{12, `bad parameter name "func": want a Go identifier`}}},
		{`//mcp:param a desc=x description=y`, []wantErr{{21, `"desc" and "description" cannot both be set`}}},
		{`//mcp:param a description=y desc=x`, []wantErr{{28, `"desc" and "description" cannot both be set`}}},
		{`//mcp:param a descripton=y`, []wantErr{{14, `unknown key "descripton"; did you mean "description"? ` + paramKeyList}}},
		{`//mcp:param a min=x max=1 maxLength=-1`, []wantErr{
			{14, `bad value "x" for key "min": want a number`},
			{26, `bad value "-1" for key "maxLength": want a non-negative integer`},
		}},
		{`//mcp:param a min=5 max=1 required optional`, []wantErr{
			{20, `min 5 is greater than max 1`},
			{35, `"required" and "optional" cannot both be set`},
		}},
		{`//mcp:param a complete`, []wantErr{{14, `key "complete" needs a value`}}},
		{`//mcp:param a complete=pkg.F`, []wantErr{{14, `bad value "pkg.F" for key "complete": want the name of a func of the package, a Go identifier`}}},
		{`//mcp:param a complete=F complete=G`, []wantErr{{25, `repeated key "complete"`}}},
		{`//mcp:param a completer=F`, []wantErr{{14, `unknown key "completer"; did you mean "complete"? ` + paramKeyList}}},
		{`//mcp:param a pattern="("`, []wantErr{{14, "bad pattern \"(\": error parsing regexp: missing closing ): `(`"}}},

		{`//mcp:icon`, []wantErr{{0, `//mcp:icon needs src=URL`}}},
		{`//mcp:icon mime=image/png`, []wantErr{{0, `//mcp:icon needs src=URL`}}},
		{`//mcp:icon src`, []wantErr{{11, `key "src" needs a value`}}},
		{`//mcp:icon src=%zz`, []wantErr{{11, `bad value "%zz" for key "src": want a URL`}}},
		{`//mcp:icon src=a.png sizes=48`, []wantErr{{21, `bad value "48" for key "sizes": want sizes like 48x48, separated by ',', or any`}}},
		{`//mcp:icon src=a.png sizes=48x48,`, []wantErr{{21, `bad value "48x48," for key "sizes": want values separated by ',', none empty`}}},
		{`//mcp:icon src=a.png sizes=1x1,1x1`, []wantErr{{21, `bad value "1x1,1x1" for key "sizes": "1x1" is repeated`}}},
		{`//mcp:icon src=a.png theme=drak`, []wantErr{{21, `bad value "drak" for key "theme"; did you mean "dark"? (valid: light, dark)`}}},
		{`//mcp:icon src=a.png theme=blue`, []wantErr{{21, `bad value "blue" for key "theme" (valid: light, dark)`}}},
		{`//mcp:icon src=a.png size=16x16`, []wantErr{{21, `unknown key "size"; did you mean "sizes"? (valid keys: src, mime, sizes, theme)`}}},
	}
	for _, tt := range tests {
		_, errs := ParseDirective(base, tt.in)
		if diff := cmp.Diff(tt.want, offsets(errs)); diff != "" {
			t.Errorf("ParseDirective(%q) errors mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestParseDirectiveKeepsGoodKeys checks that a directive with errors
// still carries the keys that were right.
func TestParseDirectiveKeepsGoodKeys(t *testing.T) {
	got, errs := ParseDirective(base, `//mcp:tool name=x titel=y readonly destructive=yes task=maybe title="T"`)
	want := &Tool{
		Pos:      base,
		Name:     String{"x", p(11), true},
		ReadOnly: Bool{true, p(26), true},
		Title:    String{"T", p(62), true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if len(errs) != 3 {
		t.Errorf("got %d errors, want 3: %v", len(errs), offsets(errs))
	}
}

func TestSpacedDirective(t *testing.T) {
	for text, want := range map[string]string{
		"// mcp:tool":                "//mcp:tool",
		"//   mcp:prompt name=x":     "//mcp:prompt",
		"//\tmcp:param n desc=\"x\"": "//mcp:param",
		"// mcp:icon\tsrc=x":         "//mcp:icon",
		"// mcp:form":                "//mcp:form",
		"// mcp:resource uri=x":      "//mcp:resource",
		"//mcp:tool":                 "",
		"// mcp:toolbox":             "",
		"// mcp: tool":               "",
		"// see mcp:tool":            "",
		"/* mcp:tool */":             "",
	} {
		got, ok := SpacedDirective(text)
		if got != want || ok != (want != "") {
			t.Errorf("SpacedDirective(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
}
