// Package quote holds the tool of the client benchmarks' structured
// request: price_quote returns a structured result of ten lines, so that
// a typed client's decoding is measured beside a map's.
package quote

import (
	"context"
	"fmt"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen
//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -client=quoteclient

// Input is what to quote.
type Input struct {
	Region   string   `json:"region" mcp:"enum=emea|amer|apac"` // Sales region
	Products []string `json:"products" mcp:"minItems=1"`        // Product identifiers
}

// Line is the price of one product.
type Line struct {
	ProductID string  `json:"product_id"` // Product identifier
	Price     float64 `json:"price"`      // Unit price
	InStock   bool    `json:"in_stock"`   // Whether the product ships now
}

// Quote is the price of every product asked for.
type Quote struct {
	Region string  `json:"region"` // Sales region
	Lines  []Line  `json:"lines"`  // One line a product, in the order asked
	Total  float64 `json:"total"`  // Sum of the prices
}

// PriceQuote quotes the current price of each product in a region.
//
//mcp:tool title="Price quote" readonly
func PriceQuote(ctx context.Context, in Input) (Quote, error) {
	q := Quote{Region: in.Region, Lines: make([]Line, len(in.Products))}
	for i, p := range in.Products {
		price := 10 + float64(i) + 0.99
		q.Lines[i] = Line{ProductID: p, Price: price, InStock: i%3 != 0}
		q.Total += price
	}
	if q.Total < 0 {
		return Quote{}, fmt.Errorf("negative total")
	}
	return q, nil
}
