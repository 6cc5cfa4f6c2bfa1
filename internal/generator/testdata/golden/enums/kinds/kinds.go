// Package kinds declares named types with constants for the tools of
// another package, which imports only package paint.
package kinds

// Color is a paint color.
type Color string

// The colors.
const (
	Red   Color = "red"   // like a tomato
	Green Color = "green" // like grass
)

// Finish is how a paint dries, enumerated with iota.
type Finish int

// The finishes.
const (
	Matte Finish = iota
	Satin
	Gloss
)
