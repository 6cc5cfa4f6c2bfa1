package mcpgo

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// elicitations records the session each URL elicitation of the adapter's
// handlers went to; ids are random, so one book serves every server.
var elicitations wire.ElicitationBook[server.ClientSession]

// ElicitationComplete sends notifications/elicitation/complete for the URL
// elicitation id (from [mcprt.ElicitURL] or [mcprt.URLElicitationRequired])
// to the session that received it, with mcp-go's SendElicitationComplete.
// The empty id of 2026-07-28 is a no-op; an id no session was sent, or one
// completed already, is an error.
func ElicitationComplete(s *server.MCPServer, id string) error {
	if id == "" {
		return nil
	}
	session, ok := elicitations.Take(id)
	if !ok {
		return fmt.Errorf("mcpgo: %w", wire.UnknownElicitation(id))
	}
	if err := s.SendElicitationComplete(context.Background(), session, id); err != nil {
		return fmt.Errorf("mcpgo: %w", err)
	}
	return nil
}

// urlElicitationError is mcp-go's URLElicitationRequiredError, which it
// answers as -32042, for a handler's failure that is a
// [mcprt.URLElicitationError], on 2025-11-25 to a client that declared
// elicitation.url where the switches allow elicitation; nil when the
// failure stays a failed result.
func urlElicitationError(ctx context.Context, res *mcprt.Result, sw switches, rev wire.Revision) error {
	pages := wire.URLElicitations(res.Err)
	if len(pages) == 0 || rev != wire.Rev20251125 || canAsk(ctx, "elicitation.url", sw.elicitation, urlDeclared) != nil {
		return nil
	}
	session := server.ClientSessionFromContext(ctx)
	out := mcp.URLElicitationRequiredError{Elicitations: make([]mcp.ElicitationParams, 0, len(pages))}
	for _, u := range pages {
		if session != nil {
			elicitations.Add(u.ID, session)
		}
		out.Elicitations = append(out.Elicitations, mcp.ElicitationParams{Mode: mcp.ElicitationModeURL, Message: u.Message, URL: u.URL, ElicitationID: u.ID})
	}
	return out
}
