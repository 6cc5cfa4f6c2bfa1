package gosdk

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestCallerRefusals checks the errors a handler gets on go-sdk when the
// identity does not enable elicitation or sampling, or the client did not
// declare the capability.
func TestCallerRefusals(t *testing.T) {
	ask := mcprt.Tool{Name: "ask", Description: "asks", InputSchema: []byte(`{"type":"object"}`),
		Handler: func(ctx context.Context, _ []byte) mcprt.Result {
			_, errE := mcprt.Elicit(ctx, "?", nil)
			_, errS := mcprt.Sample(ctx, mcprt.SampleRequest{MaxTokens: 1})
			errL := mcprt.Log(ctx, "loud", "", nil)
			return mcprt.TextResult(strings.Join([]string{errE.Error(), errS.Error(), errL.Error()}, "\n"))
		}}
	for _, tc := range []struct {
		id   mcprt.Identity
		want string
	}{
		{mcprt.Identity{Name: "t", Version: "1"}, "gosdk: elicitation is not enabled in the server's identity\ngosdk: sampling is not enabled in the server's identity\ngosdk: invalid log level \"loud\""},
		{mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true, EnableSampling: true}, "gosdk: the client did not declare the elicitation capability\ngosdk: the client did not declare the sampling capability\ngosdk: invalid log level \"loud\""},
	} {
		ctx := context.Background()
		st, ct := mcp.NewInMemoryTransports()
		ss, err := NewServer(tc.id, ask).Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; got != tc.want {
			t.Errorf("\n got %q\nwant %q", got, tc.want)
		}
		cs.Close()
		ss.Wait()
	}
}

// TestAddToolsFollowsTheIdentity checks that tools added with AddTools to
// a server NewServer made ask the client only as its identity allows, and
// on a server the caller made wherever the client declared it.
func TestAddToolsFollowsTheIdentity(t *testing.T) {
	ask := mcprt.Tool{Name: "ask", Description: "asks", InputSchema: []byte(`{"type":"object"}`),
		Handler: func(ctx context.Context, _ []byte) mcprt.Result {
			_, err := mcprt.Elicit(ctx, "?", nil)
			return mcprt.TextResult(err.Error())
		}}
	for _, tc := range []struct {
		s    *mcp.Server
		want string
	}{
		{NewServer(mcprt.Identity{Name: "t", Version: "1"}), "gosdk: elicitation is not enabled in the server's identity"},
		{mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil), "gosdk: the client did not declare the elicitation capability"},
	} {
		AddTools(tc.s, ask)
		cs := connect(t, tc.s, "2025-11-25", nil)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
