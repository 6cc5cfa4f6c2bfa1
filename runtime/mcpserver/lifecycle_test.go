package mcpserver

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

var fullIdentity = mcprt.Identity{
	Name:                    "calc",
	Version:                 "1.2.3",
	Title:                   "Calculator",
	Description:             "Adds numbers",
	Instructions:            "Use add.",
	WebsiteURL:              "https://example.com",
	Icons:                   []mcprt.Icon{{Src: "https://example.com/i.png", MIMEType: "image/png"}},
	EnableLogging:           true,
	EnableCompletions:       true,
	EnableTasks:             true,
	EnableToolNotifications: true,
}

func TestInitializePerRevision(t *testing.T) {
	t.Parallel()
	const info11 = `"serverInfo":{"name":"calc","version":"1.2.3","title":"Calculator","description":"Adds numbers","websiteUrl":"https://example.com","icons":[{"src":"https://example.com/i.png","mimeType":"image/png"}]}`
	tests := []struct {
		requested, want string
	}{
		{"2024-11-05", `{"protocolVersion":"2024-11-05","capabilities":{"logging":{},"tools":{"listChanged":true}},"serverInfo":{"name":"calc","version":"1.2.3"},"instructions":"Use add."}`},
		{"2025-03-26", `{"protocolVersion":"2025-03-26","capabilities":{"logging":{},"completions":{},"tools":{"listChanged":true}},"serverInfo":{"name":"calc","version":"1.2.3"},"instructions":"Use add."}`},
		{"2025-06-18", `{"protocolVersion":"2025-06-18","capabilities":{"logging":{},"completions":{},"tools":{"listChanged":true}},"serverInfo":{"name":"calc","version":"1.2.3","title":"Calculator"},"instructions":"Use add."}`},
		{"2025-11-25", `{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"completions":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}},"tools":{"listChanged":true}},` + info11 + `,"instructions":"Use add."}`},
		// Unknown, and stateless revisions, which initialize does not serve: the latest legacy one.
		{"1999-01-01", `{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"completions":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}},"tools":{"listChanged":true}},` + info11 + `,"instructions":"Use add."}`},
		{"2026-07-28", `{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"completions":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}},"tools":{"listChanged":true}},` + info11 + `,"instructions":"Use add."}`},
	}
	for _, tt := range tests {
		t.Run(tt.requested, func(t *testing.T) {
			c := startStdio(t, New(fullIdentity))
			c.call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+tt.requested+`","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
				`{"jsonrpc":"2.0","id":1,"result":`+tt.want+`}`)
		})
	}
}

func TestCapabilitiesOnlyWhenEnabled(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v", Title: "T"}))
	c.call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"n","version":"v","title":"T"}}}`)
}

func TestLifecycleRules(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, textTool("a", "A")))
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: the session is not initialized; send initialize first"}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":2,"result":{}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"invalid params: protocolVersion is missing"}}`)
	c.initialize(wire.Rev20250618, `{}`)
	c.call(`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"invalid request: the session is already initialized"}}`)
	c.call(`{"jsonrpc":"2.0","id":5,"method":"ping","params":{}}`, `{"jsonrpc":"2.0","id":5,"result":{}}`)
	// Switches the identity leaves off are unknown methods.
	c.call(`{"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":"info"}}`,
		`{"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"method not found: logging/setLevel"}}`)
	c.call(`{"jsonrpc":"2.0","id":7,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"method not found: completion/complete"}}`)
	c.call(`{"jsonrpc":"2.0","id":8,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"method not found: resources/list"}}`)
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableCompletions: true})
	srv.AddPrompts(mcprt.Prompt{Name: "p"})
	c := startStdio(t, srv)
	c.initialize(wire.Rev20250326, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"x"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"completion":{"values":[],"total":0,"hasMore":false}}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: ref and argument are required"}}`)
}

func TestSetLevel(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v", EnableLogging: true}))
	c.initialize(wire.Rev20241105, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"warning"}}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"loud"}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: invalid log level loud"}}`)
}
