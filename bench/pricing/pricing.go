// Package pricing holds the tool of the reference request of the
// benchmarks: bulk_price_update, annotated for mcpgen, and the same input
// types the SDK paths decode into. It is the one owner of those types:
// the benchmarks, the adapters' tests and the decoder fuzzing of
// internal/difftest import them. examples/basics writes its own copy, so
// that the example reads on its own.
package pricing

import (
	"context"
	"fmt"
	"strings"
	"time"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen
//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -client=pricingclient

// Region is a sales region.
type Region string

// The sales regions.
const (
	EMEA Region = "emea"
	AMER Region = "amer"
	APAC Region = "apac"
)

// Rounding says how a computed price is rounded.
type Rounding string

// The rounding modes.
const (
	RoundNone        Rounding = "none"
	RoundNearestCent Rounding = "nearest_cent"
	RoundNearestUnit Rounding = "nearest_unit"
)

// PriceChange is the new price of one product.
type PriceChange struct {
	ProductID     string     `json:"product_id"`               // Product identifier
	NewPrice      float64    `json:"new_price" mcp:"min=0"`    // New unit price
	EffectiveFrom *time.Time `json:"effective_from,omitempty"` // Date the new price takes effect
}

// BulkPriceUpdateInput is a price change for many products of one region.
type BulkPriceUpdateInput struct {
	Region   Region        `json:"region"`             // Sales region the change applies to
	Rounding Rounding      `json:"rounding,omitempty"` // How to round the resulting price
	Changes  []PriceChange `json:"changes"`            // Products to reprice and their new prices
}

// BulkPriceUpdate applies a price change to a list of products in one region.
//
//mcp:tool title="Bulk price update" destructive idempotent=false openworld=false
func BulkPriceUpdate(ctx context.Context, in BulkPriceUpdateInput) (string, error) {
	return Apply(in)
}

// Apply is the work every path of the benchmark does once the arguments
// are decoded and checked.
func Apply(in BulkPriceUpdateInput) (string, error) {
	if in.Region == APAC && in.Rounding == RoundNone {
		return "", fmt.Errorf("region apac requires rounding")
	}
	return fmt.Sprintf("updated %d prices in %s", len(in.Changes), in.Region), nil
}

// CallRequest returns the reference request of the benchmarks: tools/call
// of bulk_price_update with n changes, every other one with a date, as
// JSON-RPC with the given id.
func CallRequest(id, n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"bulk_price_update",`, id)
	b.WriteString(`"arguments":{"region":"emea","rounding":"nearest_cent","changes":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"product_id":"SKU-%05d","new_price":%d.99`, 10000+i, 10+i)
		if i%2 == 0 {
			b.WriteString(`,"effective_from":"2026-07-01T00:00:00Z"`)
		}
		b.WriteByte('}')
	}
	b.WriteString(`]}}}`)
	return []byte(b.String())
}
