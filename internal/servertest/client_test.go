package servertest_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	. "github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// whoTool answers the JSON of what mcprt.ClientInfo says of its client.
var whoTool = mcprt.Tool{Name: "who", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, _ []byte) mcprt.Result {
	c, ok := mcprt.ClientInfo(ctx)
	if !ok {
		return mcprt.Errorf("no client in the context")
	}
	js, err := json.Marshal(c)
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult(string(js))
}}

// TestClientInfo: a handler sees its client on every path and revision:
// the name and version it gave, its revision, its session (none on
// 2026-07-28) and the capabilities it declared, typed and as JSON.
func TestClientInfo(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		for _, rev := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
			caps := &mcp.ClientCapabilities{
				Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
				Sampling:    &mcp.SamplingCapabilities{Tools: &mcp.SamplingToolsCapabilities{}},
				RootsV2:     &mcp.RootCapabilities{ListChanged: true},
			}
			caps.AddExtension(wire.TasksExtension, nil)
			cs := m.new(mcprt.Identity{Name: "t", Version: "1"}, whoTool).connect(t, rev, &mcp.ClientOptions{Capabilities: caps})
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "who", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				t.Fatalf("%s: %v %+v", rev, err, res)
			}
			var got mcprt.Client
			if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &got); err != nil {
				t.Fatal(err)
			}
			want := mcprt.Client{Name: "c", Version: "1", Revision: rev, Capabilities: mcprt.ClientCapabilities{
				Elicitation: true, ElicitationURL: true, Sampling: true, SamplingTools: true, Roots: true, RootsListChanged: true, Tasks: true,
			}}
			if rev != "2026-07-28" {
				want.SessionID = cs.ID()
			}
			if d := cmp.Diff(want, got, cmpopts.IgnoreFields(mcprt.ClientCapabilities{}, "JSON")); d != "" {
				t.Errorf("%s: ClientInfo (-want +got):\n%s", rev, d)
			}
			if sent := wire.ClientCapabilities(got.Capabilities.JSON); !cmp.Equal(sent, got.Capabilities, cmpopts.IgnoreFields(mcprt.ClientCapabilities{}, "JSON")) {
				t.Errorf("%s: the capabilities' JSON %s says %+v", rev, got.Capabilities.JSON, sent)
			}
		}
	})
}

// TestClientInfoOfAPlainClient: a client that declares nothing is seen
// declaring nothing, on a session and on 2026-07-28.
func TestClientInfoOfAPlainClient(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			got := m.new(mcprt.Identity{Name: "t", Version: "1"}, whoTool).raw(t, rev).Call("tools/call", `{"name":"who","arguments":{}}`)
			var res struct{ Content []struct{ Text string } }
			var c mcprt.Client
			if err := json.Unmarshal([]byte(got), &res); err != nil || len(res.Content) != 1 || json.Unmarshal([]byte(res.Content[0].Text), &c) != nil {
				t.Fatalf("%s: %s", rev, got)
			}
			c.Capabilities.JSON, c.SessionID = nil, "" // mcp-go names its stdio session "stdio"
			if want := (mcprt.Client{Name: "raw", Version: "1", Revision: rev}); !cmp.Equal(c, want) {
				t.Errorf("%s: ClientInfo %+v, want %+v", rev, c, want)
			}
		}
	})
}

// askAllTool asks one question of each kind and answers, for each, whether
// its error matches mcprt.ErrNotSupported.
var askAllTool = mcprt.Tool{Name: "ask_all", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, _ []byte) mcprt.Result {
	_, errE := mcprt.Elicit(ctx, "?", nil)
	_, _, errF := mcprt.ElicitForm[Confirm](ctx, "Sure?")
	_, _, errU := mcprt.ElicitURL(ctx, "Open", "https://example.com")
	_, errS := mcprt.Sample(ctx, mcprt.SampleRequest{MaxTokens: 1})
	_, errR := mcprt.ListRoots(ctx)
	var out []string
	for i, err := range []error{errE, errF, errU, errS, errR} {
		out = append(out, []string{"elicit", "form", "url", "sample", "roots"}[i]+":"+map[bool]string{true: "not supported", false: "other"}[errors.Is(err, mcprt.ErrNotSupported)])
	}
	return mcprt.TextResult(strings.Join(out, " "))
}}

// TestNotSupported: a question the client did not declare, or the server
// did not enable, fails with an error matching mcprt.ErrNotSupported on
// every path and revision; on 2026-07-28 a question is not refused so
// when the client declared it.
func TestNotSupported(t *testing.T) {
	const none = "elicit:not supported form:not supported url:not supported sample:not supported roots:not supported"
	run(t, func(t *testing.T, m *mode) {
		for _, rev := range []string{"2025-03-26", "2025-11-25", "2026-07-28"} {
			for _, tc := range []struct {
				id   mcprt.Identity
				caps string
				want string
			}{
				{mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true, EnableSampling: true}, `{}`, none},
				{mcprt.Identity{Name: "t", Version: "1"}, `{"elicitation":{"url":{}},"sampling":{}}`, "elicit:not supported form:not supported url:not supported sample:not supported roots:not supported"},
			} {
				got := m.new(tc.id, askAllTool).raw(t, rev, tc.caps).Call("tools/call", `{"name":"ask_all","arguments":{}}`)
				if !strings.Contains(got, tc.want) {
					t.Errorf("%s, caps %s: %s, want %q", rev, tc.caps, got, tc.want)
				}
			}
		}
	})
}

// TestConfirmFallback: delete_task asks the user to confirm where it can
// and falls back to its confirm argument where mcprt.ErrNotSupported says
// it cannot, on every path and revision.
func TestConfirmFallback(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			plain := m.new(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true}, DeleteTask).raw(t, rev)
			if got := plain.Call("tools/call", `{"name":"delete_task","arguments":{"confirm":true}}`); !strings.Contains(got, "deleted task 7 (confirmed by argument)") {
				t.Errorf("%s, confirm true: %s", rev, got)
			}
			if got := plain.Call("tools/call", `{"name":"delete_task","arguments":{}}`); !strings.Contains(got, `"isError":true`) || !strings.Contains(got, "call delete_task again with confirm set to true") {
				t.Errorf("%s, no confirm: %s", rev, got)
			}
			asks := m.new(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true}, DeleteTask).raw(t, rev, `{"elicitation":{}}`)
			yes := func(string, []byte) string { return `{"action":"accept","content":{"sure":true}}` }
			asks.Answer(yes)
			if got, _ := asks.CallRounds("tools/call", `{"name":"delete_task","arguments":{}}`, yes); !strings.Contains(got, "deleted task 7 (confirmed by the user)") {
				t.Errorf("%s, asked: %s", rev, got)
			}
		}
	})
}
