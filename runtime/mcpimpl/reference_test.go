package mcpimpl_test

import (
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// The types and decode functions below are written by hand in the shape
// the generator emits, and serve as the reference call of the tests,
// fuzz targets and benchmarks.

type priceInput struct {
	Region   string        `json:"region"`
	Rounding string        `json:"rounding,omitempty"`
	Changes  []priceChange `json:"changes"`
}

type priceChange struct {
	ProductID     string     `json:"product_id"`
	NewPrice      float64    `json:"new_price"`
	EffectiveFrom *time.Time `json:"effective_from"`
	Color         string     `json:"color,omitempty"`
}

var (
	fieldsPriceInput  = []string{"region", "rounding", "changes"}
	fieldsPriceChange = []string{"product_id", "new_price", "effective_from", "color"}
)

func decodePriceInput(d *mcpimpl.Decoder, v *priceInput) {
	var seen [3]bool
	if !d.Object() {
		return
	}
	for d.NextField() {
		switch string(d.Key()) {
		case "region":
			if seen[0] {
				d.Duplicate()
				continue
			}
			seen[0] = true
			s := d.String()
			switch s {
			case "emea", "amer", "apac":
			default:
				d.BadEnum(jsonx.Quote(s), `"emea", "amer", "apac"`)
			}
			v.Region = s
		case "rounding":
			if seen[1] {
				d.Duplicate()
				continue
			}
			seen[1] = true
			s := d.String()
			switch s {
			case "none", "nearest_cent", "up":
			default:
				d.BadEnum(jsonx.Quote(s), `"none", "nearest_cent", "up"`)
			}
			v.Rounding = s
		case "changes":
			if seen[2] {
				d.Duplicate()
				continue
			}
			seen[2] = true
			if d.Array() {
				for d.NextElem() {
					v.Changes = mcpimpl.Grow(d, v.Changes)
					decodePriceChange(d, &v.Changes[len(v.Changes)-1])
				}
			}
		default:
			d.UnknownField(fieldsPriceInput)
		}
	}
	if !seen[0] {
		d.Missing("region")
	}
	if !seen[2] {
		d.Missing("changes")
	}
}

func decodePriceChange(d *mcpimpl.Decoder, v *priceChange) {
	var seen [4]bool
	if !d.Object() {
		return
	}
	for d.NextField() {
		switch string(d.Key()) {
		case "product_id":
			if seen[0] {
				d.Duplicate()
				continue
			}
			seen[0] = true
			v.ProductID = d.String()
		case "new_price":
			if seen[1] {
				d.Duplicate()
				continue
			}
			seen[1] = true
			v.NewPrice = d.Float(64)
		case "effective_from":
			if seen[2] {
				d.Duplicate()
				continue
			}
			seen[2] = true
			if d.Null() {
				v.EffectiveFrom = nil
				continue
			}
			x := d.Time()
			v.EffectiveFrom = &x
		case "color":
			if seen[3] {
				d.Duplicate()
				continue
			}
			seen[3] = true
			v.Color = d.String()
		default:
			d.UnknownField(fieldsPriceChange)
		}
	}
	if !seen[0] {
		d.Missing("product_id")
	}
	if !seen[1] {
		d.Missing("new_price")
	}
}

// decodeReference decodes args as a generated tool call would.
func decodeReference(args []byte) (priceInput, error) {
	var d mcpimpl.Decoder
	d.Reset(args)
	var in priceInput
	decodePriceInput(&d, &in)
	return in, d.Finish()
}

// referenceArgs returns the reference arguments: ten price changes.
func referenceArgs() []byte {
	var b strings.Builder
	b.WriteString(`{"region":"emea","rounding":"nearest_cent","changes":[`)
	for i := range 10 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"product_id":"P-`)
		b.WriteString(string(rune('0' + i)))
		b.WriteString(`","new_price":19.99,"effective_from":"2026-01-01T00:00:00Z"}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}
