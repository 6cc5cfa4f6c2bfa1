// Package f embeds skills that each break one rule of SEP-2640 or the
// Agent Skills specification, in the directory named after the rule.
package f

import "embed"

// broken are the skills.
//
//go:embed broken
//mcp:skills
var broken embed.FS
