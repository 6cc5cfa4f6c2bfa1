package mcprt_test

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// reporting is a Caller that tells the client of its call, as the
// servers' Callers do.
type reporting struct {
	mcprt.Caller
	c mcprt.Client
}

func (r reporting) Client() mcprt.Client { return r.c }

func TestClientInfo(t *testing.T) {
	t.Parallel()
	if _, ok := mcprt.ClientInfo(context.Background()); ok {
		t.Error("ClientInfo outside a server reported a client")
	}
	if _, ok := mcprt.ClientInfo(mcprt.WithCaller(context.Background(), &answering{})); ok {
		t.Error("ClientInfo with a Caller that tells none reported a client")
	}
	fromCaller := mcprt.Client{Name: "c", Version: "1", Revision: "2025-11-25", SessionID: "s"}
	ctx := mcprt.WithCaller(context.Background(), reporting{c: fromCaller})
	if got, ok := mcprt.ClientInfo(ctx); !ok || got.Name != "c" || got.SessionID != "s" {
		t.Errorf("ClientInfo from the Caller: %+v %v", got, ok)
	}
	set := mcprt.Client{Name: "test", Capabilities: mcprt.ClientCapabilities{Elicitation: true}}
	if got, ok := mcprt.ClientInfo(mcprt.WithClient(ctx, set)); !ok || got.Name != "test" || !got.Capabilities.Elicitation {
		t.Errorf("ClientInfo set by WithClient: %+v %v", got, ok)
	}
}
