// Command mcpgen generates Model Context Protocol (MCP) tools from
// annotated Go functions.
//
// Run it from go generate in the package that holds the functions:
//
//	//go:generate go tool mcpgen
//
// A doc comment that ends in an //mcp:tool directive makes a function or
// method a tool; the fields of its input struct, with their json and mcp
// tags and their comments, are the tool's properties:
//
//	// GreetUser generates a greeting for a person.
//	//
//	//mcp:tool title="Greeting" readonly
//	func GreetUser(ctx context.Context, in GreetInput) (string, error)
//
// mcpgen writes mcp_gen.go beside it, declaring MCPTools() []mcprt.Tool:
// the tools with their JSON Schemas and reflection-free argument decoders,
// ready for the server of runtime/mcpserver or for the adapters onto the
// official Go SDK (runtime/gosdk) and mark3labs/mcp-go (runtime/mcpgo).
//
// Usage:
//
//	mcpgen [flags] [packages]
//
// One line at a module's root generates every package in one run, which
// loads and type-checks the module once:
//
//	//go:generate go tool mcpgen ./...
//
// Beside generating, it prints what the packages serve (-list), Markdown
// documentation of it (-doc), the changes from a saved list that break
// clients (-diff), and which model providers accept each tool's input
// schema (-lint).
//
// mcpgen -h prints the manual: the directives, their keys and the mcp tag
// keys (from the tables the parser reads, so it cannot fall behind),
// handler shapes, flags and exit status. The module's README
// (https://github.com/mcpgen/mcpgen) has the same tables with a worked
// example, the generated code and the servers.
package main

import (
	"os"

	"github.com/mcpgen/mcpgen/internal/generator"
)

func main() {
	os.Exit(generator.Main(os.Args[1:], os.Stdout, os.Stderr))
}
