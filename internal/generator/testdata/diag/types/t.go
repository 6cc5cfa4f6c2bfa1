package t

import (
	"context"

	"github.com/mcpgen/mcpgen/internal/generator/testdata/diag/types/hidden"
)

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
	Dup     Dup      `json:"dup"`
	Both
	Keys Keys `json:"keys"`
}

// Code is a string type that reads itself from text.
type Code string

// UnmarshalText reads a code.
func (c *Code) UnmarshalText(b []byte) error { *c = Code(b); return nil }

// Keys has maps of keys the generator refuses.
type Keys struct {
	ByCode map[Code]int      `json:"by_code"`
	ByFlag map[bool]string   `json:"by_flag"`
	ByID   map[uint16]int    `json:"by_id"`
	ByPair map[[2]string]int `json:"by_pair"`
	Hidden hidden.Keyed      `json:"hidden"`
}

// Dup has three fields of one JSON name, and an untagged field that a
// tagged one of its name hides, as encoding/json does.
type Dup struct {
	Old  string `json:"name"`
	New  string `json:"name"`
	Last string `json:"name"`
	Kind string
	K    string `json:"Kind"`
}

// Left and Right are embedded side by side.
type Left struct {
	ID   string `json:"id"`
	Note string
}

// Right has the ID Left has, at the same depth.
type Right struct {
	ID   string `json:"id"`
	Note string
}

// Both embeds Left and Right: their IDs vanish together.
type Both struct {
	Left
	Right
}

// Apply applies changes.
//
//mcp:tool
func Apply(ctx context.Context, in In) error { return nil }
