package mcprt_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// BenchmarkDecodeReference decodes the reference arguments the way
// generated code does, reusing one Decoder as a server would.
func BenchmarkDecodeReference(b *testing.B) {
	args := referenceArgs()
	var d mcprt.Decoder
	b.ReportAllocs()
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		d.Reset(args)
		var in priceInput
		decodePriceInput(&d, &in)
		if err := d.Finish(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeReferenceEncodingJSON decodes the same arguments into the
// same structs with encoding/json, the baseline to compare with.
func BenchmarkDecodeReferenceEncodingJSON(b *testing.B) {
	args := referenceArgs()
	b.ReportAllocs()
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		var in priceInput
		if err := json.Unmarshal(args, &in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeProblems decodes arguments with several problems, the
// path that formats messages.
func BenchmarkDecodeProblems(b *testing.B) {
	args := []byte(`{"region":"xx","changes":[{"new_price":"abc"},{"product_id":"a","new_price":1,"colour":1}],"extra":1}`)
	var d mcprt.Decoder
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(args)
		var in priceInput
		decodePriceInput(&d, &in)
		if d.Finish() == nil {
			b.Fatal("no problems")
		}
	}
}
