package mcpimpl_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// FuzzDecode feeds arbitrary bytes to the reference decode function: it
// must never panic, must report a problem for anything encoding/json
// calls invalid, and must call nothing invalid JSON that encoding/json
// accepts (nesting deeper than the limit aside).
func FuzzDecode(f *testing.F) {
	f.Add(referenceArgs())
	f.Add([]byte(`{"region":"xx","changes":[{"new_price":"abc","colour":1},{"product_id":null}]}`))
	f.Add([]byte(`{"region":"emea","changes":[],"x":[1,{"a":"\ud800"}]}`))
	f.Add([]byte(`{"region":"emea","changes":[{"product_id":"a","new_price":1e999}]`))
	f.Add([]byte(`[[[[{"a":tru}]]]]`))
	f.Add([]byte("{\"region\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := decodeReference(data)
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) == 0 {
			return // no arguments stand for {}
		}
		valid := json.Valid(data)
		if !valid && err == nil {
			t.Fatalf("no problem reported for invalid JSON %q", data)
		}
		var ae *mcpimpl.ArgumentError
		if err != nil && !errors.As(err, &ae) {
			t.Fatalf("error %T %v", err, err)
		}
		if valid && ae != nil {
			for _, p := range ae.Problems {
				if strings.HasPrefix(p.Message, "invalid JSON") {
					t.Fatalf("valid JSON %q reported as %s", data, p.Message)
				}
			}
		}
	})
}

// FuzzAppendString checks AppendString against encoding/json.
func FuzzAppendString(f *testing.F) {
	for _, s := range testStrings()[:20] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := jsonx.AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}
