package annotations

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// raw returns tag as a backquoted literal, the usual way to write a tag.
// An offset n in tag is offset n+1 in the literal.
func raw(tag string) string { return "`" + tag + "`" }

func TestParseTagGood(t *testing.T) {
	tests := []struct {
		lit  string
		want Tag
	}{
		{raw(`mcp:""`), Tag{Pos: p(5)}},
		{
			raw(`json:"a,omitempty" mcp:"required,enum=a|b|c,desc=The a,min=-1.5,max=1e3"`),
			Tag{
				Pos:      p(24),
				Required: Bool{true, p(25), true},
				Enum:     List{[]string{"a", "b", "c"}, p(34), true},
				Desc:     String{"The a", p(45), true},
				Min:      Number{-1.5, "-1.5", p(56), true},
				Max:      Number{1000, "1e3", p(65), true},
			},
		},
		{
			raw(`mcp:"pattern='^[a-z]{1,3}$',format=email,title='a, b' "`),
			Tag{
				Pos:     p(5),
				Pattern: String{"^[a-z]{1,3}$", p(6), true},
				Format:  String{"email", p(29), true},
				Title:   String{"a, b", p(42), true},
			},
		},
		{
			raw(`mcp:" minLength=1, maxLength = 10 ,minItems=0,maxItems=3,uniqueItems" json:"x"`),
			Tag{
				Pos:         p(5),
				MinLength:   Int{1, p(7), true},
				MaxLength:   Int{10, p(20), true},
				MinItems:    Int{0, p(36), true},
				MaxItems:    Int{3, p(47), true},
				UniqueItems: Bool{true, p(58), true},
			},
		},
		{
			raw(`mcp:"exclusiveMin=0,exclusiveMax=1,multipleOf=0.01,default=x y,optional=true,required=false,desc=''"`),
			Tag{
				Pos:          p(5),
				ExclusiveMin: Number{0, "0", p(6), true},
				ExclusiveMax: Number{1, "1", p(21), true},
				MultipleOf:   Number{0.01, "0.01", p(36), true},
				Default:      String{"x y", p(52), true},
				Optional:     Bool{true, p(64), true},
				Required:     Bool{false, p(78), true},
				Desc:         String{"", p(93), true},
			},
		},
		{
			raw(`mcp:"complete=completeCity,enum=a|b"`),
			Tag{
				Pos:      p(5),
				Complete: String{"completeCity", p(6), true},
				Enum:     List{[]string{"a", "b"}, p(28), true},
			},
		},
		{
			raw(`mcp:"header=X-Region_1"`),
			Tag{Pos: p(5), Header: String{"X-Region_1", p(6), true}},
		},
		{
			// A double-quoted literal: positions count the escapes.
			`"mcp:\"min=1,max=2\""`,
			Tag{Pos: p(5), Min: Number{1, "1", p(7), true}, Max: Number{2, "2", p(13), true}},
		},
		{
			`"mcp:\"desc=caf\u00e9,max=2\""`,
			Tag{Pos: p(5), Desc: String{"café", p(7), true}, Max: Number{2, "2", p(22), true}},
		},
		{
			// Escapes inside the mcp value itself.
			raw(`mcp:"desc=say \"hi\",min=3"`),
			Tag{Pos: p(5), Desc: String{`say "hi"`, p(6), true}, Min: Number{3, "3", p(22), true}},
		},
	}
	for _, tt := range tests {
		got, ok, errs := ParseTag(base, tt.lit)
		if !ok || len(errs) > 0 {
			t.Errorf("ParseTag(%s): ok = %v, errors %v", tt.lit, ok, offsets(errs))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseTag(%s) mismatch (-want +got):\n%s", tt.lit, diff)
		}
	}
}

func TestParseTagAbsent(t *testing.T) {
	for _, lit := range []string{
		raw(``),
		raw(`json:"a"`),
		raw(`json:"a" mcpx:"min=1"`),
		raw(`xmcp:"min=1"`),
		raw(`json:a mcp:"min=1"`), // malformed before mcp: reflect stops there too
		`"json:\"a\""`,
	} {
		tag, ok, errs := ParseTag(base, lit)
		if ok || len(errs) > 0 || !cmp.Equal(tag, Tag{}) {
			t.Errorf("ParseTag(%s) = %+v, %v, %v; want no tag", lit, tag, ok, offsets(errs))
		}
	}
}

