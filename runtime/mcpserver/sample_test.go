package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// weatherParams is fixture.WeatherSample on the wire.
const weatherParams = `{"messages":[` +
	`{"role":"user","content":{"type":"text","text":"Weather in Paris?"}},` +
	`{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"weather","input":{"city":"Paris"}}]},` +
	`{"role":"user","content":[{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"18C"}],"isError":true}]}],` +
	`"maxTokens":50,"tools":[{"name":"weather","description":"Weather of a city","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}}}],"toolChoice":{"mode":"required"}}`

// modelAnswer is a sampling result that asks for two tools beside a text.
const modelAnswer = `{"role":"assistant","model":"m","stopReason":"toolUse","content":[{"type":"text","text":"checking"},{"type":"tool_use","id":"u2","name":"weather","input":{"city":"Lyon"}},{"type":"tool_use","id":"u3","name":"weather","input":{"city":"Nice"}}]}`

// TestSampleWithToolsSession: on 2025-11-25 the tools, the tool choice and
// the tool blocks of the messages go to a client with sampling.tools, and
// the tools the model asks for come back.
func TestSampleWithToolsSession(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableSampling: true}, fixture.AskModel)
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{"sampling":{"tools":{}}}`)
	c.send(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"ask_model"}}`)
	c.expect(`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":` + weatherParams + `}`)
	c.send(`{"jsonrpc":"2.0","id":1,"result":` + modelAnswer + `}`)
	c.expect(`{"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"toolUse checking u2:weather{\"city\":\"Lyon\"} u3:weather{\"city\":\"Nice\"}"}]}}`)
}

// TestSampleWithToolsRefused: nothing is sent to a client without
// sampling.tools or on a revision before 2025-11-25, and a message of tool
// results with other content is refused; the handler gets the reason.
func TestSampleWithToolsRefused(t *testing.T) {
	t.Parallel()
	mixed := fixture.WeatherSample
	mixed.Messages = append([]mcprt.SampleMessage(nil), fixture.WeatherSample.Messages...)
	mixed.Messages[2].Content = mcprt.Text("and this")
	badChoice := fixture.WeatherSample
	badChoice.ToolChoice = "sometimes"
	for _, tc := range []struct {
		rev  wire.Revision
		caps string
		req  mcprt.SampleRequest
		want string
	}{
		{wire.Rev20251125, `{"sampling":{}}`, fixture.WeatherSample, "did not declare the sampling.tools capability"},
		{wire.Rev20250618, `{"sampling":{"tools":{}}}`, fixture.WeatherSample, "sampling with tools needs protocol revision 2025-11-25"},
		{wire.Rev20251125, `{"sampling":{"tools":{}}}`, mixed, "a message of tool results holds nothing else"},
		{wire.Rev20251125, `{"sampling":{"tools":{}}}`, badChoice, "is not auto, required or none"},
	} {
		req := tc.req
		tool := handlerTool("s", func(ctx context.Context, args []byte) mcprt.Result {
			_, err := mcprt.Sample(ctx, req)
			return mcprt.ErrorResult(err)
		})
		c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v", EnableSampling: true}, tool))
		c.initialize(tc.rev, tc.caps)
		c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"s"}}`)
		if line := c.recv(); !strings.Contains(line, `"id":1`) || !strings.Contains(line, `"isError":true`) || !strings.Contains(line, tc.want) {
			t.Errorf("%s %s: got %s, want a failed result saying %q", tc.rev, tc.caps, line, tc.want)
		}
	}
}

// TestSampleWithToolsRound: on 2026-07-28 the request with its tools is an
// input request, and the answer's tool uses reach the handler; without
// sampling.tools the call is MissingRequiredClientCapability.
func TestSampleWithToolsRound(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableSampling: true}, fixture.AskModel)
	c := startStdio(t, srv)
	caps := `{"sampling":{"tools":{}}}`
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta2026(caps) + `,"name":"ask_model"}}`)
	reqs, state := inputRequired(t, c.recv())
	var key string
	for k, v := range reqs {
		key = k
		sameJSON(t, string(v), `{"method":"sampling/createMessage","params":`+weatherParams+`}`)
	}
	if len(reqs) != 1 {
		t.Fatalf("input requests %v, want one", reqs)
	}
	answer, _ := json.Marshal(map[string]json.RawMessage{key: json.RawMessage(modelAnswer)})
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{`+meta2026(caps)+`,"name":"ask_model","inputResponses":`+string(answer)+`,"requestState":"`+state+`"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"toolUse checking u2:weather{\"city\":\"Lyon\"} u3:weather{\"city\":\"Nice\"}"}]}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{`+meta2026(`{"sampling":{}}`)+`,"name":"ask_model"}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32021,"message":"Missing required client capability: sampling.tools","data":{"requiredCapabilities":{"sampling":{"tools":{}}}}}}`)
}
