package d

import "context"

// In has one undocumented property and one documented.
type In struct {
	Plain string `json:"plain"`
	Told  string `json:"told"`  // Told is documented
	Inner Inner  `json:"inner"` // Nested value
}

// Inner is nested.
type Inner struct {
	Deep int `json:"deep"`
}

//mcp:tool
func Undocumented(ctx context.Context, in In) error { return nil }

// Emptied sets an empty description.
//
//mcp:tool description=""
func Emptied(ctx context.Context, in In) error { return nil }

// Verbose Counts things. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description. This sentence pads the description.
//
//mcp:tool
func Verbose(ctx context.Context, in In) error { return nil }

// Positional takes parameters, one undescribed.
//
//mcp:tool
//mcp:param a description="The first"
func Positional(ctx context.Context, a string, b int) error { return nil }
