package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// urlTools are a tool that sends the user to a page and one that needs the
// user to have visited one; both report the elicitation id on ids.
func urlTools(ids chan<- string) []mcprt.Tool {
	schema := []byte(`{"type":"object"}`)
	return []mcprt.Tool{
		{Name: "consent", InputSchema: schema, Handler: func(ctx context.Context, _ []byte) mcprt.Result {
			r, id, err := mcprt.ElicitURL(ctx, "Grant access", "https://example.com/consent")
			if err != nil {
				return mcprt.ErrorResult(err)
			}
			ids <- id
			return mcprt.TextResult(r.Action)
		}},
		{Name: "gate", InputSchema: schema, Handler: func(ctx context.Context, _ []byte) mcprt.Result {
			err := mcprt.URLElicitationRequired("Authorize", "https://example.com/oauth")
			var ue *mcprt.URLElicitationError
			if errors.As(err, &ue) {
				ids <- ue.Elicitations[0].ID
			}
			return mcprt.ErrorResult(err)
		}},
	}
}

// TestElicitURL: on mcp-go a URL elicitation reaches the client in URL mode
// with its id, ElicitationComplete notifies that client once, and a
// handler's URLElicitationRequired is -32042; a client without
// elicitation.url is sent nothing.
func TestElicitURL(t *testing.T) {
	ids := make(chan string, 4)
	s := server.NewMCPServer("t", "1", server.WithElicitation())
	AddTools(s, urlTools(ids)...)
	asked := make(chan *sdk.ElicitParams, 1)
	completed := make(chan string, 1)
	cs := connect(t, s, "2025-11-25", &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{URL: &sdk.URLElicitationCapabilities{}}},
		ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked <- req.Params
			return &sdk.ElicitResult{Action: "accept"}, nil
		},
		ElicitationCompleteHandler: func(_ context.Context, n *sdk.ElicitationCompleteNotificationRequest) {
			completed <- n.Params.ElicitationID
		},
	})
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "consent", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("consent: %v %+v", err, res)
	}
	p, id := <-asked, <-ids
	if p.Mode != "url" || p.URL != "https://example.com/consent" || p.Message != "Grant access" || p.ElicitationID != id || id == "" {
		t.Errorf("the client was asked %+v, want URL mode with id %q", p, id)
	}
	// The notice goes on the standalone stream, once the client has it.
	for deadline := time.Now().Add(5 * time.Second); s.SendNotificationToSpecificClient(cs.ID(), "notifications/test/ready", nil) != nil; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the standalone stream did not open")
		}
	}
	if err := ElicitationComplete(s, id); err != nil {
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
	if err := ElicitationComplete(s, id); err == nil {
		t.Error("a second completion of the same id succeeded")
	}

	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "gate", Arguments: map[string]any{}})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != sdk.CodeURLElicitationRequired || !strings.Contains(string(je.Data), `"elicitationId":"`+<-ids+`"`) {
		t.Errorf("gate: %v, want -32042 with the elicitation", err)
	}

	plain := connect(t, s, "2025-11-25", &sdk.ClientOptions{
		ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			t.Error("a client without elicitation.url was sent a URL elicitation")
			return &sdk.ElicitResult{Action: "decline"}, nil
		},
	})
	res, err = plain.CallTool(ctx, &sdk.CallToolParams{Name: "consent", Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "did not declare the elicitation.url capability") {
		t.Errorf("consent without elicitation.url: %v %+v", err, res)
	}
	res, err = plain.CallTool(ctx, &sdk.CallToolParams{Name: "gate", Arguments: map[string]any{}})
	<-ids
	if err != nil || !res.IsError || res.Content[0].(*sdk.TextContent).Text != "Authorize: open https://example.com/oauth" {
		t.Errorf("gate without elicitation.url: %v %+v, want a failed result naming the page", err, res)
	}
}

// TestURLElicitationOn2026: mcp-go's adapter asks nothing on 2026-07-28,
// as for forms: ElicitURL fails and URLElicitationRequired is a failed
// result, where the built-in server answers with input-required results.
func TestURLElicitationOn2026(t *testing.T) {
	ids := make(chan string, 4)
	s := server.NewMCPServer("t", "1", server.WithElicitation())
	AddTools(s, urlTools(ids)...)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
	for _, name := range []string{"consent", "gate"} {
		out, _ := json.Marshal(s.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`,"name":"`+name+`","arguments":{}}}`)))
		if got := string(out); !strings.Contains(got, `"isError":true`) || strings.Contains(got, "input_required") {
			t.Errorf("%s on 2026-07-28: %s, want a failed result", name, got)
		}
	}
}
