// Package servers puts the reference tool of the benchmarks,
// bulk_price_update of package pricing, on every server they compare, so
// that the in-process benchmarks, the stdio process benchmark and the HTTP
// load run measure the same servers: mcpgen's built-in server, go-sdk,
// mcp-go with and without validation, and a floor that answers without
// reading JSON at all. The built-in server also serves the reference tool
// as a task (TaskTool), which the load run's tasks mode calls.
package servers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/pricing"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// The names of the servers, as the benchmarks report them.
const (
	Floor        = "floor"
	Builtin      = "mcpserver"
	GoSDK        = "gosdk-typed"
	MCPGoUntyped = "mcpgo-untyped"
	MCPGoTyped   = "mcpgo-typed"
)

// Names lists the servers, the floor first.
var Names = []string{Floor, Builtin, GoSDK, MCPGoUntyped, MCPGoTyped}

// Identity is the identity of the built-in server, with tasks enabled for
// the task tool.
var Identity = mcprt.Identity{Name: "bench", Version: "1.0.0", EnableTasks: true}

// TaskTool is the name of the tool the built-in server alone serves beside
// the reference tool: the reference call run as a task.
const TaskTool = "bulk_price_update_task"

// FloorResponse is what the floor answers to every line or POST: the
// reference call's answer, with id 1, so that a driver checking answers
// accepts it.
const FloorResponse = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"updated 10 prices in emea"}]}}`

// BuiltinServer returns mcpgen's server with the generated reference tool
// and its task form, TaskTool.
func BuiltinServer() *mcpserver.Server {
	return mcpserver.New(Identity, append(pricing.MCPTools(), MCPTools()...)...)
}

// ServeStdio serves the server name on r and w until r ends or ctx is
// done. go-sdk's stdio transport always uses the process's own standard
// input and output, so r and w must be those for it.
func ServeStdio(ctx context.Context, name string, r io.Reader, w io.Writer) error {
	switch name {
	case Floor:
		return serveFloor(r, w)
	case Builtin:
		return BuiltinServer().ServeStream(ctx, r, w)
	case GoSDK:
		if r != os.Stdin || w != os.Stdout {
			return errors.New("go-sdk serves stdio only on os.Stdin and os.Stdout")
		}
		return NewGoSDKTyped().Run(ctx, &mcp.StdioTransport{})
	case MCPGoUntyped:
		return mcpgoserver.NewStdioServer(NewMCPGoUntyped()).Listen(ctx, r, w)
	case MCPGoTyped:
		return mcpgoserver.NewStdioServer(NewMCPGoTyped()).Listen(ctx, r, w)
	}
	return unknown(name)
}

// serveFloor answers every non-empty line of r with FloorResponse, one
// write each: the pipes and the process, without any JSON.
func serveFloor(r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	resp := []byte(FloorResponse + "\n")
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 1 {
			if _, werr := w.Write(resp); werr != nil {
				return werr
			}
		}
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil && !errors.Is(err, bufio.ErrBufferFull):
			return err
		}
	}
}

// HTTPHandler returns the Streamable HTTP handler of the server name. With
// stateless, the SDKs run in their stateless modes (go-sdk accepts
// 2026-07-28 requests only so); otherwise they keep sessions, mcp-go with
// its stateful session manager so that, like the others, it knows its
// sessions. The built-in server serves sessions and 2026-07-28 requests
// alike; the floor answers every POST with FloorResponse.
func HTTPHandler(name string, stateless bool) (http.Handler, error) {
	switch name {
	case Floor:
		return http.HandlerFunc(floorHTTP), nil
	case Builtin:
		return BuiltinServer().HTTPHandler(), nil
	case GoSDK:
		srv := NewGoSDKTyped()
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: stateless}), nil
	case MCPGoUntyped:
		return mcpgoserver.NewStreamableHTTPServer(NewMCPGoUntyped(), mcpGoMode(stateless)), nil
	case MCPGoTyped:
		return mcpgoserver.NewStreamableHTTPServer(NewMCPGoTyped(), mcpGoMode(stateless)), nil
	}
	return nil, unknown(name)
}

func mcpGoMode(stateless bool) mcpgoserver.StreamableHTTPOption {
	if stateless {
		return mcpgoserver.WithStateLess(true)
	}
	return mcpgoserver.WithStateful(true)
}

// floorHTTP answers a POST with FloorResponse after reading its body, and
// anything else with 405: net/http and loopback, without any JSON.
func floorHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Mcp-Session-Id", "floor")
	io.WriteString(w, FloorResponse)
}

func unknown(name string) error {
	return fmt.Errorf("unknown server %q: want one of %v", name, Names)
}
