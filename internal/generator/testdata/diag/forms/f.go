package f

import "context"

// Level is not a struct.
//
//mcp:form
type Level int

// Address is nested.
type Address struct {
	City string `json:"city"`
}

// Signup has fields a form cannot hold.
//
//mcp:form
type Signup struct {
	Name    string   `json:"name"`                   // Your name
	Home    Address  `json:"home"`                   // Where you live
	Tags    []string `json:"tags"`                   // Free tags
	Choices []string `json:"choices" mcp:"enum=a|b"` // Pick some
}

// Titled has a key.
//
//mcp:form title="x"
type Titled struct {
	A string `json:"a"` // A
}

// Misplaced is a func.
//
//mcp:form
func Misplaced(ctx context.Context) error { return nil }

// Tool keeps the package a tool package.
//
//mcp:tool
func Tool(ctx context.Context) error { return nil }
