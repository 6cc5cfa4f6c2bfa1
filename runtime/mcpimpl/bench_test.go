package mcpimpl_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// BenchmarkDecodeReference decodes the reference arguments the way
// generated code does, reusing one Decoder as a server would.
func BenchmarkDecodeReference(b *testing.B) {
	args := referenceArgs()
	var d mcpimpl.Decoder
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
	var d mcpimpl.Decoder
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

// TestAllocations checks the allocation promises of the hot path: walking
// objects, keys and numbers allocates nothing once the Decoder is warm,
// and a string without escapes costs exactly its own allocation.
func TestAllocations(t *testing.T) {
	// Not parallel: testing.AllocsPerRun panics in a parallel test.
	var d mcpimpl.Decoder
	walk := []byte(`{"a":1,"b\u0062":[2.5,"3",true],"c":{"d":null}}`)
	n := testing.AllocsPerRun(100, func() {
		d.Reset(walk)
		for d.Object(); d.NextField(); {
			if string(d.Key()) != "a" {
				d.Skip()
				continue
			}
			d.Int(64)
		}
		if d.Finish() != nil {
			t.Fatal("unexpected problem")
		}
	})
	if n != 0 {
		t.Errorf("walking an object: %v allocations, want 0", n)
	}
	str := []byte(`"a string long enough not to fit in any small buffer at all"`)
	n = testing.AllocsPerRun(100, func() {
		d.Reset(str)
		_ = d.String()
		d.Finish()
	})
	if n != 1 {
		t.Errorf("String without escapes: %v allocations, want 1", n)
	}
}
