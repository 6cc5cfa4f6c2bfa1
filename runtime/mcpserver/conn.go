package mcpserver

import (
	"context"
	"sync"
)

// Conn is one client connection over a transport of the caller's own: an
// in-process pipe, a message queue, a test harness. The caller reads each
// message from its transport, passes it to [Conn.Handle] and writes back
// what Handle returns; messages the server sends outside a response
// (notifications, requests to the client) go to the send function given to
// [Server.Connect]. A Conn is one session, like a stdio connection.
type Conn struct {
	srv  *Server
	sess *session
	out  sender
}

// funcSender adapts a caller's send function; a mutex keeps calls to it
// one at a time. It is used by pointer, since senders are compared (a
// task's run compares the stream it waits on) and a func is not
// comparable.
type funcSender struct {
	mu *sync.Mutex
	fn func([]byte) error
}

func (f funcSender) send(msg []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fn(msg)
}

// Connect starts a connection whose out-of-band messages go to send. send
// is called one message at a time, never concurrently. Close the
// connection when the transport ends. ctx bounds the connection: its end
// cancels the handlers still running.
func (s *Server) Connect(ctx context.Context, send func(msg []byte) error) *Conn {
	out := &funcSender{mu: new(sync.Mutex), fn: send}
	c := &Conn{srv: s, out: out}
	c.sess = newSession(ctx, s, "", TransportConn, out)
	s.track(c.sess)
	return c
}

// Handle handles one JSON-RPC message or batch and returns the response to
// write back, or nil when there is none (notifications, responses,
// cancelled requests). It runs the request to completion in the calling
// goroutine; call it from several goroutines to serve requests
// concurrently. A subscriptions/listen lasts until it is cancelled or the
// connection is closed; its notifications go to send. A handler that asks the client something (elicitation,
// sampling) waits until the client's answer is passed to Handle from
// another goroutine.
func (c *Conn) Handle(ctx context.Context, msg []byte) []byte {
	items, isBatch, perr := splitBatch(msg)
	if perr != nil {
		return appendError(nil, nil, perr)
	}
	if isBatch {
		return c.srv.handleBatch(ctx, c.sess, items, c.out)
	}
	var m message
	if id, rerr := parseInto(msg, &m); rerr != nil {
		return appendError(nil, id, rerr)
	}
	return c.srv.handle(ctx, c.sess, &m, c.out)
}

// Close ends the connection: requests to the client still awaiting an
// answer fail, open subscriptions/listen requests are answered, and the
// server forgets the session.
func (c *Conn) Close() {
	c.sess.close()
	c.srv.untrack(c.sess)
	c.srv.sessionEnded(c.sess, "closed")
}
