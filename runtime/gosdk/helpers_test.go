package gosdk

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// connect connects go-sdk's own client to s over in-memory transports,
// asking for protocol revision rev; opts may be nil. The session closes
// when the test ends.
func connect(t *testing.T, s *mcp.Server, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// rpcError returns the JSON-RPC error in err as "code message", or the
// error's text when it holds none.
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

// errorData returns the data of the JSON-RPC error in err, or "<nil>".
func errorData(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Data != nil {
		return string(je.Data)
	}
	return "<nil>"
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

// statelessMeta is the _meta member every 2026-07-28 request carries.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`

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
