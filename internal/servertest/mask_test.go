package servertest_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	. "github.com/mcpgen/mcpgen/internal/fixture"
	. "github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestMaskErrors checks masking on every path: the function's error of a
// tool, a panic, and the errors of a prompt and a read reach the client
// as the generic text with a correlation id, which the log pairs with the
// real error; a result built for the model and a template variable's
// reason go through.
func TestMaskErrors(t *testing.T) {
	secret := errors.New("sql: database is locked: /srv/data/tracker.db")
	tool := func(name string, h mcprt.Handler) mcprt.Tool {
		return mcprt.Tool{Name: name, Description: name, InputSchema: []byte(`{"type":"object"}`), Handler: h}
	}
	masked := regexp.MustCompile(`internal error; the server logged it with correlation id ([A-Z2-7]{26})`)
	run(t, func(t *testing.T, m *mode) {
		log, logs := NewLog()
		s := m.new(mcprt.Identity{Name: "t", Version: "1"},
			tool("fn", func(context.Context, []byte) mcprt.Result { return mcpimpl.CallError(secret) }),
			tool("boom", func(context.Context, []byte) mcprt.Result { panic(secret.Error()) }),
			tool("model", func(context.Context, []byte) mcprt.Result { return mcprt.Errorf("order %d does not exist", 3) }))
		s.addPrompts(mcprt.Prompt{Name: "p", Description: "p", Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
			return mcprt.PromptResult{}, secret
		}})
		s.addResources(mcprt.Resource{URI: "kb://broken", Name: "broken", Read: func(context.Context, string) ([]mcprt.ResourceContents, error) { return nil, secret }},
			ItemsTemplate)
		s.maskErrors()
		s.logTo(log)
		cs := s.connect(t, "2025-11-25", nil)
		ctx := context.Background()
		var texts []string
		for _, name := range []string{"fn", "boom", "model"} {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
			if err != nil || !res.IsError || len(res.Content) != 1 {
				t.Fatalf("%s: %v %+v", name, err, res)
			}
			texts = append(texts, res.Content[0].(*mcp.TextContent).Text)
		}
		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "p"})
		texts = append(texts, RPCError(err))
		_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "kb://broken"})
		texts = append(texts, RPCError(err))
		for i, what := range []string{"the function's error", "a panic", "", "a prompt's error", "a read's error"} {
			if what == "" {
				if texts[i] != "order 3 does not exist" {
					t.Errorf("a result for the model: %q", texts[i])
				}
				continue
			}
			id := masked.FindStringSubmatch(texts[i])
			if id == nil || strings.Contains(texts[i], "tracker.db") {
				t.Errorf("%s: %q, want the masked text", what, texts[i])
				continue
			}
			if !regexp.MustCompile(`msg="mcp handler error masked" [^\n]*correlation_id=` + id[1] + ` error="[^\n]*tracker.db`).MatchString(logs.String()) {
				t.Errorf("%s: the log does not pair %s with the real error:\n%s", what, id[1], logs)
			}
		}
		_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://items/x"})
		if !strings.Contains(RPCError(err), "n: x is not an integer") {
			t.Errorf("a variable's reason: %s", RPCError(err))
		}
	})
}
