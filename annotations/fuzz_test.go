package annotations

import (
	"go/token"
	"slices"
	"testing"
)

// checkPositions fails t when an error lies outside [pos, pos+n].
func checkPositions(t *testing.T, in string, errs []Error, n int) {
	t.Helper()
	for _, e := range errs {
		if e.Pos < base || e.Pos > base+token.Pos(n) {
			t.Errorf("%q: error %q at offset %d, outside [0, %d]", in, e.Msg, e.Pos-base, n)
		}
		if e.Msg == "" {
			t.Errorf("%q: error at offset %d has no message", in, e.Pos-base)
		}
	}
}

func FuzzParseDirective(f *testing.F) {
	for _, s := range []string{
		`//mcp:tool name=bulk title="Bulk price update" readonly task=optional`,
		"//mcp:tool input=`a b.json` destructive=false",
		`//mcp:tool title="unterminated`,
		`//mcp:tol titel=x =y`,
		`//mcp:param a description="The a" min=1 max=0 enum=x|y pattern="("`,
		`//mcp:icon src=https://e.com/i.png sizes=48x48,any theme=drak`,
		`//mcp:param city complete=completeCity enum=a|b`,
		`//mcp:resource uri=kb://articles/{id}/{+rest} name=article mime=text/markdown audience=user|assistant priority=0.5`,
		`//mcp:resource uri="file:///big.bin" size=10 title="Big" description=x`,
		`//mcp:resource uri=kb://{a}{b}/{?q}/{a size=1 url=x mimeType=y priority=2`,
		`//mcp:resource name=r uri=kb://{id}/{id} size=5`,
		`//mcp:prompt name=review title="Code review" description="Asks for a review"`,
		`//mcp:prompt nam=x desc=y title="z`,
		`//mcp:`,
		`// mcp:tool`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, errs := ParseDirective(base, text)
		checkPositions(t, text, errs, len(text))
		if v == nil && len(errs) == 0 && len(text) >= 6 && text[:6] == "//mcp:" {
			t.Errorf("%q: an //mcp: line gave neither a value nor an error", text)
		}
		if r, ok := v.(*Resource); ok {
			checkResource(t, text, r, errs)
		}
	})
}

// checkResource fails t when the template of r is not its uri in parts,
// or when r lacks a uri or has a template's size and no error says so.
func checkResource(t *testing.T, text string, r *Resource, errs []Error) {
	t.Helper()
	if got := r.Template.String(); got != r.URI.Value {
		t.Errorf("%q: uri %q but template %q", text, r.URI.Value, got)
	}
	checkParts(t, text, r.Template.Parts)
	if !r.URI.Set && len(errs) == 0 {
		t.Errorf("%q: no uri and no error", text)
	}
	if r.Size.Set && r.Template.IsTemplate() && !slices.ContainsFunc(errs, func(e Error) bool { return e.Pos == r.Size.Pos }) {
		t.Errorf("%q: size on a template and no error at it", text)
	}
}

func FuzzParseTag(f *testing.F) {
	for _, s := range []string{
		"`json:\"a\" mcp:\"required,enum=a|b,desc=The a,min=1,max=2\"`",
		"`mcp:\"pattern='^[a-z]{1,3}$',format=email\"`",
		`"mcp:\"desc=caf\u00e9,maxx=1,min=x\""`,
		"`mcp:\"required,,optional,=x,pattern='a\"`",
		"`mcp:\"\\q\"`",
		"`mcp:\"min=1\"",
		"`mcp:\"complete=completeCity,complete=x,complete='1 a'\"`",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		tag, ok, errs := ParseTag(base, lit)
		checkPositions(t, lit, errs, len(lit))
		if ok && (tag.Pos < base || tag.Pos >= base+token.Pos(len(lit))) {
			t.Errorf("%s: tag position %d outside the literal", lit, tag.Pos-base)
		}
	})
}
