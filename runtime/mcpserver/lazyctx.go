package mcpserver

import (
	"context"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/ctxkey"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// lazyCancel is a cancelable context, as context.WithCancel(parent)
// makes, that makes that context only when something asks for what only
// it has: its Done channel, its error, or its cancelCtx, which package
// context asks for by a Value of cancelCtxKey (context.Cause does, and
// a context derived from this one, which then waits on it without a
// goroutine of its own). Until then its cancellation is only recorded.
// Most handlers never ask, and a request registered for cancellation
// then costs no context of its own.
//
// Its zero value is not usable: set parent first. With detached, it is
// made from context.WithoutCancel(parent): it keeps the parent's values
// but not its cancellation or deadline.
type lazyCancel struct {
	parent   context.Context
	detached bool
	// caller, once set, is the mcprt.Caller the context carries, as
	// mcprt.WithCaller would make it carry; it is set before the handler
	// runs and not changed after.
	caller mcprt.Caller

	mu      sync.Mutex
	ctx     context.Context // made on first need
	cancel  context.CancelFunc
	stopped bool // cancelled, before or after ctx was made
}

// made returns the context, making it if it is not yet.
func (c *lazyCancel) made() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx == nil {
		parent := c.parent
		if c.detached {
			parent = context.WithoutCancel(parent)
		}
		c.ctx, c.cancel = context.WithCancel(parent)
		if c.stopped {
			c.cancel()
		}
	}
	return c.ctx
}

// stop cancels the context.
func (c *lazyCancel) stop() {
	c.mu.Lock()
	c.stopped = true
	cancel := c.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (c *lazyCancel) Deadline() (time.Time, bool) {
	if c.detached {
		return time.Time{}, false
	}
	return c.parent.Deadline()
}

func (c *lazyCancel) Done() <-chan struct{} { return c.made().Done() }
func (c *lazyCancel) Err() error            { return c.made().Err() }

func (c *lazyCancel) Value(key any) any {
	switch key.(type) {
	case ctxkey.Caller:
		if c.caller != nil {
			return c.caller
		}
	case *int:
		if key == cancelCtxKey {
			return c.made().Value(key)
		}
	}
	return c.parent.Value(key)
}

// cancelCtxKey is the key by which package context asks a context for
// the cancelCtx it is or derives from, found by asking a context of our
// own. Were it not found, lazyCancel would still be correct: a context
// derived from it would wait on it with a goroutine.
var cancelCtxKey = func() any {
	var p keyProbe
	context.Cause(&p)
	return p.key
}()

// keyProbe records the first key it is asked for.
type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any {
	if p.key == nil {
		p.key = key
	}
	return nil
}

// Err reports the probe cancelled, so that context.Cause goes on to ask
// for its cancelCtx.
func (p *keyProbe) Err() error { return context.Canceled }
