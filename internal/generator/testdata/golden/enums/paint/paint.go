// Package paint declares a struct whose fields are of the types of
// package kinds.
package paint

import "github.com/mcpgen/mcpgen/internal/generator/testdata/golden/enums/kinds"

// Coat is one coat of paint.
type Coat struct {
	Color  kinds.Color  `json:"color"`            // Color of the coat
	Finish kinds.Finish `json:"finish,omitempty"` // How the coat dries
}
