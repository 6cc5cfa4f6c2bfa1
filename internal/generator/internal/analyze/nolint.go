package analyze

import (
	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/internal/generator/internal/lint"
)

// nolint reads nolint=, the -lint rules silenced where it is written,
// reporting each rule that names no profile at the key.
func (a *analyzer) nolint(l annotations.List) []string {
	for _, rule := range l.Values {
		if err := lint.CheckRule(rule); err != nil {
			a.errorf(l.Pos, "nolint rule %q: %v", rule, err)
		}
	}
	return l.Values
}