const tagKeyList = "(valid keys: required, optional, enum, noenum, desc, title, default, min, max, exclusiveMin, exclusiveMax, multipleOf, minLength, maxLength, pattern, format, minItems, maxItems, uniqueItems, complete, header, nolint)"

func TestParseTagBad(t *testing.T) {
	tests := []struct {
		lit  string
		want []wantErr
	}{
		{raw(`mcp:"min=x"`), []wantErr{{6, `bad value "x" for key "min": want a number`}}},
		{raw(`mcp:"max=0x10"`), []wantErr{{6, `bad value "0x10" for key "max": want a number`}}},
		{raw(`mcp:"max=1e400"`), []wantErr{{6, `bad value "1e400" for key "max": want a number`}}},
		{raw(`mcp:"exclusiveMin=NaN"`), []wantErr{{6, `bad value "NaN" for key "exclusiveMin": want a number`}}},
		{raw(`mcp:"exclusiveMax=+1"`), []wantErr{{6, `bad value "+1" for key "exclusiveMax": want a number`}}},
		{raw(`mcp:"min"`), []wantErr{{6, `key "min" needs a value`}}},
		{raw(`mcp:"minLength=-1"`), []wantErr{{6, `bad value "-1" for key "minLength": want a non-negative integer`}}},
		{raw(`mcp:"maxItems=1.5"`), []wantErr{{6, `bad value "1.5" for key "maxItems": want a non-negative integer`}}},
		{raw(`mcp:"minItems=+2"`), []wantErr{{6, `bad value "+2" for key "minItems": want a non-negative integer`}}},
		{raw(`mcp:"maxLength=99999999999999999999"`), []wantErr{{6, `bad value "99999999999999999999" for key "maxLength": want a non-negative integer`}}},
		{raw(`mcp:"multipleOf=0"`), []wantErr{{6, `bad value "0" for key "multipleOf": want a number greater than 0`}}},
		{raw(`mcp:"multipleOf=-2"`), []wantErr{{6, `bad value "-2" for key "multipleOf": want a number greater than 0`}}},
		{raw(`mcp:"pattern=("`), []wantErr{{6, "bad pattern \"(\": error parsing regexp: missing closing ): `(`"}}},
		{raw(`mcp:"required,optional"`), []wantErr{{15, `"required" and "optional" cannot both be set`}}},
		{raw(`mcp:"optional,required"`), []wantErr{{15, `"required" and "optional" cannot both be set`}}},
		{raw(`mcp:"min=5,max=1"`), []wantErr{{12, `min 5 is greater than max 1`}}},
		{raw(`mcp:"max=1,min=5"`), []wantErr{{12, `min 5 is greater than max 1`}}},
		{raw(`mcp:"exclusiveMin=2.5,exclusiveMax=1"`), []wantErr{{23, `exclusiveMin 2.5 is greater than exclusiveMax 1`}}},
		{raw(`mcp:"minLength=5,maxLength=1"`), []wantErr{{18, `minLength 5 is greater than maxLength 1`}}},
		{raw(`mcp:"minItems=3,maxItems=2"`), []wantErr{{17, `minItems 3 is greater than maxItems 2`}}},
		{raw(`mcp:"complete="`), []wantErr{{6, `key "complete" needs a value`}}},
		{raw(`mcp:"complete=1st"`), []wantErr{{6, `bad value "1st" for key "complete": want the name of a func of the package, a Go identifier`}}},
		{raw(`mcp:"complete=func"`), []wantErr{{6, `bad value "func" for key "complete": want the name of a func of the package, a Go identifier`}}},
		{raw(`mcp:"complete='a b'"`), []wantErr{{6, `bad value "a b" for key "complete": want the name of a func of the package, a Go identifier`}}},
		{raw(`mcp:"completion=F"`), []wantErr{{6, `unknown key "completion"; did you mean "complete"? ` + tagKeyList}}},
		{raw(`mcp:"header=a b"`), []wantErr{{6, "bad value \"a b\" for key \"header\": want an HTTP header name: letters, digits and !#$%&'*+-.^_`|~"}}},
		{raw(`mcp:"header"`), []wantErr{{6, `key "header" needs a value`}}},
		{raw(`mcp:"uniqueItems=3"`), []wantErr{{6, `bad value "3" for key "uniqueItems": want true or false`}}},
		{raw(`mcp:"minlength=3"`), []wantErr{{6, `unknown key "minlength"; did you mean "minLength"? ` + tagKeyList}}},
		{raw(`mcp:"requird"`), []wantErr{{6, `unknown key "requird"; did you mean "required"? ` + tagKeyList}}},
		{raw(`mcp:"description=x"`), []wantErr{{6, `unknown key "description"; did you mean "desc"? ` + tagKeyList}}},
		{raw(`mcp:"minimum=0"`), []wantErr{{6, `unknown key "minimum"; did you mean "min"? ` + tagKeyList}}},
		{raw(`mcp:"min=1,min=2"`), []wantErr{{12, `repeated key "min"`}}},
		{raw(`mcp:"enum"`), []wantErr{{6, `key "enum" needs a value`}}},
		{raw(`mcp:"enum=a||b"`), []wantErr{{6, `bad value "a||b" for key "enum": want values separated by '|', none empty`}}},
		{raw(`mcp:"enum=a|b|a"`), []wantErr{{6, `bad value "a|b|a" for key "enum": "a" is repeated`}}},
		{raw(`mcp:"pattern='^[a-z]{1,3}$"`), []wantErr{{6, `unterminated quoted value for key "pattern"`}}},
		{raw(`mcp:"pattern='a'b,min=1"`), []wantErr{{6, `unexpected text after quoted value for key "pattern"`}}},
		{raw(`mcp:"min=1,pattern=\"^[a-z]{1,3}$"`), []wantErr{{12, `unterminated quoted value for key "pattern"`}}},
		{raw(`mcp:"pattern=\"^\\d$\",min=1"`), []wantErr{{6, `bad quoted value for key "pattern": want a Go string literal, or single quotes, which take no escapes`}}},
		{raw(`mcp:"pattern=^[a-z]{1,3}$"`), []wantErr{{23, `"3}$" is no key but the rest of the value of pattern after a comma: write a value holding a comma in single quotes, as pattern='^[a-z]{1,3}$'`}}},
		{raw(`mcp:"min=1,pattern=^a{1,3}b{2,}$,maxLength=9"`), []wantErr{{25, `"3}b{2" is no key but the rest of the value of pattern after a comma: write a value holding a comma in single quotes, as pattern='^a{1,3}b{2,}$'`}}},
		{raw(`mcp:"desc=Red, green and blue,title=x"`), []wantErr{{16, `"green and blue" is no key but the rest of the value of desc after a comma: write a value holding a comma in single quotes, as desc='Red, green and blue'`}}},
		{raw(`mcp:"enum=a|b,c"`), []wantErr{{15, `"c" is no key but the rest of the value of enum after a comma: write a value holding a comma in single quotes, as enum='a|b,c'`}}},
		{raw(`mcp:"min=1,requird"`), []wantErr{{12, `unknown key "requird"; did you mean "required"? ` + tagKeyList}}},
		{raw(`mcp:"required,,min=1"`), []wantErr{{15, `empty item in mcp tag`}}},
		{raw(`mcp:"required,"`), []wantErr{{15, `empty item in mcp tag`}}},
		{raw(`mcp:"=x,required"`), []wantErr{{6, `missing key before "="`}}},
		{
			raw(`json:"n" mcp:"titel=a,min=1,max=x,maxLength=2,minLength=3"`),
			[]wantErr{
				{15, `unknown key "titel"; did you mean "title"? ` + tagKeyList},
				{29, `bad value "x" for key "max": want a number`},
				{47, `minLength 3 is greater than maxLength 2`},
			},
		},
		// Double-quoted literals: positions count the escapes.
		{`"mcp:\"min=x\""`, []wantErr{{7, `bad value "x" for key "min": want a number`}}},
		{`"mcp:\"desc=\\u00e9,maxx=1\""`, []wantErr{{20, `unknown key "maxx"; did you mean "max"? ` + tagKeyList}}},
		// Literals that are not Go strings, and mcp values that do not unquote.
		{"`mcp:\"min=1\"", []wantErr{{0, `bad struct tag literal`}}},
		{`"mcp:\q"`, []wantErr{{0, `bad struct tag literal`}}},
		{raw(`mcp:"\q"`), []wantErr{{5, `bad quoted value for the mcp key of the struct tag`}}},
	}
	for _, tt := range tests {
		_, _, errs := ParseTag(base, tt.lit)
		if diff := cmp.Diff(tt.want, offsets(errs)); diff != "" {
			t.Errorf("ParseTag(%s) errors mismatch (-want +got):\n%s", tt.lit, diff)
		}
	}
}
