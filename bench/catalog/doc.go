// Package catalog is a server of 500 tools over the API surfaces a large
// server wraps: compute, storage, networking, identity, tickets,
// databases, CRM, payments, messaging, monitoring, source code and
// deployments, calendar and files. It is the corpus of the tool search
// and catalog cost benchmarks; testdata/queries.json holds the questions
// a model asks of it, each with the tools that answer it.
//
// Its tools are generated, not committed: tools.go from the table of
// internal/build, and mcp_gen.go, 1.4 MiB, by mcpgen from tools.go.
// go test builds them itself (see TestMain). Other builds take them from
// gen as an overlay, with the build tag catalog:
//
//	go build -tags catalog -overlay "$(go run ./bench/catalog/gen DIR)" ./bench/cmd/catalog
//
//mcp:search
package catalog
