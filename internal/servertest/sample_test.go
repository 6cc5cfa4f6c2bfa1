package servertest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	. "github.com/mcpgen/mcpgen/internal/fixture"
	. "github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// weatherParams is WeatherSample as go-sdk's client decodes it, which
// writes a content of one block as that block, with the annotations a
// path writes on every tool in place of %s. mcp-go writes an empty
// annotations object, which go-sdk's client decodes with its two hints
// that are plain booleans.
const weatherParams = `{"messages":[` +
	`{"role":"user","content":{"type":"text","text":"Weather in Paris?"}},` +
	`{"role":"assistant","content":{"type":"tool_use","id":"u1","name":"weather","input":{"city":"Paris"}}},` +
	`{"role":"user","content":{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"18C"}],"isError":true}}],` +
	`"maxTokens":50,"tools":[{%s"name":"weather","description":"Weather of a city","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}}}],"toolChoice":{"mode":"required"}}`

// TestSampleWithTools: a request with tools reaches go-sdk's client that
// declares sampling.tools with its tools, tool choice and tool blocks, on
// a session and in an input-required result (2026-07-28), and the tool
// uses of the answer reach the handler. A client without sampling.tools
// is sent nothing: the handler fails, which on 2026-07-28 is
// MissingRequiredClientCapability where the SDK lets a handler say so
// (mcp-go does not).
func TestSampleWithTools(t *testing.T) {
	annotations := each{mcpgo: `"annotations":{"idempotentHint":false,"readOnlyHint":false},`}
	run(t, func(t *testing.T, m *mode) {
		s := m.new(mcprt.Identity{Name: "t", Version: "1", EnableSampling: true}, AskModel)
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			var params []byte
			cs := s.connect(t, rev, &mcp.ClientOptions{
				CreateMessageWithToolsHandler: func(_ context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
					params, _ = json.Marshal(req.Params)
					return &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "m", StopReason: mcprt.StopToolUse, Content: []mcp.Content{
						&mcp.TextContent{Text: "checking"},
						&mcp.ToolUseContent{ID: "u2", Name: "weather", Input: map[string]any{"city": "Lyon"}},
					}}, nil
				},
			})
			ctx := context.Background()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask_model", Arguments: map[string]any{}})
			if err != nil {
				t.Fatalf("%s: %v", rev, err)
			}
			if got := res.Content[0].(*mcp.TextContent).Text; got != `toolUse checking u2:weather{"city":"Lyon"}` {
				t.Errorf("%s: the handler saw %q", rev, got)
			}
			SameJSON(t, rev+" sampling/createMessage", string(params), fmt.Sprintf(weatherParams, annotations.on(m)))

			plain := s.connect(t, rev, &mcp.ClientOptions{
				CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					t.Error("a client without sampling.tools was sent tools")
					return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{}}, nil
				},
			})
			res, err = plain.CallTool(ctx, &mcp.CallToolParams{Name: "ask_model", Arguments: map[string]any{}})
			if rev == "2026-07-28" && m.pkg != "mcpgo" {
				if RPCError(err) != "-32021 Missing required client capability: sampling.tools" || ErrorData(err) != `{"requiredCapabilities":{"sampling":{"tools":{}}}}` {
					t.Errorf("%s without sampling.tools: %v %s, want -32021 naming sampling.tools", rev, err, ErrorData(err))
				}
			} else if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "did not declare the sampling.tools capability") {
				t.Errorf("%s without sampling.tools: %v %+v", rev, err, res)
			}
		}
	}, builtinMode, gosdkMode, mcpgoMode, mcpgoOwnMode)
}
