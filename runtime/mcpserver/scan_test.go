package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// scanCases are envelopes and bare values, well-formed and not, that
// scanObject must judge as encoding/json does.
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
	ok, notObject := scanObject([]byte(in), func(key, val []byte) {})
	valid := json.Valid([]byte(in))
	isObject := valid && strings.TrimSpace(in)[0] == '{'
	deep := strings.HasPrefix(in, "[[[[[[")
	switch {
	case deep:
		if ok {
			t.Errorf("scanObject(%.20q...) accepted nesting beyond the limit", in)
		}
	case ok != isObject:
		t.Errorf("scanObject(%q) ok = %v; encoding/json: valid %v, object %v", in, ok, valid, isObject)
	case notObject != (valid && !isObject):
		t.Errorf("scanObject(%q) notObject = %v; encoding/json: valid %v, object %v", in, notObject, valid, isObject)
	}
}

// TestScanObjectAgreesWithEncodingJSON checks the hand-written scanner
// against encoding/json on every case.
func TestScanObjectAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range scanCases {
		checkScan(t, in)
	}
}

// TestScanObjectMembers checks the members and raw values it reports,
// escaped keys decoded.
func TestScanObjectMembers(t *testing.T) {
	var got []string
	ok, _ := scanObject([]byte(` {"a" : [1, {"x":2}] ,"m\u0065thod":"ping", "n":-1.5e3}`), func(key, val []byte) {
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
