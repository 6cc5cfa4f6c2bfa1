// Command mcpgen generates Model Context Protocol tools from annotated Go
// functions.
//
// Annotate a function with a //mcp:tool directive at the end of its doc
// comment and run mcpgen from go generate:
//
//	//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen
//
//	// GreetUser generates a greeting for a person.
//	//
//	//mcp:tool title="Greeting" readonly
//	func GreetUser(ctx context.Context, in GreetInput) (string, error)
//
// mcpgen writes mcp_gen.go into each package with tools: a MCPTools
// function returning the tools, their JSON Schemas and reflection-free
// argument decoders. Serve them with runtime/mcpserver, or through the
// adapters for the official Go SDK and mark3labs/mcp-go.
//
// Usage:
//
//	mcpgen [-check] [-list] [-o name.go] [packages]
//
// -check writes nothing and exits 1 naming each generated file that is
// missing or out of date. -list prints the tools/list result as JSON. -o
// names the generated file (default mcp_gen.go).
//
// Problems are printed as file:line:col: message, all of them, and no file
// is written when there is an error. Exit status: 0 success, 1 errors or
// stale files, 2 bad usage.
package main

import (
	"os"

	"github.com/mcpgen/mcpgen/generator"
)

func main() {
	os.Exit(generator.Main(os.Args[1:], os.Stdout, os.Stderr))
}
