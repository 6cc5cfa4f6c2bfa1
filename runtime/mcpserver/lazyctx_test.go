package mcpserver

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

type lazyKey struct{}

// TestLazyCancelActsAsWithCancel checks that a lazyCancel answers as the
// context.WithCancel of its parent would, whether it is stopped before
// or after anything asks it, and that it makes no context while nothing
// asks.
func TestLazyCancelActsAsWithCancel(t *testing.T) {
	t.Parallel()
	base, cancelBase := context.WithTimeout(context.WithValue(context.Background(), lazyKey{}, "v"), time.Hour)
	defer cancelBase()
	for _, askFirst := range []bool{false, true} {
		c := &lazyCancel{parent: base}
		if d, ok := c.Deadline(); !ok || d.IsZero() || c.Value(lazyKey{}) != "v" {
			t.Fatalf("deadline %v %v, value %v: want the parent's", d, ok, c.Value(lazyKey{}))
		}
		if askFirst {
			if c.Err() != nil {
				t.Fatalf("Err before stop = %v", c.Err())
			}
		}
		child, stopChild := context.WithCancel(c) // derived before the stop, as a handler may
		defer stopChild()
		if !askFirst && c.ctx == nil {
			t.Fatal("a derived context did not make the context")
		}
		c.stop()
		select {
		case <-c.Done():
		default:
			t.Fatal("Done is open after stop")
		}
		<-child.Done()
		if !errors.Is(c.Err(), context.Canceled) || context.Cause(c) != context.Canceled || context.Cause(child) != context.Canceled {
			t.Errorf("after stop: Err %v, Cause %v, child's Cause %v; want context.Canceled", c.Err(), context.Cause(c), context.Cause(child))
		}
	}
	quiet := &lazyCancel{parent: base}
	quiet.Value(lazyKey{})
	quiet.stop()
	if quiet.ctx != nil {
		t.Error("a lazyCancel that nothing asked made a context")
	}
	if !errors.Is(quiet.Err(), context.Canceled) {
		t.Errorf("Err after a stop nothing saw = %v, want context.Canceled", quiet.Err())
	}
	cause := errors.New("parent gone")
	parent, cancelParent := context.WithCancelCause(context.Background())
	fromParent := &lazyCancel{parent: parent}
	detached := &lazyCancel{parent: parent, detached: true}
	cancelParent(cause)
	<-fromParent.Done()
	if context.Cause(fromParent) != cause || !errors.Is(fromParent.Err(), context.Canceled) {
		t.Errorf("after the parent's cancel: Cause %v, Err %v", context.Cause(fromParent), fromParent.Err())
	}
	if detached.Err() != nil {
		t.Errorf("detached: Err %v after the parent's cancel, want nil", detached.Err())
	}
	if _, ok := (&lazyCancel{parent: base, detached: true}).Deadline(); ok {
		t.Error("detached: the parent's deadline is kept")
	}
}

// TestCancelCauseReachesHandler checks that a handler whose request the
// client cancels sees the cancellation as context.Cause says it.
func TestCancelCauseReachesHandler(t *testing.T) {
	t.Parallel()
	started, causes := make(chan struct{}), make(chan error, 1)
	tool := handlerTool("block", func(ctx context.Context, args []byte) mcprt.Result {
		close(started)
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return mcprt.TextResult("cancelled")
	})
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, tool))
	c.initialize(wire.Rev20250618, `{}`)
	c.send(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"block"}}`)
	<-started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1"}}`)
	select {
	case err := <-causes:
		if err != context.Canceled {
			t.Errorf("the handler's context.Cause is %v, want context.Canceled", err)
		}
	case <-time.After(timeout):
		t.Fatal("the handler was not cancelled")
	}
}

// TestLazyCancelDerivedWithoutGoroutines checks that contexts derived
// from a lazyCancel wait on it as on the context it makes, without a
// goroutine each, as they would on a context package context does not
// know. Not parallel: it counts goroutines.
func TestLazyCancelDerivedWithoutGoroutines(t *testing.T) {
	c := &lazyCancel{parent: context.Background()}
	before := runtime.NumGoroutine()
	var children []context.Context
	for range 100 {
		child, stop := context.WithCancel(c)
		defer stop()
		children = append(children, child)
	}
	if n := runtime.NumGoroutine() - before; n > 50 {
		t.Errorf("100 contexts derived from a lazyCancel started %d goroutines", n)
	}
	c.stop()
	for _, child := range children {
		<-child.Done()
	}
}

// TestCallerThroughDerivedContext checks that a handler finds its Caller
// through a context it derives from its own, kept in the registration
// for cancellation.
func TestCallerThroughDerivedContext(t *testing.T) {
	t.Parallel()
	tool := handlerTool("who", func(ctx context.Context, args []byte) mcprt.Result {
		child, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		c, ok := mcprt.ClientInfo(child)
		if !ok {
			return mcprt.TextResult("no caller")
		}
		return mcprt.TextResult(c.Name + " " + c.Revision)
	})
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, tool))
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"who"}}`)
	if got, want := c.recv(), `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"probe 2025-06-18"}]}}`; got != want {
		t.Errorf("answer %s, want %s", got, want)
	}
}
