package mcpserver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// scanCases are envelopes and bare values, well-formed and not, that
// jsonx.Members must judge as encoding/json does.
var scanCases = []string{
	`{}`, ` { } `, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":"\u00e9\n"}`, `{"a":-0.5e+3}`,
	`{"a":true,"b":false,"c":null}`, `[]`, `1`, `"s"`, `null`, ``, ` `,
	`{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{,}`, `{"a":1 "b":2}`, `{"a":[1,]}`,
	`{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":-}`, `{"a":tru}`, `{"a":nul}`,
	`{"a":"\x"}`, `{"a":"\u12"}`, "{\"a\":\"\x01\"}", `{"a":"open}`, `{"a":1}x`, `{"a":1}{}`,
	`{"a":[}`, `{"a":{]}`, `{"a":[[[[]]]]}`, `{"a\"b":1}`, `{1:2}`,
	strings.Repeat(`[`, 20000) + strings.Repeat(`]`, 20000),
}

func checkScan(t *testing.T, in string) {
	ok, notObject := jsonx.Members([]byte(in), func(_, key, val []byte) {})
	valid := json.Valid([]byte(in))
	isObject := valid && strings.TrimSpace(in)[0] == '{'
	deep := strings.HasPrefix(in, "[[[[[[")
	switch {
	case deep:
		if ok {
			t.Errorf("Members(%.20q...) accepted nesting beyond the limit", in)
		}
	case ok != isObject:
		t.Errorf("Members(%q) ok = %v; encoding/json: valid %v, object %v", in, ok, valid, isObject)
	case notObject != (valid && !isObject):
		t.Errorf("Members(%q) notObject = %v; encoding/json: valid %v, object %v", in, notObject, valid, isObject)
	}
}

// TestScanObjectAgreesWithEncodingJSON checks the hand-written scanner
// against encoding/json on every case.
func TestScanObjectAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range scanCases {
		checkScan(t, in)
	}
}

// TestScanObjectMembers checks the members and raw values it reports,
// escaped keys decoded.
func TestScanObjectMembers(t *testing.T) {
	t.Parallel()
	var got []string
	ok, _ := jsonx.Members([]byte(` {"a" : [1, {"x":2}] ,"m\u0065thod":"ping", "n":-1.5e3}`), func(_, key, val []byte) {
		got = append(got, string(key)+"="+string(val))
	})
	want := []string{`a=[1, {"x":2}]`, `method="ping"`, `n=-1.5e3`}
	if !ok || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %v (ok %v), want %v", got, ok, want)
	}
}

// FuzzScanObject compares the scanner with encoding/json on any input.
func FuzzScanObject(f *testing.F) {
	for _, in := range scanCases[:len(scanCases)-1] {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Count(in, "[")+strings.Count(in, "{") > maxNesting {
			return
		}
		checkScan(t, in)
	})
}

