// Package skills serves Agent Skills embedded in the binary.
package skills

import "embed"

// guides are the skills: each directory below guides/ holding a SKILL.md.
//
//go:embed guides
//mcp:skills scope="kb.read"
var guides embed.FS
