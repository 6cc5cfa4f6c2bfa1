package f

import "context"

// Inner is nested.
type Inner struct {
	A int `json:"a"` // A number
}

// In is checked by bad.json, which says what it cannot hold or the
// decoder cannot check.
type In struct {
	Name  string      `json:"name"`
	Count int         `json:"count"`
	Maybe string      `json:"maybe"`
	Mode  string      `json:"mode"`
	In    Inner       `json:"in"`
	Any   any         `json:"any"`
	Deep  [][]string  `json:"deep"`
	Pat   string      `json:"pat"`
	Fmt   string      `json:"fmt"`
	Ref   *Inner      `json:"ref" mcp:"required"`
	Ext   Inner       `json:"ext"`
	Tags  []string    `json:"tags" mcp:"maxItems=3"`
	Never *string     `json:"never"`
	Zone  string      `json:"zone" mcp:"header=Zone"`
	Hues  map[Hue]int `json:"hues"`
	Tints map[Hue]int `json:"tints"`
}

// Hue is a key with constants.
type Hue string

// The hues.
const (
	Warm Hue = "warm"
	Cold Hue = "cold"
)

// Check checks.
//
//mcp:tool input=bad.json
func Check(ctx context.Context, in In) error { return nil }
