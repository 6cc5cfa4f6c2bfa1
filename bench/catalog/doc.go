// Package catalog is a server of 500 tools over the API surfaces a large
// server wraps: compute, storage, networking, identity, tickets,
// databases, CRM, payments, messaging, monitoring, source code and
// deployments, calendar and files. It is the corpus of the tool search
// and catalog cost benchmarks: tools.go is written by gen, mcp_gen.go by
// mcpgen, and testdata/queries.json holds the questions a model asks of
// it, each with the tools that answer it.
//
//mcp:search
package catalog

//go:generate go run ./gen
//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen
