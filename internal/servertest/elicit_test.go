package servertest_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestElicitURL: a URL elicitation reaches go-sdk's client in URL mode
// with its id, ElicitationComplete notifies that client once, and a
// handler's URLElicitationRequired is -32042 on 2025-11-25; a client
// without elicitation.url is sent nothing.
func TestElicitURL(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		ids := make(chan string, 4)
		s := m.new(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true}, fixture.URLTools(ids)...)
		asked := make(chan *mcp.ElicitParams, 1)
		completed := make(chan string, 1)
		cs := s.connect(t, "2025-11-25", &mcp.ClientOptions{
			Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
			ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked <- req.Params
				return &mcp.ElicitResult{Action: "accept"}, nil
			},
			ElicitationCompleteHandler: func(_ context.Context, n *mcp.ElicitationCompleteNotificationRequest) {
				completed <- n.Params.ElicitationID
			},
		})
		ctx := context.Background()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "consent", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("consent: %v %+v", err, res)
		}
		p, id := <-asked, <-ids
		if p.Mode != "url" || p.URL != "https://example.com/consent" || p.Message != "Grant access" || p.ElicitationID != id || id == "" {
			t.Errorf("the client was asked %+v, want URL mode with id %q", p, id)
		}
		if err := s.elicitationComplete(t, cs, id); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-completed:
			if got != id {
				t.Errorf("completed %q, want %q", got, id)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no notifications/elicitation/complete")
		}
		if err := s.elicitationComplete(t, cs, id); err == nil {
			t.Error("a second completion of the same id succeeded")
		}

		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "gate", Arguments: map[string]any{}})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != mcp.CodeURLElicitationRequired || !strings.Contains(string(je.Data), `"elicitationId":"`+<-ids+`"`) {
			t.Errorf("gate: %v, want -32042 with the elicitation", err)
		}

		plain := s.connect(t, "2025-11-25", &mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				t.Error("a client without elicitation.url was sent a URL elicitation")
				return &mcp.ElicitResult{Action: "decline"}, nil
			},
		})
		res, err = plain.CallTool(ctx, &mcp.CallToolParams{Name: "consent", Arguments: map[string]any{}})
		if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "did not declare the elicitation.url capability") {
			t.Errorf("consent without elicitation.url: %v %+v", err, res)
		}
		res, err = plain.CallTool(ctx, &mcp.CallToolParams{Name: "gate", Arguments: map[string]any{}})
		<-ids
		if err != nil || !res.IsError || res.Content[0].(*mcp.TextContent).Text != "Authorize: open https://example.com/oauth" {
			t.Errorf("gate without elicitation.url: %v %+v, want a failed result naming the page", err, res)
		}
	}, builtinMode, gosdkMode, mcpgoMode, mcpgoOwnMode)
}
