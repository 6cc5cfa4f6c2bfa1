package annotations

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseResourceAndPromptGood(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{
			`//mcp:resource uri=file:///notes.txt`,
			&Resource{
				Pos:      base,
				URI:      String{"file:///notes.txt", p(15), true},
				Template: URITemplate{[]URIPart{lit("file:///notes.txt")}},
			},
		},
		{
			`//mcp:resource uri=kb://articles/{id}/{format} name=article title="An article" description="One article of the base" mime=text/markdown audience=user|assistant priority=0.5`,
			&Resource{
				Pos:         base,
				URI:         String{"kb://articles/{id}/{format}", p(15), true},
				Template:    URITemplate{[]URIPart{lit("kb://articles/"), v("id"), lit("/"), v("format")}},
				Name:        String{"article", p(47), true},
				Title:       String{"An article", p(60), true},
				Description: String{"One article of the base", p(79), true},
				MIME:        String{"text/markdown", p(117), true},
				Audience:    List{[]string{"user", "assistant"}, p(136), true},
				Priority:    Number{0.5, "0.5", p(160), true},
			},
		},
		{
			`//mcp:resource mime=application/octet-stream size=1048576 uri=file:///big.bin audience=assistant priority=1.0`,
			&Resource{
				Pos:      base,
				MIME:     String{"application/octet-stream", p(15), true},
				Size:     Int{1048576, p(45), true},
				URI:      String{"file:///big.bin", p(58), true},
				Template: URITemplate{[]URIPart{lit("file:///big.bin")}},
				Audience: List{[]string{"assistant"}, p(78), true},
				Priority: Number{1, "1.0", p(97), true},
			},
		},
		{
			`//mcp:resource audience=user priority=0 uri="kb://files/{+path}"`,
			&Resource{
				Pos:      base,
				Audience: List{[]string{"user"}, p(15), true},
				Priority: Number{0, "0", p(29), true},
				URI:      String{"kb://files/{+path}", p(40), true},
				Template: URITemplate{[]URIPart{lit("kb://files/"), vplus("path")}},
			},
		},
		{
			`//mcp:resource uri=urn:x size=0 name=` + strings.Repeat("r", 128),
			&Resource{
				Pos:      base,
				URI:      String{"urn:x", p(15), true},
				Template: URITemplate{[]URIPart{lit("urn:x")}},
				Size:     Int{0, p(25), true},
				Name:     String{strings.Repeat("r", 128), p(32), true},
			},
		},
		{
			`//mcp:resource uri=ui://kb/viewer csp-connect=https://api.example.com,wss://live.example.com csp-resource=https://*.cdn.example.com permissions=camera|clipboardWrite border=false domain=kb.example.com`,
			&Resource{
				Pos:         base,
				URI:         String{"ui://kb/viewer", p(15), true},
				Template:    URITemplate{[]URIPart{lit("ui://kb/viewer")}},
				CSPConnect:  List{[]string{"https://api.example.com", "wss://live.example.com"}, p(34), true},
				CSPResource: List{[]string{"https://*.cdn.example.com"}, p(93), true},
				Permissions: List{[]string{"camera", "clipboardWrite"}, p(132), true},
				Border:      Bool{false, p(166), true},
				Domain:      String{"kb.example.com", p(179), true},
			},
		},
		{
			`//mcp:resource uri=ui://x csp-frame=https://www.youtube.com csp-base-uri=https://cdn.example.com border`,
			&Resource{
				Pos:        base,
				URI:        String{"ui://x", p(15), true},
				Template:   URITemplate{[]URIPart{lit("ui://x")}},
				CSPFrame:   List{[]string{"https://www.youtube.com"}, p(26), true},
				CSPBaseURI: List{[]string{"https://cdn.example.com"}, p(60), true},
				Border:     Bool{true, p(97), true},
			},
		},
		{`//mcp:prompt`, &Prompt{Pos: base}},
		{`//mcp:prompt scope=kb:prompt`, &Prompt{Pos: base, Scopes: List{[]string{"kb:prompt"}, p(13), true}}},
		{
			`//mcp:resource uri=kb://r scope="kb:read kb"`,
			&Resource{Pos: base, URI: String{"kb://r", p(15), true}, Template: URITemplate{[]URIPart{lit("kb://r")}}, Scopes: List{[]string{"kb:read", "kb"}, p(26), true}},
		},
		{
			`//mcp:prompt name=code_review title="Code review" description="Asks for a review"`,
			&Prompt{
				Pos:         base,
				Name:        String{"code_review", p(13), true},
				Title:       String{"Code review", p(30), true},
				Description: String{"Asks for a review", p(50), true},
			},
		},
		{`//mcp:prompt title=""`, &Prompt{Pos: base, Title: String{"", p(13), true}}},
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

const resourceKeyList = "(valid keys: uri, name, title, description, mime, size, audience, priority, csp-connect, csp-resource, csp-frame, csp-base-uri, permissions, domain, border, scope, group)"

const promptKeyList = "(valid keys: name, title, description, scope, group)"

// badURI is the message for a uri= whose text is wrong for the reason
// why.
func badURI(uri, why string) string {
	return `bad value "` + uri + `" for key "uri": ` + why
}

func TestParseResourceBad(t *testing.T) {
	const absolute = "want an absolute URI, starting with a scheme, such as file:///notes.txt or kb://articles/{id}"
	const onlyVars = "; only {var} and {+var} are supported"
	const needsURI = `//mcp:resource needs uri=URI-OR-TEMPLATE`
	tests := []struct {
		in   string
		want []wantErr
	}{
		// uri: required, and checked from its text.
		{`//mcp:resource`, []wantErr{{0, needsURI}}},
		{`//mcp:resource name=x title=T`, []wantErr{{0, needsURI}}},
		{`//mcp:resource uri`, []wantErr{{15, `key "uri" needs a value`}}},
		{`//mcp:resource uri= name=x`, []wantErr{{15, `key "uri" needs a value`}}},
		{`//mcp:resource uri=""`, []wantErr{{15, badURI("", absolute)}}},
		{`//mcp:resource uri=notes.txt`, []wantErr{{15, badURI("notes.txt", absolute)}}},
		{`//mcp:resource uri=/articles/{id}`, []wantErr{{15, badURI("/articles/{id}", absolute)}}},
		{`//mcp:resource uri={scheme}://x`, []wantErr{{15, badURI("{scheme}://x", absolute)}}},
		{`//mcp:resource uri=1kb://x`, []wantErr{{15, badURI("1kb://x", `scheme "1kb" must be a letter followed by letters, digits, '+', '-' or '.'`)}}},
		{`//mcp:resource uri="kb://a b"`, []wantErr{{15, badURI("kb://a b", `character ' ' is not allowed in a URI; percent-encode it`)}}},
		{`//mcp:resource uri=kb://a%zz`, []wantErr{{15, badURI("kb://a%zz", `"%zz" is not a percent-encoded byte: want % and two hex digits`)}}},
		{`//mcp:resource uri=kb://{?q}`, []wantErr{{15, badURI("kb://{?q}", `expression "{?q}" uses the ? operator`+onlyVars)}}},
		{`//mcp:resource uri=kb://x{#f}`, []wantErr{{15, badURI("kb://x{#f}", `expression "{#f}" uses the # operator`+onlyVars)}}},
		{`//mcp:resource uri=kb://x{/seg}`, []wantErr{{15, badURI("kb://x{/seg}", `expression "{/seg}" uses the / operator`+onlyVars)}}},
		{`//mcp:resource uri=kb://x{.ext}`, []wantErr{{15, badURI("kb://x{.ext}", `expression "{.ext}" uses the . operator`+onlyVars)}}},
		{`//mcp:resource uri=kb://x{;p}`, []wantErr{{15, badURI("kb://x{;p}", `expression "{;p}" uses the ; operator`+onlyVars)}}},
		{`//mcp:resource uri=kb://x?a=1{&b}`, []wantErr{{15, badURI("kb://x?a=1{&b}", `expression "{&b}" uses the & operator`+onlyVars)}}},
		{`//mcp:resource uri=kb://{id`, []wantErr{{15, badURI("kb://{id", `expression "{id" is not closed by "}"`)}}},
		{`//mcp:resource uri=kb://{a/{b}`, []wantErr{{15, badURI("kb://{a/{b}", `expression "{a/" is not closed by "}"`)}}},
		{`//mcp:resource uri=kb://a}`, []wantErr{{15, badURI("kb://a}", `"}" after "kb://a" has no matching "{"`)}}},
		{`//mcp:resource uri=kb://{}`, []wantErr{{15, badURI("kb://{}", `expression "{}" has no variable name`)}}},
		{`//mcp:resource uri=kb://{+}`, []wantErr{{15, badURI("kb://{+}", `expression "{+}" has no variable name`)}}},
		{`//mcp:resource uri=kb://{a,b}`, []wantErr{{15, badURI("kb://{a,b}", `expression "{a,b}" has more than one variable; write one expression per variable`)}}},
		{`//mcp:resource uri=kb://{a-b}`, []wantErr{{15, badURI("kb://{a-b}", `expression "{a-b}": variable name "a-b" may hold only A-Z, a-z, 0-9 and '_'`)}}},
		{`//mcp:resource uri=kb://{id}/{+id}`, []wantErr{{15, badURI("kb://{id}/{+id}", `expression "{+id}" repeats the variable "id"`)}}},
		{`//mcp:resource uri=kb://{a}{b}`, []wantErr{{15, badURI("kb://{a}{b}", `expressions "{a}" and "{b}" have no literal text between them, so a URI cannot be split into their values`)}}},
		{`//mcp:resource title=T uri="kb://{a}{+b}"`, []wantErr{{23, badURI("kb://{a}{+b}", `expressions "{a}" and "{+b}" have no literal text between them, so a URI cannot be split into their values`)}}},
		{`//mcp:resource url=kb://x`, []wantErr{{0, needsURI}, {15, `unknown key "url"; did you mean "uri"? ` + resourceKeyList}}},
		{`//mcp:resource uriTemplate=kb://{x}`, []wantErr{{0, needsURI}, {15, `unknown key "uriTemplate"; did you mean "uri"? ` + resourceKeyList}}},
		{`//mcp:resource uri=a:b uri=c:d`, []wantErr{{23, `repeated key "uri"`}}},

		// size: bytes, for a resource that is not a template.
		{`//mcp:resource uri=kb://a/{id} size=10`, []wantErr{{31, `key "size" is for a resource with one URI; uri "kb://a/{id}" is a template`}}},
		{`//mcp:resource size=10 uri=kb://{+p}`, []wantErr{{15, `key "size" is for a resource with one URI; uri "kb://{+p}" is a template`}}},
		{`//mcp:resource uri=a:b size=-1`, []wantErr{{23, `bad value "-1" for key "size": want a non-negative integer`}}},
		{`//mcp:resource uri=a:b size=1.5`, []wantErr{{23, `bad value "1.5" for key "size": want a non-negative integer`}}},
		{`//mcp:resource uri=a:b size`, []wantErr{{23, `key "size" needs a value`}}},
		{`//mcp:resource uri=a:b sizes=1`, []wantErr{{23, `unknown key "sizes"; did you mean "size"? ` + resourceKeyList}}},

		// name: the rule of tool names.
		{`//mcp:resource uri=a:b name="a b"`, []wantErr{{23, `bad resource name "a b": character ' ' is not allowed (use A-Z, a-z, 0-9, '_', '.', '-')`}}},
		{`//mcp:resource uri=a:b name=""`, []wantErr{{23, `bad resource name "": want 1 to 128 characters of A-Z, a-z, 0-9, '_', '.', '-'`}}},
		{`//mcp:resource uri=a:b name=` + strings.Repeat("r", 129), []wantErr{{23, `bad resource name "` + strings.Repeat("r", 129) + `": it is 129 characters long, shorten it to at most 128`}}},
		{`//mcp:resource uri=a:b name`, []wantErr{{23, `key "name" needs a value`}}},

		// title and description: text.
		{`//mcp:resource uri=a:b title`, []wantErr{{23, `key "title" needs a value`}}},
		{`//mcp:resource uri=a:b description=`, []wantErr{{23, `key "description" needs a value`}}},
		{`//mcp:resource uri=a:b desc=x`, []wantErr{{23, `unknown key "desc" ` + resourceKeyList}}},
		{`//mcp:resource uri=a:b titel=x`, []wantErr{{23, `unknown key "titel"; did you mean "title"? ` + resourceKeyList}}},
		{`//mcp:resource uri=a:b description="x`, []wantErr{{23, `unterminated quoted value for key "description"`}}},

		// mime: type/subtype.
		{`//mcp:resource uri=a:b mime=text`, []wantErr{{23, `bad value "text" for key "mime": want a media type, type/subtype, such as text/markdown`}}},
		{`//mcp:resource uri=a:b mime=text/`, []wantErr{{23, `bad value "text/" for key "mime": want a media type, type/subtype, such as text/markdown`}}},
		{`//mcp:resource uri=a:b mime=/plain`, []wantErr{{23, `bad value "/plain" for key "mime": want a media type, type/subtype, such as text/markdown`}}},
		{`//mcp:resource uri=a:b mime=a/b/c`, []wantErr{{23, `bad value "a/b/c" for key "mime": want a media type, type/subtype, such as text/markdown`}}},
		{`//mcp:resource uri=a:b mime="text/plain; charset=utf-8"`, []wantErr{{23, `bad value "text/plain; charset=utf-8" for key "mime": want a media type, type/subtype, such as text/markdown`}}},
		{`//mcp:resource uri=a:b mime`, []wantErr{{23, `key "mime" needs a value`}}},
		{`//mcp:resource uri=a:b mimeType=text/plain`, []wantErr{{23, `unknown key "mimeType"; did you mean "mime"? ` + resourceKeyList}}},
		{`//mcp:resource uri=a:b mimetype=text/plain`, []wantErr{{23, `unknown key "mimetype"; did you mean "mime"? ` + resourceKeyList}}},

		// audience: user, assistant or both.
		{`//mcp:resource uri=a:b audience=usr`, []wantErr{{23, `bad value "usr" for key "audience"; did you mean "user"? (valid: user, assistant, user|assistant)`}}},
		{`//mcp:resource uri=a:b audience=user|asistant`, []wantErr{{23, `bad value "user|asistant" for key "audience"; did you mean "user|assistant"? (valid: user, assistant, user|assistant)`}}},
		{`//mcp:resource uri=a:b audience=bot`, []wantErr{{23, `bad value "bot" for key "audience" (valid: user, assistant, user|assistant)`}}},
		{`//mcp:resource uri=a:b audience=user|user`, []wantErr{{23, `bad value "user|user" for key "audience" (valid: user, assistant, user|assistant)`}}},
		{`//mcp:resource uri=a:b audience`, []wantErr{{23, `key "audience" needs a value`}}},

		// priority: from 0 to 1.
		{`//mcp:resource uri=a:b priority=2`, []wantErr{{23, `bad value "2" for key "priority": want a number from 0 to 1`}}},
		{`//mcp:resource uri=a:b priority=-0.1`, []wantErr{{23, `bad value "-0.1" for key "priority": want a number from 0 to 1`}}},
		{`//mcp:resource uri=a:b priority=1.01`, []wantErr{{23, `bad value "1.01" for key "priority": want a number from 0 to 1`}}},
		{`//mcp:resource uri=a:b priority=high`, []wantErr{{23, `bad value "high" for key "priority": want a number from 0 to 1`}}},
		{`//mcp:resource uri=a:b priority=.5`, []wantErr{{23, `bad value ".5" for key "priority": want a number from 0 to 1`}}},
		{`//mcp:resource uri=a:b priority`, []wantErr{{23, `key "priority" needs a value`}}},
		{`//mcp:resource uri=a:b priorty=1`, []wantErr{{23, `unknown key "priorty"; did you mean "priority"? ` + resourceKeyList}}},

		{
			`//mcp:resource uri=kb://x csp-connect=https://a.example border domain=d`,
			[]wantErr{
				{26, `key "csp-connect" is for the page of an MCP App, a resource whose uri starts with ui://; uri "kb://x" does not`},
				{56, `key "border" is for the page of an MCP App, a resource whose uri starts with ui://; uri "kb://x" does not`},
				{63, `key "domain" is for the page of an MCP App, a resource whose uri starts with ui://; uri "kb://x" does not`},
			},
		},
		{
			`//mcp:resource uri=ui://x csp-connect=api.example.com csp-frame=https://a,,https://b permissions=camera|speaker border=maybe`,
			[]wantErr{
				{26, `bad value "api.example.com" for key "csp-connect": "api.example.com" is no origin: want scheme://host, as https://api.example.com, separated by ','`},
				{54, `bad value "https://a,,https://b" for key "csp-frame": want values separated by ',', none empty`},
				{85, `bad value "speaker" for key "permissions" (valid: camera, microphone, geolocation, clipboardWrite, separated by '|')`},
				{112, `bad value "maybe" for key "border": want true or false`},
			},
		},
		{
			`//mcp:resource uri=kb://{a}/{a} titel=x size=x mime=x audience=x priority=x`,
			[]wantErr{
				{15, badURI("kb://{a}/{a}", `expression "{a}" repeats the variable "a"`)},
				{32, `unknown key "titel"; did you mean "title"? ` + resourceKeyList},
				{40, `bad value "x" for key "size": want a non-negative integer`},
				{47, `bad value "x" for key "mime": want a media type, type/subtype, such as text/markdown`},
				{54, `bad value "x" for key "audience" (valid: user, assistant, user|assistant)`},
				{65, `bad value "x" for key "priority": want a number from 0 to 1`},
			},
		},
	}
	for _, tt := range tests {
		_, errs := ParseDirective(base, tt.in)
		if diff := cmp.Diff(tt.want, offsets(errs)); diff != "" {
			t.Errorf("ParseDirective(%q) errors mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestParsePromptBad(t *testing.T) {
	tests := []struct {
		in   string
		want []wantErr
	}{
		{`//mcp:prompt name="a b"`, []wantErr{{13, `bad prompt name "a b": character ' ' is not allowed (use A-Z, a-z, 0-9, '_', '.', '-')`}}},
		{`//mcp:prompt name=""`, []wantErr{{13, `bad prompt name "": want 1 to 128 characters of A-Z, a-z, 0-9, '_', '.', '-'`}}},
		{`//mcp:prompt name`, []wantErr{{13, `key "name" needs a value`}}},
		{`//mcp:prompt name=a name=b`, []wantErr{{20, `repeated key "name"`}}},
		{`//mcp:prompt title`, []wantErr{{13, `key "title" needs a value`}}},
		{`//mcp:prompt description`, []wantErr{{13, `key "description" needs a value`}}},
		{`//mcp:prompt titel=x`, []wantErr{{13, `unknown key "titel"; did you mean "title"? ` + promptKeyList}}},
		{`//mcp:prompt descripton=x`, []wantErr{{13, `unknown key "descripton"; did you mean "description"? ` + promptKeyList}}},
		{`//mcp:prompt desc=x`, []wantErr{{13, `unknown key "desc" ` + promptKeyList}}},
		{`//mcp:prompt uri=a:b`, []wantErr{{13, `unknown key "uri" ` + promptKeyList}}},
		{`//mcp:prompt =x`, []wantErr{{13, `missing key before "="`}}},
		{
			`//mcp:prompt nam=x title="a"b name=a.b`,
			[]wantErr{
				{13, `unknown key "nam"; did you mean "name"? ` + promptKeyList},
				{19, `unexpected text after quoted value for key "title"`},
			},
		},
	}
	for _, tt := range tests {
		_, errs := ParseDirective(base, tt.in)
		if diff := cmp.Diff(tt.want, offsets(errs)); diff != "" {
			t.Errorf("ParseDirective(%q) errors mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestParseResourceKeepsGoodKeys checks that a resource with errors
// still carries the keys that were right, and that a bad uri, being
// written, is not also reported missing.
func TestParseResourceKeepsGoodKeys(t *testing.T) {
	got, errs := ParseDirective(base, `//mcp:resource uri=kb://{?q} name=x size=1 priority=7 title=T`)
	want := &Resource{
		Pos:   base,
		Name:  String{"x", p(29), true},
		Size:  Int{1, p(36), true},
		Title: String{"T", p(54), true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if len(errs) != 2 {
		t.Errorf("got %d errors, want 2: %v", len(errs), offsets(errs))
	}
}
