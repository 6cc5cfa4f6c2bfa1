// Package pricing holds the reference tool, bulk_price_update, generated
// by mcpgen, for the adapter's tests and benchmark.
package pricing

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

import (
	"context"
	"time"
)

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
func BulkPriceUpdate(ctx context.Context, in BulkPriceUpdateInput) (int, error) {
	return len(in.Changes), nil
}
