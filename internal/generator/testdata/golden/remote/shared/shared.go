// Package shared declares request types used by the tools of another
// package.
package shared

// Customer is who an order is for.
type Customer struct {
	// Name is the customer's full name.
	Name  string `json:"name" mcp:"minLength=1"`
	Email string `json:"email,omitempty" mcp:"format=email"` // Where receipts go
	Notes string `json:"notes,omitempty"`
}

// Page is one page of a listing.
type Page[T any] struct {
	Items []T  `json:"items"`          // The entries of this page
	Next  *int `json:"next,omitempty"` // Offset of the next page, absent on the last
}

// Pair holds two values of different types.
type Pair[K comparable, V any] struct {
	Key   K `json:"key"`   // The key
	Value V `json:"value"` // The value
}

// Tree is a value with subtrees.
type Tree[T any] struct {
	Value T         `json:"value"`
	Kids  []Tree[T] `json:"kids,omitempty"`
}
