package gosdk

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/servertest"
)

// connect connects go-sdk's own client to s over in-memory transports,
// asking for protocol revision rev; opts may be nil. The session closes
// when the test ends.
func connect(t *testing.T, s *mcp.Server, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Wait() })
	return servertest.Connect(t, ct, rev, opts)
}

// raw is a client of s that speaks JSON-RPC over in-memory transports
// without go-sdk's client, so that a test sees the bytes the server sends.
type raw struct {
	t    *testing.T
	conn mcp.Connection
	id   int
}

// dial connects a raw client to s and, for a revision before 2026-07-28,
// initializes a session of revision rev.
func dial(t *testing.T, s *mcp.Server, rev string) *raw {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		ss.Wait()
	})
	r := &raw{t: t, conn: conn}
	if rev < "2026-07-28" {
		r.call("initialize", `{"protocolVersion":"`+rev+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
		r.write(&jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)})
	}
	return r
}

func (r *raw) write(msg jsonrpc.Message) {
	r.t.Helper()
	if err := r.conn.Write(context.Background(), msg); err != nil {
		r.t.Fatal(err)
	}
}

// call sends a request and returns the response's result or error as the
// server wrote it, skipping notifications.
func (r *raw) call(method, params string) string {
	r.t.Helper()
	r.id++
	id, _ := jsonrpc.MakeID(float64(r.id))
	r.write(&jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(params)})
	for {
		msg, err := r.conn.Read(context.Background())
		if err != nil {
			r.t.Fatal(err)
		}
		resp, ok := msg.(*jsonrpc.Response)
		if !ok {
			continue
		}
		if resp.Error != nil {
			js, _ := json.Marshal(resp.Error)
			return `{"error":` + string(js) + `}`
		}
		return string(resp.Result)
	}
}
