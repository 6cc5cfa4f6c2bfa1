package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"syscall"
	"testing"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/hundred"
	"github.com/mcpgen/mcpgen/bench/pricing"
	"github.com/mcpgen/mcpgen/bench/servers"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

var identity = mcprt.Identity{Name: "bench", Version: "1.0.0"}

// path is one way of serving requests, bytes in to bytes out.
type path struct {
	name  string
	serve func(req []byte) ([]byte, error)
	close func()
}

// mcpserverPath serves tools on mcpgen's server, with interceptors,
// through an initialized in-process connection.
func mcpserverPath(name string, tools []mcprt.Tool, interceptors ...mcpserver.Interceptor) (path, error) {
	srv := mcpserver.New(identity, tools...)
	srv.Use(interceptors...)
	ctx := context.Background()
	conn := srv.Connect(ctx, func([]byte) error { return nil })
	if resp := conn.Handle(ctx, []byte(initializeRequest)); !bytes.Contains(resp, []byte(`"protocolVersion"`)) {
		return path{}, fmt.Errorf("initialize: %s", resp)
	}
	conn.Handle(ctx, []byte(initializedNote))
	serve := func(req []byte) ([]byte, error) { return conn.Handle(ctx, req), nil }
	return path{name: name, serve: serve, close: conn.Close}, nil
}

// goSDKPath serves srv through go-sdk's whole stack on a byte transport.
func goSDKPath(name string, srv *mcp.Server) (path, error) {
	t, closeFn, err := connectGoSDK(srv)
	if err != nil {
		return path{}, err
	}
	return path{name: name, serve: t.roundTrip, close: closeFn}, nil
}

// mcpGoPath serves s through mcp-go's HandleMessage.
func mcpGoPath(name string, s *mcpgoserver.MCPServer) (path, error) {
	if _, err := mcpGoServe(s, []byte(initializeRequest)); err != nil {
		return path{}, err
	}
	serve := func(req []byte) ([]byte, error) { return mcpGoServe(s, req) }
	return path{name: name, serve: serve, close: func() {}}, nil
}

// callPaths are the paths of the tools/call comparison; "c" is the
// baseline the targets are ratios of.
func callPaths() ([]path, error) {
	var paths []path
	for _, mk := range []func() (path, error){
		func() (path, error) {
			return path{name: "c-encoding-json", serve: baselineServe, close: func() {}}, nil
		},
		func() (path, error) { return mcpserverPath("mcpserver", pricing.MCPTools()) },
		func() (path, error) { return goSDKPath("gosdk-typed", servers.NewGoSDKTyped()) },
		func() (path, error) {
			return goSDKPath("gosdk-generated", gosdk.NewServer(identity, pricing.MCPTools()...))
		},
		func() (path, error) { return mcpGoPath("mcpgo-untyped", servers.NewMCPGoUntyped()) },
		func() (path, error) { return mcpGoPath("mcpgo-typed", servers.NewMCPGoTyped()) },
		func() (path, error) {
			return mcpGoPath("mcpgo-generated", mcpgo.NewServer(identity, pricing.MCPTools()...))
		},
	} {
		p, err := mk()
		if err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// listPaths are the paths of the tools/list comparison, 100 tools each.
func listPaths() ([]path, error) {
	var paths []path
	p, err := mcpserverPath("mcpserver", hundred.MCPTools())
	if err != nil {
		return nil, err
	}
	paths = append(paths, p)
	gs := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	hundred.GoSDKAdd(gs)
	if p, err = goSDKPath("gosdk", gs); err != nil {
		return nil, err
	}
	paths = append(paths, p)
	ms := mcpgoserver.NewMCPServer("bench", "1.0.0", mcpgoserver.WithToolCapabilities(false))
	hundred.MCPGoAdd(ms)
	if p, err = mcpGoPath("mcpgo", ms); err != nil {
		return nil, err
	}
	return append(paths, p), nil
}

// benchPaths runs req through each path. Besides the time it reports
// cpu-ns/op, the processor time of the whole process per op, collections
// included: on a machine other work shares, time waiting for a processor
// does not count there.
func benchPaths(b *testing.B, paths []path, req []byte) {
	for _, p := range paths {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(req)))
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				if _, err := p.serve(req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
		p.close()
	}
}

// BenchmarkToolsCall is the reference request: tools/call of
// bulk_price_update with 10 changes.
func BenchmarkToolsCall(b *testing.B) {
	paths, err := callPaths()
	if err != nil {
		b.Fatal(err)
	}
	benchPaths(b, paths, callRequest(7, 10))
}

// BenchmarkGeneratedPath is the generated code alone: the reference
// call's arguments decoded and checked, the tool run and its result written
// as a tools/call result, through mcprt with no server around it.
func BenchmarkGeneratedPath(b *testing.B) {
	var req struct {
		Params struct{ Arguments json.RawMessage }
	}
	if err := json.Unmarshal(callRequest(7, 10), &req); err != nil {
		b.Fatal(err)
	}
	tool, ctx := pricing.MCPTools()[0], context.Background()
	buf := make([]byte, 0, 1024)
	b.SetBytes(int64(len(req.Params.Arguments)))
	b.ReportAllocs()
	for b.Loop() {
		res := wire.CallTool(ctx, &tool, req.Params.Arguments)
		if res.IsError {
			b.Fatal(res.Content[0].Text)
		}
		buf = wire.AppendResult(buf[:0], &res, wire.Rev20251125)
	}
}

// BenchmarkToolsList100 is tools/list of 100 tools.
func BenchmarkToolsList100(b *testing.B) {
	paths, err := listPaths()
	if err != nil {
		b.Fatal(err)
	}
	benchPaths(b, paths, []byte(listToolsRequest))
}

// BenchmarkStartup100 creates a server and adds 100 tools.
func BenchmarkStartup100(b *testing.B) {
	b.Run("mcpserver", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mcpserver.New(identity, hundred.MCPTools()...)
		}
	})
	b.Run("gosdk-inferred", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			hundred.GoSDKAdd(mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil))
		}
	})
	b.Run("mcpgo-options", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			hundred.MCPGoAdd(mcpgoserver.NewMCPServer("bench", "1.0.0", mcpgoserver.WithToolCapabilities(false)))
		}
	})
}

// BenchmarkInterceptors is the reference call on the built-in server
// with no interceptor, which must cost what the server costs alone, and
// with one that only calls next, the price of the hook itself.
func BenchmarkInterceptors(b *testing.B) {
	none, err := mcpserverPath("none", pricing.MCPTools())
	if err != nil {
		b.Fatal(err)
	}
	one, err := mcpserverPath("one", pricing.MCPTools(), func(ctx context.Context, req *mcpserver.Request, next mcpserver.Next) mcpserver.Outcome {
		return next(ctx)
	})
	if err != nil {
		b.Fatal(err)
	}
	benchPaths(b, []path{none, one}, callRequest(7, 10))
}

// processCPU is the processor time the process has used, user and
// system, in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
