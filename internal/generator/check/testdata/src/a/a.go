package a

import "context"

// In is the input of the tools below.
type In struct {
	// want +2 `warning: property plain has no description: add a doc or line comment, or desc= in its mcp tag`

	Plain string `json:"plain"`
}

// Bad has a tag that does not fit its type.
type Bad struct {
	Count int `json:"count" mcp:"minLength=2"` // want `key "minLength" does not apply to an integer: it is for strings`
}

// Tagged uses Bad twice, through two tools: one diagnostic.
//
//mcp:tool
func Tagged(ctx context.Context, in Bad) error { return nil }

// TaggedToo uses Bad again.
//
//mcp:tool
func TaggedToo(ctx context.Context, in *Bad) error { return nil }

// Titled has a misspelt key.
//
// want +2 `unknown key "titel"; did you mean "title"\?`
//
//mcp:tool titel="x"
func Titled(ctx context.Context, in In) error { return nil }

// Contradicts is read-only and destructive.
//
// want +2 `readonly and destructive contradict each other`
//
//mcp:tool readonly destructive
func Contradicts(ctx context.Context, in In) error { return nil }

// want +2 `tool undocumented has no description: write a doc comment on Undocumented or set description=`

//mcp:tool
func Undocumented(ctx context.Context, in In) error { return nil }

// First uses a name.
//
// want +2 `tool name "same" is used twice \(also at a.go:55:1\): set name= on one of them`
//
//mcp:tool name=same
func First(ctx context.Context, in In) error { return nil }

// want +2 `tool name "same" is used twice \(also at a.go:50:1\)`
//
//mcp:tool name=same
func Second(ctx context.Context, in In) error { return nil }

// Misplaced is a type.
//
// want +2 `//mcp:tool on type Misplaced: move it to the doc comment of a top-level func or method`
//
//mcp:tool
type Misplaced struct{}

// Described names a parameter it does not have.
//
// want +3 `//mcp:param nmae names no parameter of Described; did you mean "name"\? \(parameters: name\)`
//
//mcp:tool
//mcp:param nmae description="The name"
func Described(ctx context.Context, name string) error { return nil }

// Many takes any number of words.
//
//mcp:tool
func Many(ctx context.Context, words ...string) error { return nil } // want `Many is variadic`

// Server has a tool method.
type Server struct{}

// Serve serves.
//
//mcp:tool
func (s *Server) Serve(ctx context.Context, in In) error { return nil }

func (s *Server) MCPTools() int { return 0 } // want `method MCPTools of Server is declared by the generated file for the tool methods of Server: rename this method`

var mcpgen_cache = 1 // want `mcpgen_cache uses the prefix mcpgen_, which is reserved for generated code: rename it`

// Spaced has a space after the slashes of its directive.
//
// want +2 `warning: // mcp:tool is not a directive and does nothing: remove the space after the slashes \(//mcp:tool\)`
//
// mcp:tool
func Spaced(ctx context.Context, in In) error { return nil }

// Hid has an unexported field with a json tag.
type Hid struct {
	hidden string `json:"hidden"` // want `warning: field hidden is unexported, so it is not a property and its json tag does nothing: export it \(Hidden\) or remove the tag`
}

// UsesHid takes a Hid.
//
//mcp:tool
func UsesHid(ctx context.Context, in Hid) error { return nil }
