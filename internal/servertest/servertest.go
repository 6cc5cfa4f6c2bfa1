// Package servertest holds what the tests of every server path share: a
// raw JSON-RPC client that shows the bytes a server writes, and helpers
// that wait for notifications and compare JSON. The fixtures they serve
// are package fixture's.
//
// The behaviour tests themselves run in this package's tests, once on
// each path: the built-in server (runtime/mcpserver) and the adapters onto
// go-sdk (runtime/gosdk) and mcp-go (runtime/mcpgo). Each adapter's own
// package keeps only the tests of what it does differently.
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StatelessMeta is the _meta member every 2026-07-28 request carries.
const StatelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`

// RPCError returns the JSON-RPC error in err as "code message", or the
// error's text when it holds none.
func RPCError(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return fmt.Sprintf("%d %s", je.Code, je.Message)
	}
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// ErrorData returns the data of the JSON-RPC error in err, or "<nil>".
func ErrorData(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Data != nil {
		return string(je.Data)
	}
	return "<nil>"
}

// SameJSON fails the test unless got and want hold the same JSON value,
// whatever the order of members, leaving out the top-level members of got
// named in skip.
func SameJSON(t testing.TB, what, got, want string, skip ...string) {
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
		t.Errorf("%s (-built-in +got):\n%s", what, d)
	}
}

// MustJSON returns the JSON encoding of v.
func MustJSON(v any) string {
	js, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(js)
}

// NewLog returns a text logger writing to the buffer it returns, for a
// server of the test to log to (Server.Logger, gosdk.SetLogger,
// mcpgo.SetLogger), so that no test swaps slog's default logger.
func NewLog() (*slog.Logger, *SyncBuffer) {
	b := new(SyncBuffer)
	return slog.New(slog.NewTextHandler(b, nil)), b
}

// SyncBuffer is a bytes.Buffer safe for concurrent writes.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Notifications collects the notifications of one kind a client gets.
type Notifications struct {
	mu  sync.Mutex
	got []string
	ch  chan struct{}
}

// NewNotifications returns an empty collection.
func NewNotifications() *Notifications { return &Notifications{ch: make(chan struct{}, 100)} }

// Add records a notification.
func (n *Notifications) Add(s string) {
	n.mu.Lock()
	n.got = append(n.got, s)
	n.mu.Unlock()
	n.ch <- struct{}{}
}

// Wait waits up to a few seconds for the next notification, failing the
// test when none comes.
func (n *Notifications) Wait(t testing.TB, what string) {
	t.Helper()
	select {
	case <-n.ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s", what)
	}
}

// None checks that no notification comes for a while.
func (n *Notifications) None(t testing.TB, what string) {
	t.Helper()
	select {
	case <-n.ch:
		t.Errorf("unexpected %s: %v", what, n.List())
	case <-time.After(100 * time.Millisecond):
	}
}

// List returns the notifications recorded so far.
func (n *Notifications) List() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.got...)
}

// Connect connects go-sdk's client over transport, asking for protocol
// revision rev; opts may be nil. The session closes when the test ends.
func Connect(t testing.TB, transport mcp.Transport, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return ConnectClient(t, mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, opts), transport, rev)
}

// ConnectClient is [Connect] for a client the test made, for example with
// roots added.
func ConnectClient(t testing.TB, c *mcp.Client, transport mcp.Transport, rev string) *mcp.ClientSession {
	t.Helper()
	cs, err := c.Connect(context.Background(), transport, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
