// Package hidden has a map keyed by a type only it can name.
package hidden

type key string

// Keyed has a map of an unexported key type.
type Keyed struct {
	M map[key]int `json:"m"` // Counts
}
