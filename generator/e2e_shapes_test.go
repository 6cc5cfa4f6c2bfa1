package generator

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const shapesMain = `package main

import (
	"context"
	"log"

	shapes "example.com/e2e"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

func main() {
	tools := append(shapes.MCPTools(), (&shapes.Counter{}).MCPTools()...)
	srv := mcpserver.New(mcprt.Identity{Name: "shapes", Version: "1"}, tools...)
	if err := srv.ServeStdio(context.Background()); err != nil {
		log.Fatal(err)
	}
}
`

// TestEndToEndShapes serves the shapes golden case and calls one tool of
// each shape: structured output, a returned error, a panic (the server
// keeps serving), full-control results and a method bound to a receiver.
func TestEndToEndShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a server")
	}
	src, _ := filepath.Abs(filepath.Join("testdata", "golden", "shapes"))
	mod := tempModule(t, src)
	if code, _, stderr := runMain(t, mod); code != 0 {
		t.Fatalf("mcpgen exit %d:\n%s", code, stderr)
	}
	if err := os.MkdirAll(filepath.Join(mod, "server"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(mod, "server", "main.go"), shapesMain)
	bin := filepath.Join(t.TempDir(), "server")
	goCmd(t, mod, "build", "-o", bin, "./server")

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	call := func(name, args string) *mcp.CallToolResult {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("CallTool %s: %v", name, err)
		}
		return res
	}

	res := call("measure", `{"x":3,"y":"4"}`)
	if res.IsError || resultText(res) != `{"value":25,"unit":"square units"}` {
		t.Errorf("measure: isError=%v text %q", res.IsError, resultText(res))
	}
	if js, _ := json.Marshal(res.StructuredContent); string(js) != `{"unit":"square units","value":25}` && string(js) != `{"value":25,"unit":"square units"}` {
		t.Errorf("measure: structuredContent %s", js)
	}
	if res := call("fail", `{}`); !res.IsError || resultText(res) != "it failed" {
		t.Errorf("fail: isError=%v text %q, want the handler's error", res.IsError, resultText(res))
	}
	if res := call("panic", `{}`); !res.IsError || !strings.Contains(resultText(res), "panicked: boom") {
		t.Errorf("panic: isError=%v text %q, want a recovered panic", res.IsError, resultText(res))
	}
	if res := call("repeat.word", `{"word":"ab","times":2}`); res.IsError || resultText(res) != "abab" {
		t.Errorf("repeat.word after a panic: isError=%v text %q", res.IsError, resultText(res))
	}
	if res := call("repeat.word", `{"word":"","times":11}`); !res.IsError || resultText(res) != "invalid arguments:\nword: 0 characters, fewer than the minimum length 1\ntimes: 11 is greater than the maximum 10" {
		t.Errorf("repeat.word out of bounds: isError=%v text %q", res.IsError, resultText(res))
	}
	res = call("picture", `{}`)
	if img, ok := res.Content[len(res.Content)-1].(*mcp.ImageContent); !ok || img.MIMEType != "image/png" || len(img.Data) != 3 {
		t.Errorf("picture: content %+v, want a text and a 3-byte PNG", res.Content)
	}
	call("add", `{"by":1}`)
	if res := call("add", `{"by":2}`); resultText(res) != "3" {
		t.Errorf("add on a bound receiver: %q, want 3", resultText(res))
	}
}
