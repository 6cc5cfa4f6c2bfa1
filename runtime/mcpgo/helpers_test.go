package mcpgo

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/servertest"
)

// connect serves s over mcp-go's Streamable HTTP transport and connects
// the official Go SDK's client to it, a client no one here wrote, asking
// for protocol revision rev; opts may be nil. Everything closes when the
// test ends.
func connect(t *testing.T, s *server.MCPServer, rev string, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	hs := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(hs.Close)
	return servertest.Connect(t, &sdk.StreamableClientTransport{Endpoint: hs.URL}, rev, opts)
}

// testSession is a session of a negotiated revision, for raw calls
// through HandleMessage at that revision.
type testSession struct {
	id, rev string
	ch      chan mcp.JSONRPCNotification
}

func newTestSession(id, rev string) *testSession {
	return &testSession{id: id, rev: rev, ch: make(chan mcp.JSONRPCNotification, 100)}
}

func (s *testSession) Initialize()                                         {}
func (s *testSession) Initialized() bool                                   { return true }
func (s *testSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.ch }
func (s *testSession) SessionID() string                                   { return s.id }
func (s *testSession) ProtocolVersion() string                             { return s.rev }

// call hands s one request of revision rev in process, as a session of
// that revision sends it (on 2026-07-28, with the request's _meta), and
// returns the result, or {"error":...}, as mcp-go wrote it.
func call(t *testing.T, s *server.MCPServer, rev, method, params string) string {
	t.Helper()
	ctx := context.Background()
	switch {
	case rev >= "2026-07-28" && params == "{}":
		params = "{" + servertest.StatelessMeta + "}"
	case rev >= "2026-07-28":
		params = "{" + servertest.StatelessMeta + "," + params[1:]
	default:
		ctx = s.WithContext(ctx, newTestSession("raw", rev))
	}
	out, err := json.Marshal(s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`)))
	if err != nil {
		t.Fatal(err)
	}
	var resp struct{ Result, Error json.RawMessage }
	if err := json.Unmarshal(out, &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Error != nil {
		return `{"error":` + string(resp.Error) + `}`
	}
	return string(resp.Result)
}

// discard is a logger for servers whose logs a test does not read.
var discard = slog.New(slog.DiscardHandler)

// statelessMembers are the members mcp-go adds to results on 2026-07-28.
var statelessMembers = []string{"_meta", "resultType", "ttlMs", "cacheScope"}
