package t

import "context"

// Meta holds what cannot be mapped.
type Meta struct {
	Fn   func()         `json:"fn"`
	Ch   chan int       `json:"ch"`
	Keys map[int]string `json:"keys"`
}

// Change has a nested problem.
type Change struct {
	Meta  Meta   `json:"meta"`
	Price int    `json:"price" mcp:"minLength=2"`
	Kind  string `json:"kind" mcp:"enum=a|b,default=c"`
	Size  int    `json:"size" mcp:"enum=1|x"`
}

// In has changes.
type In struct {
	Changes []Change `json:"changes"`
}

// Apply applies changes.
//
//mcp:tool
func Apply(ctx context.Context, in In) error { return nil }