// checkParse wraps params, one of scanCases or any text, in a request and
// checks that parseInto judges its syntax as encoding/json does: the pass
// that reads params' members on the way must not miss or invent an error.
func checkParse(t *testing.T, params string) {
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`
	var m message
	_, err := parseInto([]byte(msg), &m)
	valid := json.Valid([]byte(msg))
	// Arguments are left to the tool's decoder; checkArgs is what the
	// server calls when no decoder judged them.
	parseErr := err != nil && err.code == codeParseError || err == nil && !m.meta.checkArgs()
	switch {
	case strings.HasPrefix(strings.TrimSpace(params), "[[[[[["):
		if !parseErr {
			t.Errorf("parseInto accepted params nesting beyond the limit")
		}
	case parseErr == valid:
		t.Errorf("parseInto(%q): parse error %v; encoding/json: valid %v", msg, parseErr, valid)
	}
}

var paramsCases = append(scanCases[:len(scanCases):len(scanCases)],
	`{"name":"t","arguments":{"a":[1,{"b":"\u00e9"}]},"_meta":{"progressToken":1}}`,
	`{"_meta":{"progressToken":"p","x":[}}`, `{"_meta":"x","name":1}`, `{"_meta":{"a":1}`,
	`{"arguments":{"a":1]}}`, `{"arguments":{"a":"x}}`, `{"name":"t","arguments":}`,
)

// TestParseParamsAgreesWithEncodingJSON checks every case as params.
func TestParseParamsAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range paramsCases {
		checkParse(t, in)
	}
}

// FuzzParseParams compares parseInto with encoding/json on any params.
func FuzzParseParams(f *testing.F) {
	for _, in := range paramsCases[:len(paramsCases)-1] {
		if !strings.HasPrefix(in, "[[[[") {
			f.Add(in)
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Count(in, "[")+strings.Count(in, "{") > maxNesting-2 {
			return
		}
		checkParse(t, in)
	})
}

// TestParseReadsParamsInOnePass checks what parseInto keeps of params,
// whichever member comes first and however keys are escaped.
func TestParseReadsParamsInOnePass(t *testing.T) {
	t.Parallel()
	msg := `{"params" : {"argum\u0065nts":{"a":[1]}, "_meta":{"progressToken":"tok",` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/logLevel":"info"},` +
		`"name":"t1"},"id":3,"method":"tools/call","jsonrpc":"2.0"}`
	var m message
	if _, err := parseInto([]byte(msg), &m); err != nil {
		t.Fatalf("parseInto: %v", err.message)
	}
	got := []string{string(m.id), m.method, string(m.meta.toolName), string(m.meta.toolArgs),
		string(m.meta.ProgressToken), m.meta.ProtocolVersion, string(m.meta.LogLevel)}
	want := []string{`3`, `tools/call`, `"t1"`, `{"a":[1]}`, `"tok"`, `2026-07-28`, `info`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if !strings.HasPrefix(string(m.params), `{"argum\u0065nts"`) || !strings.HasSuffix(string(m.params), `"t1"}`) {
		t.Errorf("params text = %s", m.params)
	}
	// A progress token that is neither a string nor a number is dropped.
	msg = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":{}}}}`
	if _, err := parseInto([]byte(msg), &m); err != nil || m.meta.ProgressToken != nil {
		t.Errorf("object progress token: err %v, token %s", err, m.meta.ProgressToken)
	}
}

// TestSkipUnchecked checks where the skip of unchecked arguments ends:
// just after the value, on well-formed values whatever their strings
// hold, and nowhere when the brackets never close.
func TestSkipUnchecked(t *testing.T) {
	t.Parallel()
	for _, v := range []string{
		`{}`, `{"a":1}`, `{"a":"}"}`, `{"a":"\\"}`, `{"a":"\""}`, `{"a":"\\\"}]"}`,
		`{"a":["{",{"b":"]"}]}`, `{"\\":"\\\\"}`, `[1,[2,[3]]]`, `{"a":"x\\\\"}`,
	} {
		s := rawScanner{b: []byte(v + `,"rest":"}"}`)}
		if ok := s.skipUnchecked(); !ok || s.i != len(v) {
			t.Errorf("skip of %s: ok %v, ended at %d, want %d", v, ok, s.i, len(v))
		}
	}
	for _, v := range []string{`{"a":1`, `{"a":"}`, `{"a":"\"}`, `[[]`, `{`} {
		s := rawScanner{b: []byte(v)}
		if s.skipUnchecked() {
			t.Errorf("skip of %s succeeded, at %d", v, s.i)
		}
	}
}

// referenceArguments are the arguments of the benchmarks' reference call:
// ten price changes, every other one with a date-time.
func referenceArguments() string {
	var args strings.Builder
	args.WriteString(`{"region":"emea","rounding":"nearest_cent","changes":[`)
	for i := range 10 {
		if i > 0 {
			args.WriteByte(',')
		}
		fmt.Fprintf(&args, `{"product_id":"SKU-%05d","new_price":%d.99`, 10000+i, 10+i)
		if i%2 == 0 {
			args.WriteString(`,"effective_from":"2026-07-01T00:00:00Z"`)
		}
		args.WriteByte('}')
	}
	args.WriteString(`]}`)
	return args.String()
}

// BenchmarkSkipArguments skips the arguments of the benchmarks'
// reference call by matching brackets, as the parse of a tools/call does.
func BenchmarkSkipArguments(b *testing.B) {
	args := referenceArguments()
	text := []byte(args + `}}`)
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		s := rawScanner{b: text}
		if !s.skipUnchecked() || s.i != len(args) {
			b.Fatal("wrong end")
		}
	}
}

// skipByBytes is skipUnchecked one byte at a time, as it was written
// first: the reference FuzzSkipUnchecked compares it with.
func skipByBytes(b []byte, i int) (int, bool) {
	depth, inString := 0, false
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// FuzzSkipUnchecked checks that skipUnchecked, eight bytes at a time,
// ends where matching brackets one byte at a time does, on any text.
func FuzzSkipUnchecked(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":"}"}`, `{"a":"\"}"}`, `{"a":"\\"}`, `{"abcdefg\\":"}"}`, `{"abcdef\\\"}":1}`,
		`{"k":[1,2,{"x":"y\\\\"}],"l":"\u00e9"}` + "  ", `{"a":"12345678\\"12345678"}}`, `{"unclosed":"`, `{{{`,
		`{"region":"emea","rounding":"nearest_cent","changes":[{"product_id":"SKU-10000","new_price":10.99}]}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if len(text) == 0 || text[0] != '{' && text[0] != '[' {
			return
		}
		s := rawScanner{b: text}
		ok := s.skipUnchecked()
		want, wantOK := skipByBytes(text, 0)
		if ok != wantOK || ok && s.i != want {
			t.Fatalf("skipUnchecked(%q) = %d, %v; want %d, %v", text, s.i, ok, want, wantOK)
		}
	})
}

// BenchmarkCheckArguments checks the syntax of the reference call's
// arguments, as the parse over HTTP does.
func BenchmarkCheckArguments(b *testing.B) {
	text := []byte(referenceArguments())
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if !validArgs(text) {
			b.Fatal("not valid")
		}
	}
}

// FuzzParseChecked checks that parseCheckedInto, which checks a call's
// arguments in its one pass, parses every message as parseInto followed
// by checkArgs does: the same error and id, or the same message.
func FuzzParseChecked(f *testing.F) {
	for _, in := range paramsCases {
		f.Add(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + in + `}`)
	}
	for _, in := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"x":[1,2}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"x":"\"}"},"name":"a"}}`,
		`{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"x":tru}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":[1]}}`,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"a","arguments":{"x":1,}}}`,
	} {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Count(in, "[")+strings.Count(in, "{") > maxNesting {
			return
		}
		var plain, checked message
		id1, err1 := parseInto([]byte(in), &plain)
		if err1 == nil && !plain.meta.checkArgs() {
			id1, err1 = nil, errParse
		}
		id2, err2 := parseCheckedInto([]byte(in), &checked)
		if err2 == nil && !checked.meta.checkArgs() {
			id2, err2 = nil, errParse
		}
		switch {
		case (err1 == nil) != (err2 == nil):
			t.Fatalf("parseInto: %v; parseCheckedInto: %v", err1, err2)
		case err1 != nil:
			if err1.code != err2.code || err1.message != err2.message || string(id1) != string(id2) {
				t.Fatalf("parseInto: %d %q id %s; parseCheckedInto: %d %q id %s", err1.code, err1.message, id1, err2.code, err2.message, id2)
			}
		case !reflect.DeepEqual(plain, checked):
			t.Fatalf("parseInto: %+v\nparseCheckedInto: %+v", plain, checked)
		}
	})
}
