package t

import (
	"context"
	"math/big"

	"github.com/mcpgen/mcpgen/internal/generator/testdata/golden/enums/kinds"
)

// In has tags that cannot hold.
type In struct {
	Count int                  `json:"count" mcp:"max=10,default=20"`
	Above int                  `json:"above" mcp:"exclusiveMin=0,default=0"`
	Short string               `json:"short" mcp:"maxLength=3,default=long"`
	Lower string               `json:"lower" mcp:"pattern=^[a-z]+$,default=ABC"`
	Big   *big.Int             `json:"big" mcp:"minLength=1"`
	Width int                  `json:"width" mcp:"format=date"`
	Range int                  `json:"range" mcp:"min=5,max=1"`
	Regex string               `json:"regex" mcp:"pattern=[a-"`
	Size  uint8                `json:"size" mcp:"default=300"`
	Anon  Box[struct{ A int }] `json:"anon"`
}

// Box holds one value.
type Box[T any] struct {
	V T `json:"v"`
}

// Check checks.
//
//mcp:tool
func Check(ctx context.Context, in In) error { return nil }

// Q is searched.
type Q struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// Search searches.
//
//mcp:tool input=search.json
func Search(ctx context.Context, in Q) error { return nil }

// Level reads itself from text.
type Level int

// UnmarshalText reads a level.
func (l *Level) UnmarshalText(b []byte) error { return nil }

// R has a level with a default no Go value can hold.
type R struct {
	L Level `json:"l" mcp:"enum=low|high,default=low"`
}

// Rate rates.
//
//mcp:tool
func Rate(ctx context.Context, in R) error { return nil }

// Shade is a named string type with constants.
type Shade string

// The shades.
const (
	Light Shade = "light"
	Dark  Shade = "dark"
)

// Off turns off an enum that is replaced, and one that does not exist.
type Off struct {
	Both  Shade `json:"both" mcp:"noenum,enum=light"`
	Plain int   `json:"plain" mcp:"noenum"`
	// Fields of types of another package of the module: their enums are
	// known there too.
	Color  kinds.Color  `json:"color" mcp:"noenum"`
	Finish kinds.Finish `json:"finish" mcp:"default=7"`
}

// Turn turns.
//
//mcp:tool
func Turn(ctx context.Context, in Off) error { return nil }

// Contact has formats misspelt, one unknown, and known ones.
type Contact struct {
	Mail  string   `json:"mail" mcp:"format=e-mail"`       // Address
	When  string   `json:"when" mcp:"format=datetime"`     // Moment
	Host  string   `json:"host" mcp:"format=hostname"`     // Published, not checked
	Cards []string `json:"cards" mcp:"format=credit-card"` // No format is near
	Big   *big.Int `json:"big" mcp:"format=Email"`         // Its case differs
}

// Reach reaches someone.
//
//mcp:tool
func Reach(ctx context.Context, in Contact) error { return nil }

// Call calls someone, with a positional parameter of a misspelt format.
//
//mcp:tool
//mcp:param number description="Whom to call" format='phone'
//mcp:param at description="When" format="dat"
func Call(ctx context.Context, number string, at string) error { return nil }
