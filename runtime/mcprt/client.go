package mcprt

import (
	"context"
	"errors"
)

// Client is what a server knows of the client that made a call: what it
// calls itself, what it declared it can do, the protocol revision of the
// call and the session it belongs to.
type Client struct {
	Name, Version string
	// Revision is the protocol revision of the call, as "2025-11-25".
	Revision string
	// SessionID is the session's id over Streamable HTTP; empty on stdio
	// and on 2026-07-28, which has no sessions.
	SessionID    string
	Capabilities ClientCapabilities
}

// ClientCapabilities are the capabilities a client declared: at
// initialization on a session, with each request on 2026-07-28.
type ClientCapabilities struct {
	// Elicitation: the client asks its user for input ([Elicit],
	// [ElicitForm]). ElicitationURL: it also sends its user to a page
	// ([ElicitURL]).
	Elicitation, ElicitationURL bool
	// Sampling: the client's model answers [Sample]. SamplingTools: it
	// also takes tools in a sampling request.
	Sampling, SamplingTools bool
	// Roots: the client answers [ListRoots]. RootsListChanged: it also
	// tells when its roots change.
	Roots, RootsListChanged bool
	// Tasks: the client runs calls as tasks, with the tasks capability
	// of 2025-11-25 or the io.modelcontextprotocol/tasks extension of
	// 2026-07-28.
	Tasks bool
	// JSON is the capabilities object as the client sent it, for what
	// the fields above leave out (experimental, extensions).
	JSON []byte
}

// ErrNotSupported is what [Elicit], [ElicitForm], [ElicitURL], [Sample]
// and [ListRoots] return, wrapped, when the question cannot be asked: the
// client did not declare the capability, the server's identity does not
// enable it, or the revision or the request has no way to ask. Nothing is
// sent then, and a handler may fall back:
//
//	ans, action, err := mcprt.ElicitForm[Confirm](ctx, "Delete the task?")
//	if errors.Is(err, mcprt.ErrNotSupported) {
//		ok = in.Confirm // ask the model for a confirm argument instead
//	}
var ErrNotSupported = errors.New("not supported by the client or the server")

type clientKey struct{}

// WithClient returns a context that carries c as the client of one call,
// for a test of a handler. The servers need not: their [Caller] tells
// [ClientInfo] (see there).
func WithClient(ctx context.Context, c Client) context.Context {
	return context.WithValue(ctx, clientKey{}, &c)
}

// ClientInfo returns the client of the call a handler serves: its name,
// version, declared capabilities, the revision and the session id. It
// reports false when ctx carries none: the handler was not called by a
// server.
//
// The client is the one [WithClient] set, or else the one the [Caller] in
// ctx reports with a method Client() Client, as every server's Caller
// does. The server works it out only when a handler asks.
func ClientInfo(ctx context.Context) (Client, bool) {
	if c, ok := ctx.Value(clientKey{}).(*Client); ok && c != nil {
		return *c, true
	}
	if r, ok := ctx.Value(callerKey{}).(interface{ Client() Client }); ok && r != nil {
		return r.Client(), true
	}
	return Client{}, false
}
