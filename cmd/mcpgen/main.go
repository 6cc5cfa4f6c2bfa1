// Command mcpgen generates Model Context Protocol tools from annotated Go
// functions.
//
// A complete example. In package pricing:
//
//	package pricing
//
//	//go:generate go tool mcpgen
//
//	import "context"
//
//	// GreetInput is who to greet.
//	type GreetInput struct {
//		Name  string `json:"name" mcp:"minLength=1"`                   // Name of the person
//		Style string `json:"style,omitempty" mcp:"enum=formal|casual"` // Tone of the greeting
//	}
//
//	// GreetUser generates a greeting for a person.
//	//
//	//mcp:tool title="Greeting" readonly
//	func GreetUser(ctx context.Context, in GreetInput) (string, error) {
//		return "Hello, " + in.Name + "!", nil
//	}
//
//	// Add adds two numbers.
//	//
//	//mcp:tool idempotent
//	//mcp:param a description="First addend"
//	//mcp:param b description="Second addend"
//	func Add(a, b float64) float64 { return a + b }
//
// go generate writes mcp_gen.go beside it, declaring
//
//	func MCPTools() []mcprt.Tool
//
// with both tools (greet_user and add), their JSON Schemas, and
// reflection-free argument decoders that check every constraint before the
// function runs. Serve them:
//
//	srv := mcpserver.New(mcprt.Identity{Name: "pricing", Version: "1.0.0"}, pricing.MCPTools()...)
//	err := srv.ServeStdio(ctx)
//
// or put them on the official Go SDK (runtime/gosdk) or mark3labs/mcp-go
// (runtime/mcpgo).
//
// Usage:
//
//	mcpgen [-check] [-list] [-strict] [-o name.go] [packages]
//
// Packages default to "."; each package with tools gets one generated file,
// and a package without tools loses a stale one.
//
//	-check   write nothing; exit 1 naming each generated file that is
//	         missing, out of date, or to be removed (for CI)
//	-list    write nothing; print the tools/list result as JSON
//	-strict  treat warnings as errors
//	-o NAME  name of the generated file (default mcp_gen.go)
//	-h       print the manual: directives, keys, shapes, tags, exit codes
//
// Every problem of the run is printed as file:line:col: message, with paths
// relative to the working directory, sorted, each once; warnings (a property
// without a description, a description over 1024 characters) read
// file:line:col: warning: message. No file is written when there is an
// error. The mcpvet command reports the same problems under go vet.
//
// Exit status: 0 success, 1 errors (or warnings under -strict), stale files
// under -check, or an I/O failure, 2 bad usage.
package main

import (
	"os"

	"github.com/mcpgen/mcpgen/generator"
)

func main() {
	os.Exit(generator.Main(os.Args[1:], os.Stdout, os.Stderr))
}
