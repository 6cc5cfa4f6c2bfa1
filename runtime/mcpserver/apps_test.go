package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// appServer serves a viewer app: a ui:// page and the tool it shows.
func appServer(id mcprt.Identity) *Server {
	viewer := handlerTool("view", func(ctx context.Context, args []byte) mcprt.Result { return mcprt.TextResult("shown") })
	viewer.UI = &mcprt.ToolUI{ResourceURI: "ui://kb/viewer", Visibility: []string{mcprt.VisibleToModel, mcprt.VisibleToApp}}
	viewer.Meta = []byte(`{"ui":{"resourceUri":"ui://other"},"trace":"t1"}`)
	page := mcprt.Resource{URI: "ui://kb/viewer", Name: "viewer", MIMEType: mcprt.AppMIMEType,
		UI: &mcprt.ResourceUI{ConnectDomains: []string{"https://api.example.com"}, Permissions: []string{"clipboardWrite"}, PrefersBorder: mcprt.Bool(true)},
		Read: func(ctx context.Context, uri string) ([]mcprt.ResourceContents, error) {
			return []mcprt.ResourceContents{{Text: "<!doctype html><p>hi</p>"}}, nil
		}}
	srv := New(id, viewer)
	srv.AddResources(page)
	return srv
}

const (
	viewerToolMeta = `"_meta":{"trace":"t1","ui":{"resourceUri":"ui://kb/viewer","visibility":["model","app"]}}`
	viewerPageUI   = `{"ui":{"csp":{"connectDomains":["https://api.example.com"]},"permissions":{"clipboardWrite":{}},"prefersBorder":true}}`
)

// TestApps: a server with a ui:// resource declares MCP Apps on every
// revision; the tool's _meta.ui names the page and merges with its Meta,
// and the page's _meta.ui is on its descriptor and its contents, from
// 2025-06-18, which has _meta on descriptors.
func TestApps(t *testing.T) {
	t.Parallel()
	srv := appServer(mcprt.Identity{Name: "n", Version: "v"})
	c := startStdio(t, srv)
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if line := c.recv(); !strings.Contains(line, `"extensions":{"io.modelcontextprotocol/ui":{}}`) {
		t.Errorf("initialize: %s, want the MCP Apps extension", line)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"view","inputSchema":{"type":"object"},`+viewerToolMeta+`}]}}`)
	c.call(`{"jsonrpc":"2.0","id":2,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":2,"result":{"resources":[{"uri":"ui://kb/viewer","name":"viewer","mimeType":"text/html;profile=mcp-app","_meta":`+viewerPageUI+`}]}}`)
	c.call(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"ui://kb/viewer"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"ui://kb/viewer","mimeType":"text/html;profile=mcp-app","text":"<!doctype html><p>hi</p>","_meta":`+viewerPageUI+`}]}}`)

	old := startStdio(t, srv)
	old.initialize(wire.Rev20250326, `{}`)
	old.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"view","inputSchema":{"type":"object"}}]}}`)

	tasks := appServer(mcprt.Identity{Name: "n", Version: "v", EnableTasks: true})
	d := startStdio(t, tasks)
	d.send(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + statelessMeta + `}}`)
	if line := d.recv(); !strings.Contains(line, `"extensions":{"io.modelcontextprotocol/tasks":{},"io.modelcontextprotocol/ui":{}}`) {
		t.Errorf("server/discover: %s, want both extensions", line)
	}
}

// TestNoAppsNoExtension: without a ui:// resource nothing is declared.
func TestNoAppsNoExtension(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, textTool("t", "x")))
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if line := c.recv(); strings.Contains(line, "extensions") {
		t.Errorf("initialize: %s, want no extensions", line)
	}
}

// TestPromptMeta: a prompt's Meta is published from 2025-06-18, which has
// _meta on descriptors.
func TestPromptMeta(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v"})
	srv.AddPrompts(mcprt.Prompt{Name: "p", Meta: []byte(`{"traceparent":"00-1"}`), Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
		return mcprt.PromptResult{}, nil
	}})
	for rev, want := range map[wire.Revision]string{wire.Rev20250618: `{"name":"p","_meta":{"traceparent":"00-1"}}`, wire.Rev20250326: `{"name":"p"}`} {
		c := startStdio(t, srv)
		c.initialize(rev, `{}`)
		c.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`, `{"jsonrpc":"2.0","id":1,"result":{"prompts":[`+want+`]}}`)
	}
}
