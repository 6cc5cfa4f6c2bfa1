package servertest_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// serverPackages are the Go packages whose names must not open a text
// the model reads: the servers', the runtime's and the SDKs'.
var serverPackages = []string{"mcpserver", "mcprt", "mcpimpl", "gosdk", "mcpgo", "wire", "mcpredis", "mcpstore", "mcp", "jsonrpc", "server"}

// askEverything is a tool that asks the client everything a handler may
// ask, each in a way that fails, and returns every error as a text block
// of its failed result, as a handler returning them would.
var askEverything = mcprt.Tool{Name: "ask", Description: "asks", InputSchema: []byte(`{"type":"object"}`),
	Handler: func(ctx context.Context, _ []byte) mcprt.Result {
		var errs []error
		_, err := mcprt.Elicit(ctx, "?", nil)
		errs = append(errs, err)
		_, _, err = mcprt.ElicitURL(ctx, "?", "https://example.com/consent")
		errs = append(errs, err)
		_, err = mcprt.Sample(ctx, mcprt.SampleRequest{MaxTokens: 1})
		errs = append(errs, err)
		_, err = mcprt.Sample(ctx, mcprt.SampleRequest{MaxTokens: 1, Tools: []mcprt.SampleTool{{Name: "t", InputSchema: []byte(`{"type":"object"}`)}}})
		errs = append(errs, err)
		_, err = mcprt.ListRoots(ctx)
		errs = append(errs, err)
		errs = append(errs, mcprt.Log(ctx, "loud", "", nil), mcprt.Progress(ctx, 2, 1, ""))
		res := mcprt.Result{IsError: true}
		for _, err := range errs {
			if err != nil {
				res.Content = append(res.Content, mcprt.Text(err.Error()))
			}
		}
		return res
	}}

// plainTexts fails the test for each text block of result (a tools/call
// result as JSON, or {"error":...}) and for an error's message that opens
// with a package name, and returns how many blocks there were.
func plainTexts(t *testing.T, what, result string) int {
	t.Helper()
	var r struct {
		Content []struct{ Text string }  `json:"content"`
		Error   struct{ Message string } `json:"error"`
	}
	if err := json.Unmarshal([]byte(result), &r); err != nil {
		t.Fatalf("%s: %v: %s", what, err, result)
	}
	texts := []string{r.Error.Message}
	for _, c := range r.Content {
		texts = append(texts, c.Text)
	}
	for _, text := range texts {
		for _, p := range serverPackages {
			if strings.HasPrefix(text, p+":") {
				t.Errorf("%s: the client reads %q, which opens with the package name %s", what, text, p)
			}
		}
	}
	return len(r.Content)
}

// TestToolErrorsArePlain checks that what a handler's questions to the
// client fail with reads plainly once it becomes the tool's error: no
// text opens with a Go package name, on every path, whether the server
// refuses the question (not enabled, not declared, an old revision) or
// the client does.
func TestToolErrorsArePlain(t *testing.T) {
	modes := append(modes[:len(modes):len(modes)], mcpgoOwnMode)
	run(t, func(t *testing.T, m *mode) {
		revs := []string{"2025-03-26", "2025-11-25"}
		if slices.Contains(m.revisions, wire.Rev20260728) {
			revs = append(revs, "2026-07-28")
		}
		for _, id := range []mcprt.Identity{
			{Name: "t", Version: "1"},
			{Name: "t", Version: "1", EnableElicitation: true, EnableSampling: true, EnableLogging: true},
		} {
			for _, rev := range revs {
				got := m.new(id, askEverything).raw(t, rev).Call("tools/call", `{"name":"ask","arguments":{}}`)
				// On 2026-07-28 a capability not declared may be -32021.
				if n := plainTexts(t, rev, got); n < 5 && !strings.HasPrefix(got, `{"error":`) {
					t.Errorf("%s: %d errors, want one of each refused question: %s", rev, n, got)
				}
			}
		}
		// A client that declares everything and refuses it all.
		refuse := errors.New("the user said no")
		cs := m.new(mcprt.Identity{Name: "t", Version: "1", EnableElicitation: true, EnableSampling: true}, askEverything).connect(t, "2025-11-25", &mcp.ClientOptions{
			Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
				Sampling: &mcp.SamplingCapabilities{Tools: &mcp.SamplingToolsCapabilities{}}},
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, refuse },
			CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
				return nil, refuse
			},
		})
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(res)
		plainTexts(t, "refused by the client", string(js))
	}, modes)
}

// TestToolPanicIsLogged checks that a tool's panic becomes a failed
// result and is logged on the path's own logger.
func TestToolPanicIsLogged(t *testing.T) {
	boom := mcprt.Tool{Name: "boom", Description: "boom", InputSchema: []byte(`{"type":"object"}`),
		Handler: func(context.Context, []byte) mcprt.Result { panic("kaputt") }}
	run(t, func(t *testing.T, m *mode) {
		log, logs := servertest.NewLog()
		s := m.new(mcprt.Identity{Name: "t", Version: "1"}, boom)
		s.logTo(log)
		res, err := s.connect(t, "2025-11-25", nil).CallTool(context.Background(), &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}})
		if err != nil || !res.IsError {
			t.Fatalf("a panicking tool: %v %+v, want a failed result", err, res)
		}
		if !strings.Contains(logs.String(), `msg="mcp tool panicked" tool=boom panic=kaputt stack=`) {
			t.Errorf("the panic was not logged on the server's logger:\n%s", logs)
		}
	})
}
