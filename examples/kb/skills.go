package main

import "embed"

// skills are the Agent Skills kb serves: how to use its tools well.
// Reading them needs the scope kb.read on a server with authorization.
//
//go:embed skills
//mcp:skills scope="kb.read"
var skills embed.FS
