package mcpimpl_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// This file measures the tokenizer choice the decoder rests on: the same
// reference arguments, into the same structs, with the same checks
// (required, enum, unknown and duplicate names, date-times), read with
// jsontext (the tokenizer under encoding/json/v2) instead of the
// hand-written scanner. The hand-written scanner is kept because it is
// clearly faster on this request (see BenchmarkTokenizer and the comment
// in scan.go).

// jtDecodePriceInput decodes the reference arguments with jsontext.
func jtDecodePriceInput(dec *jsontext.Decoder, v *priceInput) error {
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return fmt.Errorf("expected object: %v", err)
	}
	var seen [3]bool
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return err
		}
		switch name.String() {
		case "region":
			seen[0] = true
			tok, err := dec.ReadToken()
			if err != nil || tok.Kind() != '"' {
				return fmt.Errorf("region: expected string")
			}
			switch v.Region = tok.String(); v.Region {
			case "emea", "amer", "apac":
			default:
				return fmt.Errorf("region: bad enum")
			}
		case "rounding":
			seen[1] = true
			tok, err := dec.ReadToken()
			if err != nil || tok.Kind() != '"' {
				return fmt.Errorf("rounding: expected string")
			}
			v.Rounding = tok.String()
		case "changes":
			seen[2] = true
			if err := jtDecodeChanges(dec, &v.Changes); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unknown property %s", name.String())
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if !seen[0] || !seen[2] {
		return fmt.Errorf("missing required property")
	}
	return nil
}

func jtDecodeChanges(dec *jsontext.Decoder, v *[]priceChange) error {
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		return fmt.Errorf("changes: expected array")
	}
	for dec.PeekKind() != ']' {
		*v = append(*v, priceChange{})
		if err := jtDecodeChange(dec, &(*v)[len(*v)-1]); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}

func jtDecodeChange(dec *jsontext.Decoder, v *priceChange) error {
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return fmt.Errorf("expected object")
	}
	var seen [2]bool
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return err
		}
		key := name.String() // a token is void after the next read
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		switch key {
		case "product_id":
			seen[0] = true
			v.ProductID = tok.String()
		case "new_price":
			seen[1] = true
			if v.NewPrice, err = tok.Float(); err != nil {
				return err
			}
		case "effective_from":
			t, err := time.Parse(time.RFC3339Nano, tok.String())
			if err != nil {
				return err
			}
			v.EffectiveFrom = &t
		default:
			return fmt.Errorf("unknown property %s", key)
		}
	}
	_, err := dec.ReadToken()
	if !seen[0] || !seen[1] {
		return fmt.Errorf("missing required property")
	}
	return err
}

func TestJSONTextDecoderAgrees(t *testing.T) {
	t.Parallel()
	args := referenceArgs()
	want, err := decodeReference(args)
	if err != nil {
		t.Fatal(err)
	}
	var got priceInput
	if err := jtDecodePriceInput(jsontext.NewDecoder(bytes.NewReader(args)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Region != want.Region || len(got.Changes) != len(want.Changes) || !got.Changes[9].EffectiveFrom.Equal(*want.Changes[9].EffectiveFrom) {
		t.Errorf("jsontext decode %+v differs from the scanner's %+v", got, want)
	}
}

// BenchmarkTokenizerJSONText is the jsontext side of the comparison with
// BenchmarkDecodeReference.
func BenchmarkTokenizerJSONText(b *testing.B) {
	args := referenceArgs()
	r := bytes.NewReader(args)
	dec := jsontext.NewDecoder(r)
	b.ReportAllocs()
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		r.Reset(args)
		dec.Reset(r)
		var in priceInput
		if err := jtDecodePriceInput(dec, &in); err != nil {
			b.Fatal(err)
		}
	}
}
