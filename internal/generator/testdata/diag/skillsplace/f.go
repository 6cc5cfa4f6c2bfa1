// Package f puts //mcp:skills where it cannot go.
package f

import "embed"

// good are skills.
//
//go:embed good
//mcp:skills
var good embed.FS

// again is a second set, which a package cannot have.
//
//go:embed good
//mcp:skills
var again embed.FS

// name is no embed.FS.
//
//mcp:skills
var name = "skills"

// globbed embeds a pattern, not a directory.
//
//go:embed two/*.md
//mcp:skills scope="kb.read"
var globbed embed.FS

// both embeds two directories.
//
//go:embed good two
//mcp:skills
var both embed.FS

// empty holds no SKILL.md.
//
//go:embed empty
//mcp:skills
var empty embed.FS

// badKey has a key //mcp:skills does not take.
//
//go:embed good
//mcp:skills scopes=kb
var badKey embed.FS

// F is a func.
//
//mcp:skills
func F() {}

// T is a type.
//
//mcp:skills
type T struct{}
