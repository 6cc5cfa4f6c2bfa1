package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// completionServer has a prompt and a template whose completers show
// what they were asked, one of each without a completer, and completers
// that fail, panic and suggest too much.
func completionServer() *Server {
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableCompletions: true})
	show := func(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
		var ctxArgs []string
		for k, v := range args {
			ctxArgs = append(ctxArgs, k+"="+v)
		}
		sort.Strings(ctxArgs)
		return []string{argument, value, strings.Join(ctxArgs, "&")}, nil
	}
	many := func(n int) mcprt.Completer {
		return func(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
			values := make([]string, n)
			for i := range values {
				values[i] = fmt.Sprint(i)
			}
			return values, nil
		}
	}
	srv.AddPrompts(
		mcprt.Prompt{Name: "show", Description: "Shows.", Complete: show},
		mcprt.Prompt{Name: "plain", Description: "No completer."},
		mcprt.Prompt{Name: "nothing", Description: "Completes nothing.",
			Complete: func(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
				return nil, nil
			}},
		mcprt.Prompt{Name: "many", Description: "150 values.", Complete: many(150)},
		mcprt.Prompt{Name: "hundred", Description: "100 values.", Complete: many(100)},
		mcprt.Prompt{Name: "failing", Description: "Fails.",
			Complete: func(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
				return nil, errors.New("index unavailable")
			}},
		mcprt.Prompt{Name: "boom", Description: "Panics.",
			Complete: func(ctx context.Context, argument, value string, args map[string]string) ([]string, error) {
				panic("kaputt")
			}},
	)
	srv.AddResources(
		mcprt.Resource{URI: "kb://articles/{id}", Name: "article", Complete: show},
		mcprt.Resource{URI: "kb://index", Name: "index"},
	)
	return srv
}

func TestCompletions(t *testing.T) {
	t.Parallel()
	srv := completionServer()
	logs := captureLog(srv)
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250618, `{}`)
	hundred := make([]string, 100)
	for i := range hundred {
		hundred[i] = fmt.Sprintf(`"%d"`, i)
	}
	values100 := strings.Join(hundred, ",")
	tests := []struct{ name, params, answer string }{
		{"prompt", `{"ref":{"type":"ref/prompt","name":"show"},"argument":{"name":"lang","value":"g"}}`,
			`"result":{"completion":{"values":["lang","g",""],"total":3,"hasMore":false}}`},
		{"with context", `{"ref":{"type":"ref/prompt","name":"show"},"argument":{"name":"lang","value":"g"},"context":{"arguments":{"b":"2","a":"1"}}}`,
			`"result":{"completion":{"values":["lang","g","a=1&b=2"],"total":3,"hasMore":false}}`},
		{"template", `{"ref":{"type":"ref/resource","uri":"kb://articles/{id}"},"argument":{"name":"id","value":"4"}}`,
			`"result":{"completion":{"values":["id","4",""],"total":3,"hasMore":false}}`},
		{"no completer", `{"ref":{"type":"ref/prompt","name":"plain"},"argument":{"name":"x","value":""}}`,
			`"result":{"completion":{"values":[],"total":0,"hasMore":false}}`},
		{"nothing to suggest", `{"ref":{"type":"ref/prompt","name":"nothing"},"argument":{"name":"x","value":""}}`,
			`"result":{"completion":{"values":[],"total":0,"hasMore":false}}`},
		{"static resource", `{"ref":{"type":"ref/resource","uri":"kb://index"},"argument":{"name":"x","value":""}}`,
			`"result":{"completion":{"values":[],"total":0,"hasMore":false}}`},
		{"truncated to 100", `{"ref":{"type":"ref/prompt","name":"many"},"argument":{"name":"x","value":""}}`,
			`"result":{"completion":{"values":[` + values100 + `],"total":150,"hasMore":true}}`},
		{"exactly 100", `{"ref":{"type":"ref/prompt","name":"hundred"},"argument":{"name":"x","value":""}}`,
			`"result":{"completion":{"values":[` + values100 + `],"total":100,"hasMore":false}}`},
		{"unknown prompt", `{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"x","value":""}}`,
			`"error":{"code":-32602,"message":"invalid params: unknown prompt \"nope\""}`},
		{"unknown resource", `{"ref":{"type":"ref/resource","uri":"kb://articles/1"},"argument":{"name":"id","value":""}}`,
			`"error":{"code":-32602,"message":"invalid params: unknown resource \"kb://articles/1\""}`},
		{"unknown ref type", `{"ref":{"type":"ref/tool","name":"t"},"argument":{"name":"x","value":""}}`,
			`"error":{"code":-32602,"message":"invalid params: unknown ref type \"ref/tool\"; want ref/prompt or ref/resource"}`},
		{"no argument name", `{"ref":{"type":"ref/prompt","name":"show"},"argument":{"value":""}}`,
			`"error":{"code":-32602,"message":"invalid params: argument name is missing"}`},
		{"completer error", `{"ref":{"type":"ref/prompt","name":"failing"},"argument":{"name":"x","value":""}}`,
			`"error":{"code":-32603,"message":"index unavailable"}`},
		{"panic", `{"ref":{"type":"ref/prompt","name":"boom"},"argument":{"name":"x","value":""}}`,
			`"error":{"code":-32603,"message":"internal error: prompt completion \"boom\" panicked: kaputt"}`},
		{"still serving after a panic", `{"ref":{"type":"ref/prompt","name":"plain"},"argument":{"name":"x","value":""}}`,
			`"result":{"completion":{"values":[],"total":0,"hasMore":false}}`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"completion/complete","params":%s}`, i, tt.params),
				fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, i, tt.answer))
		})
	}
	if l := logs.String(); !strings.Contains(l, "panicked") || !strings.Contains(l, "kaputt") {
		t.Errorf("the panic is not logged by the server's logger: %q", l)
	}
	// 2026-07-28 adds resultType.
	c.call(`{"jsonrpc":"2.0","id":100,"method":"completion/complete","params":{`+statelessMeta+`,"ref":{"type":"ref/resource","uri":"kb://articles/{id}"},"argument":{"name":"id","value":"4"}}}`,
		`{"jsonrpc":"2.0","id":100,"result":{"resultType":"complete","completion":{"values":["id","4",""],"total":3,"hasMore":false}}}`)
}

func TestCompletionsNeedTheSwitch(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	srv.AddPrompts(mcprt.Prompt{Name: "p", Description: "P."})
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"x","value":""}}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: completion/complete"}}`)
}
