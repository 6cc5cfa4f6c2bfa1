package gosdk

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// elicitations records the session each URL elicitation of the adapter's
// handlers went to; ids are random, so one book serves every server.
var elicitations wire.ElicitationBook[*mcp.ServerSession]

// ElicitationComplete sends notifications/elicitation/complete for the URL
// elicitation id (from [mcprt.ElicitURL] or [mcprt.URLElicitationRequired])
// to the session of s that received it, with the session's
// NotifyElicitationComplete. The empty id of 2026-07-28 is a no-op; an id
// no session of s was sent, or one completed already, is an error.
func ElicitationComplete(s *mcp.Server, id string) error {
	if id == "" {
		return nil
	}
	ss, ok := elicitations.Take(id)
	if ok {
		ok = false
		for live := range s.Sessions() {
			ok = ok || live == ss
		}
	}
	if !ok {
		return fmt.Errorf("gosdk: %w", wire.UnknownElicitation(id))
	}
	return ss.NotifyElicitationComplete(context.Background(), &mcp.ElicitationCompleteParams{ElicitationID: id})
}

// urlElicitationError is go-sdk's URLElicitationRequired error (-32042) for
// a handler's failure that is a [mcprt.URLElicitationError], on 2025-11-25
// to a client that declared elicitation.url where the switches allow
// elicitation; nil when the failure stays a failed result.
func urlElicitationError(res *mcprt.Result, ss *mcp.ServerSession, sw switches, rev wire.Revision) error {
	pages := wire.URLElicitations(res.Err)
	if len(pages) == 0 || !sw.elicitation || rev != wire.Rev20251125 || ss == nil {
		return nil
	}
	if ip := ss.InitializeParams(); ip == nil || ip.Capabilities == nil || !urlDeclared(ip.Capabilities) {
		return nil
	}
	params := make([]*mcp.ElicitParams, 0, len(pages))
	for _, u := range pages {
		elicitations.Add(u.ID, ss)
		params = append(params, &mcp.ElicitParams{Mode: "url", Message: u.Message, URL: u.URL, ElicitationID: u.ID})
	}
	return mcp.URLElicitationRequiredError(params)
}

// keptAnswer is where [keepAnswer] puts the answer to an elicitation the
// caller sends, before go-sdk checks it against the requested schema; it
// is also the key of the context value that holds it.
type keptAnswer struct{ res *mcp.ElicitResult }

// keepAnswer is go-sdk sending middleware that keeps the answer to an
// elicitation/create for the caller that sent it, if it asked to.
func keepAnswer(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if kept, ok := ctx.Value(keptAnswer{}).(*keptAnswer); ok && err == nil {
			if r, ok := res.(*mcp.ElicitResult); ok {
				kept.res = r
			}
		}
		return res, err
	}
}
