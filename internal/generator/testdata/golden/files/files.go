// Package files has a tool whose input schema is given by a file, which
// its decoder checks: nested objects through $ref, lists, maps and null.
package files

import "context"

// Line is one line of an order.
type Line struct {
	SKU  string  `json:"sku"`
	Qty  int     `json:"qty"`
	Note *string `json:"note,omitempty"`
}

// Shipping says where an order goes.
type Shipping struct {
	Country string `json:"country"`
	Express bool   `json:"express,omitempty"`
}

// OrderInput is an order; its schema is order.json.
type OrderInput struct {
	Customer string            `json:"customer" mcp:"maxLength=10,pattern=^[a-z]"`
	Lines    []Line            `json:"lines"`
	Ship     *Shipping         `json:"ship,omitempty"`
	Gift     *Shipping         `json:"gift,omitempty"`
	Tags     map[string]string `json:"tags,omitempty"`
	Level    int               `json:"level,omitempty"`
	Codes    [][]int           `json:"codes,omitempty"`
	Extra    any               `json:"extra,omitempty"`
	Region   string            `json:"region,omitempty" mcp:"header=Region"`
}

// PlaceOrder places an order.
//
//mcp:tool input=order.json
func PlaceOrder(ctx context.Context, in OrderInput) (string, error) { return in.Customer, nil }
