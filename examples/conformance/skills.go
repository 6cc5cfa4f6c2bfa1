package main

import "embed"

// skills are Agent Skills for the suite's SEP-2640 scenarios: a skill
// under a prefix with a subdirectory in a subdirectory, a skill with a
// skill nested in it, and a one-file skill. go generate checks them and
// writes MCPSkills.
//
//go:embed skills
//mcp:skills
var skills embed.FS
