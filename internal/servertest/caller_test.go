package servertest_test

import (
	"context"
	"strings"
	"testing"

	. "github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// textResult is the result of a tool call whose one block is text.
func textResult(text string) string {
	return `{"content":[{"type":"text","text":` + MustJSON(text) + `}]}`
}

// TestCallerRefusals checks the errors a handler gets when the identity
// does not enable a request to the client, or the client did not declare
// the capability; progress without a token is no error.
func TestCallerRefusals(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		ask := mcprt.Tool{Name: "ask", Description: "asks", InputSchema: []byte(`{"type":"object"}`),
			Handler: func(ctx context.Context, _ []byte) mcprt.Result {
				_, errE := mcprt.Elicit(ctx, "?", nil)
				_, errS := mcprt.Sample(ctx, mcprt.SampleRequest{MaxTokens: 1})
				errL := mcprt.Log(ctx, "loud", "", nil)
				errP := mcprt.Progress(ctx, 1, 2, "")
				return mcprt.TextResult(strings.Join([]string{errE.Error(), errS.Error(), errL.Error(), RPCError(errP)}, "\n"))
			}}
		for _, tc := range []struct {
			id   mcprt.Identity
			want string
		}{
			{mcprt.Identity{Name: "t", Version: "1"}, "elicitation is not enabled in the server's identity\nsampling is not enabled in the server's identity\ninvalid log level \"loud\"\nno error"},
			{mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true, EnableSampling: true}, "the client did not declare the elicitation capability\nthe client did not declare the sampling capability\ninvalid log level \"loud\"\nno error"},
		} {
			got := m.new(tc.id, ask).raw(t, "2025-11-25").Call("tools/call", `{"name":"ask","arguments":{}}`)
			SameJSON(t, "tools/call", got, textResult(tc.want))
		}
	})
}

// TestAddToolsFollowsTheIdentity checks that tools added with AddTools to
// a server NewServer made ask the client only as its identity allows, and
// on a server the caller made wherever the client declared it.
func TestAddToolsFollowsTheIdentity(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		ask := mcprt.Tool{Name: "ask", Description: "asks", InputSchema: []byte(`{"type":"object"}`),
			Handler: func(ctx context.Context, _ []byte) mcprt.Result {
				_, err := mcprt.Elicit(ctx, "?", nil)
				return mcprt.TextResult(err.Error())
			}}
		for _, tc := range []struct {
			s    pathServer
			want string
		}{
			{m.new(mcprt.Identity{Name: "t", Version: "1"}), "elicitation is not enabled in the server's identity"},
			{m.own(), "the client did not declare the elicitation capability"},
		} {
			tc.s.addTools(ask)
			SameJSON(t, "tools/call", tc.s.raw(t, "2025-11-25").Call("tools/call", `{"name":"ask","arguments":{}}`), textResult(tc.want))
		}
	}, gosdkMode, mcpgoMode)
}
