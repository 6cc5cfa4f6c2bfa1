package c

import "context"

// In is empty.
type In struct{}

// Tool is a package-level tool.
//
//mcp:tool
func Tool(ctx context.Context, in In) error { return nil }

// MCPTools is the user's own list.
func MCPTools() []string { return nil }

// Server has tool methods.
type Server struct{}

// Serve serves.
//
//mcp:tool
func (s *Server) Serve(ctx context.Context, in In) error { return nil }

// MCPTools is the user's own method.
func (s Server) MCPTools() int { return 0 }

// Plain has an MCPTools method but no tool methods: no collision.
type Plain struct{}

// MCPTools is allowed here.
func (Plain) MCPTools() int { return 0 }

var mcpgen_cache = map[string]int{}

type mcpgen_helper struct{}

func mcpgen_decode_In() {}
