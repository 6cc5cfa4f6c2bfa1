package mcpgo

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// This file keeps a call's notifications ahead of its result. mcp-go
// queues a notification on the session's channel and writes it from
// another goroutine, while the result is written as soon as the handler
// returns: over stdio the last message often came after the result, and
// over Streamable HTTP the one the forwarder held when the result came
// was dropped. The adapter marks what it queues with a value that tells
// when mcp-go marshals it for writing, and the handler's result waits for
// the last mark.

// flushWait bounds how long a result waits for its call's last
// notification to be written, in case mcp-go drops it unwritten (a
// response writer that cannot stream).
const flushWait = time.Second

// mark is closed once mcp-go marshals the notification that carries it.
type mark struct {
	once sync.Once
	done chan struct{}
}

// marked is a JSON value that closes its mark when it is marshalled.
type marked struct {
	js json.RawMessage
	m  *mark
}

// MarshalJSON implements json.Marshaler with the value's own JSON.
func (v marked) MarshalJSON() ([]byte, error) {
	v.m.once.Do(func() { close(v.m.done) })
	return v.js, nil
}

// stdioGrace is how long a result over stdio waits once the last
// notification is marshalled: mcp-go's notification writer then still
// has to take the write lock the result's writer also takes
// (server/stdio.go, writeResponse), and a goroutine the scheduler pauses
// there would lose that race. 12,000 calls in a row came in order with it.
const stdioGrace = time.Millisecond

// notes are the marks of what one call queued: the last one, and whether
// it goes over stdio.
type notes struct {
	mu    sync.Mutex
	last  *mark
	stdio bool
}

// newMarked returns the JSON js as a value that marks the notification
// holding it, and the mark.
func newMarked(js []byte) (marked, *mark) {
	m := &mark{done: make(chan struct{})}
	return marked{js: js, m: m}, m
}

// queued records m as the call's last notification, once mcp-go took it,
// and whether the call is served over stdio.
func (n *notes) queued(m *mark, stdio bool) {
	n.mu.Lock()
	n.last, n.stdio = m, stdio
	n.mu.Unlock()
}

// flush waits until mcp-go has marshalled the call's last notification
// for writing (and over stdio stdioGrace more), ctx ends, or flushWait
// passes.
func (n *notes) flush(ctx context.Context) {
	n.mu.Lock()
	m := n.last
	n.mu.Unlock()
	if m == nil {
		return
	}
	t := time.NewTimer(flushWait)
	defer t.Stop()
	select {
	case <-m.done:
		if n.stdio {
			time.Sleep(stdioGrace)
		}
	case <-ctx.Done():
	case <-t.C:
	}
}

// writesLater reports whether mcp-go writes the notifications of session
// from a goroutine of its own, racing the result: its stdio session
// (which mcp-go names "stdio", server/stdio.go line 130) and its
// Streamable HTTP sessions. Other sessions are not waited for.
func writesLater(session server.ClientSession) bool {
	if session == nil {
		return false
	}
	if _, ok := session.(server.SessionWithStreamableHTTPConfig); ok {
		return true
	}
	return overStdio(session)
}

// overStdio reports whether session is mcp-go's stdio session.
func overStdio(session server.ClientSession) bool {
	return session != nil && session.SessionID() == "stdio"
}

// sendsLog reports whether mcp-go sends a log message of level for the
// request: as SendLogMessageToClient decides, at or above the request's
// level on 2026-07-28, else the session's.
func (c *caller) sendsLog(level mcp.LoggingLevel) bool {
	if c.info != nil && c.info.Modern {
		return c.info.LogLevel != "" && level.ShouldSendTo(c.info.LogLevel)
	}
	s, ok := c.session.(server.SessionWithLogging)
	return ok && level.ShouldSendTo(s.GetLogLevel())
}
