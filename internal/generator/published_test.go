package generator

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// servers serve tools over a stream on each server path, in the process:
// what a client of each revision is sent is then seen without building a
// binary for every package.
var servers = map[string]func(ctx context.Context, tools []mcprt.Tool, r io.ReadCloser, w io.WriteCloser) error{
	"builtin": func(ctx context.Context, tools []mcprt.Tool, r io.ReadCloser, w io.WriteCloser) error {
		return mcpserver.New(mcprt.Identity{Name: "published", Version: "1"}, tools...).ServeStream(ctx, r, w)
	},
	"gosdk": func(ctx context.Context, tools []mcprt.Tool, r io.ReadCloser, w io.WriteCloser) error {
		return gosdk.NewServer(mcprt.Identity{Name: "published", Version: "1"}, tools...).Run(ctx, &mcp.IOTransport{Reader: r, Writer: w})
	},
	"mcpgo": func(ctx context.Context, tools []mcprt.Tool, r io.ReadCloser, w io.WriteCloser) error {
		return mcpgoserver.NewStdioServer(mcpgo.NewServer(mcprt.Identity{Name: "published", Version: "1"}, tools...)).Listen(ctx, r, w)
	},
}

// TestPublishedSchemasCompile lists the tools of every golden case, every
// example and every other package of the module that has tools, on each
// server path and each protocol revision, and compiles each input and
// output schema as the client is sent it with an independent JSON Schema
// 2020-12 implementation: every reference must resolve, whatever wrapping
// a revision asks for.
func TestPublishedSchemasCompile(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	root := repoRoot(t)
	examples, _ := filepath.Glob(filepath.Join(root, "examples", "*"))
	dirs = append(dirs, examples...)
	dirs = append(dirs, filepath.Join(root, "internal", "difftest"), filepath.Join(root, "bench", "pricing"), filepath.Join(root, "bench", "hundred"))
	compiled, want := map[string]int{}, map[string]int{}
	for _, dir := range dirs {
		abs, _ := filepath.Abs(dir)
		files, diags := generated(abs)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", dir, diags)
		}
		var tools []mcprt.Tool
		for _, f := range files {
			tools = append(tools, f.Tools...)
		}
		if len(tools) == 0 {
			continue // prompts and resources only
		}
		for i := range tools {
			tools[i].Handler = func(context.Context, []byte) mcprt.Result { return mcprt.Result{} }
			want["inputSchema"] += len(servers) * len(revisions)
			if tools[i].OutputSchema != nil {
				want["outputSchema"] += len(servers) * 3 // from 2025-06-18 on
			}
		}
		for _, path := range []string{"builtin", "gosdk", "mcpgo"} {
			for _, rev := range revisions {
				name := filepath.Base(dir) + "/" + path + "/" + rev
				t.Run(name, func(t *testing.T) {
					listed := listTools(t, startServer(t, path, tools, rev))
					if len(listed) != len(tools) {
						t.Fatalf("%d tools listed, want %d", len(listed), len(tools))
					}
					for _, tool := range listed {
						var toolName string
						json.Unmarshal(tool["name"], &toolName)
						for _, kind := range []string{"inputSchema", "outputSchema"} {
							if js, ok := tool[kind]; ok {
								compileSchema(t, name+"/"+toolName+"."+kind, js)
								compiled[kind]++
							}
						}
					}
				})
			}
		}
	}
	if !maps.Equal(compiled, want) || want["outputSchema"] == 0 {
		t.Errorf("compiled %v schemas, want %v: those of every tool on every path and revision", compiled, want)
	}
}

// startServer serves tools on path, in the process, and returns a raw
// client of revision rev connected to it. The server stops with the test.
func startServer(t *testing.T, path string, tools []mcprt.Tool, rev string) *rawClient {
	t.Helper()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		servers[path](ctx, slices.Clone(tools), serverIn, serverOut)
		serverOut.Close()
	}()
	t.Cleanup(func() {
		cancel()
		clientOut.Close()
		clientIn.Close()
		<-done
	})
	c := newRawClient(t, rev, clientOut, clientIn)
	c.initialize()
	return c
}

// listTools lists every tool, page by page, each as its members' JSON.
func listTools(t *testing.T, c *rawClient) []map[string]json.RawMessage {
	t.Helper()
	var tools []map[string]json.RawMessage
	params := `{}`
	for {
		var page struct {
			Tools      []map[string]json.RawMessage
			NextCursor string
			Error      json.RawMessage
		}
		answer := c.call("tools/list", params)
		if err := json.Unmarshal([]byte(answer), &page); err != nil || page.Error != nil {
			t.Fatalf("tools/list: %v %s", err, answer)
		}
		tools = append(tools, page.Tools...)
		if page.NextCursor == "" {
			return tools
		}
		cursor, _ := json.Marshal(page.NextCursor)
		params = `{"cursor":` + string(cursor) + `}`
	}
}
