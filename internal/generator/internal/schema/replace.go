package schema

import "github.com/mcpgen/mcpgen/internal/generator/internal/model"

// SetInput replaces the input schema of t, one of the set's tools: the
// command rewrites schemas after they are computed (mcpgen -portable),
// and the emitter and the tool list read the result.
func (s *Set) SetInput(t *model.Tool, input []byte) {
	ts := s.tools[t]
	ts.Input = input
	s.tools[t] = ts
}
