// Package remote has tools whose types are declared in other packages: one
// of the module and one of the standard library, and generic ones.
package remote

import (
	"context"
	"go/token"

	"github.com/mcpgen/mcpgen/internal/generator/testdata/golden/remote/shared"
)

// Item is one line of an order.
type Item struct {
	SKU      string `json:"sku"`      // Stock keeping unit
	Quantity int    `json:"quantity"` // How many
}

// OrderInput is an order for a customer.
type OrderInput struct {
	Customer shared.Customer             `json:"customer"`
	Buyer    shared.Customer             `json:"buyer"` // Who pays, when not the customer
	Where    token.Position              `json:"where"`
	Lines    shared.Page[Item]           `json:"lines"`
	Counts   shared.Page[int]            `json:"counts,omitempty"`
	Labels   []shared.Pair[string, bool] `json:"labels,omitempty"`
	Topics   *shared.Tree[string]        `json:"topics,omitempty"`
}

// Order places an order.
//
//mcp:tool
func Order(ctx context.Context, in OrderInput) (shared.Page[Item], error) {
	return in.Lines, nil
}
