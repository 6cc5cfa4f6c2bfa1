package mcpgo

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// pngPixel is a 1x1 PNG, as the conformance suite's fixtures use it.
const pngPixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="

func pngBytes() []byte {
	b, err := base64.StdEncoding.DecodeString(pngPixel)
	if err != nil {
		panic(err)
	}
	return b
}

// connect serves s over mcp-go's Streamable HTTP transport and connects
// the official Go SDK's client to it, a client no one here wrote, asking
// for protocol revision rev; opts may be nil. Everything closes when the
// test ends.
func connect(t *testing.T, s *server.MCPServer, rev string, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	hs := httptest.NewServer(server.NewStreamableHTTPServer(s))
	c := sdk.NewClient(&sdk.Implementation{Name: "c", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: hs.URL}, &sdk.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		hs.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		hs.Close()
	})
	return cs
}

// rpcError returns the JSON-RPC error in err as "code message".
func rpcError(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return fmt.Sprintf("%d %s", je.Code, je.Message)
	}
	if err == nil {
		return "no error"
	}
	return err.Error()
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

// statelessMeta is the _meta member every 2026-07-28 request carries.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`

// call hands s one request of revision rev in process, as a session of
// that revision sends it (on 2026-07-28, with the request's _meta), and
// returns the result, or {"error":...}, as mcp-go wrote it.
func call(t *testing.T, s *server.MCPServer, rev, method, params string) string {
	t.Helper()
	ctx := context.Background()
	switch {
	case rev >= "2026-07-28" && params == "{}":
		params = "{" + statelessMeta + "}"
	case rev >= "2026-07-28":
		params = "{" + statelessMeta + "," + params[1:]
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

// sameJSON fails the test unless got and want hold the same JSON value,
// whatever the order of members, leaving out the top-level members named
// in skip.
func sameJSON(t *testing.T, what, got, want string, skip ...string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%s: %v: %s", what, err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: want: %v: %s", what, err, want)
	}
	if m, ok := g.(map[string]any); ok {
		for _, k := range skip {
			delete(m, k)
		}
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("%s (-built-in +mcp-go):\n%s", what, d)
	}
}

// statelessMembers are the members mcp-go adds to results on 2026-07-28.
var statelessMembers = []string{"_meta", "resultType", "ttlMs", "cacheScope"}

// quietLog sends what slog's default logger writes during the test (the
// adapter logs panics there) to a buffer it returns.
func quietLog(t *testing.T) *syncBuffer {
	b := new(syncBuffer)
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(b, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return b
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// notifications collects the notifications of one kind a client gets.
type notifications struct {
	mu  sync.Mutex
	got []string
	ch  chan struct{}
}

func newNotifications() *notifications { return &notifications{ch: make(chan struct{}, 100)} }

func (n *notifications) add(s string) {
	n.mu.Lock()
	n.got = append(n.got, s)
	n.mu.Unlock()
	n.ch <- struct{}{}
}

// wait waits up to a few seconds for the next notification, failing the
// test when none comes.
func (n *notifications) wait(t *testing.T, what string) {
	t.Helper()
	select {
	case <-n.ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s", what)
	}
}

// none checks that no notification comes for a while.
func (n *notifications) none(t *testing.T, what string) {
	t.Helper()
	select {
	case <-n.ch:
		t.Errorf("unexpected %s: %v", what, n.list())
	case <-time.After(100 * time.Millisecond):
	}
}

func (n *notifications) list() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.got...)
}
