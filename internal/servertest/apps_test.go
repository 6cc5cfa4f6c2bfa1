package servertest_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// viewerApp is a viewer app: a ui:// page and the tool it shows.
func viewerApp() (mcprt.Tool, mcprt.Resource) {
	tool := mcprt.Tool{Name: "view", InputSchema: []byte(`{"type":"object"}`), Meta: []byte(`{"trace":"t1"}`),
		UI:      &mcprt.ToolUI{ResourceURI: "ui://kb/viewer", Visibility: []string{mcprt.VisibleToApp}},
		Handler: func(context.Context, []byte) mcprt.Result { return mcprt.TextResult("shown") }}
	page := mcprt.Resource{URI: "ui://kb/viewer", Name: "viewer", MIMEType: mcprt.AppMIMEType,
		UI: &mcprt.ResourceUI{ResourceDomains: []string{"https://cdn.example.com"}, PrefersBorder: new(false)},
		Read: func(context.Context, string) ([]mcprt.ResourceContents, error) {
			return []mcprt.ResourceContents{{Text: "<!doctype html>"}}, nil
		}}
	return tool, page
}

// TestApps: a server with a ui:// resource declares MCP Apps, the tool's
// _meta.ui names the page beside its own Meta, a prompt's Meta is its
// _meta, and the page's _meta.ui is on its descriptor and its contents.
func TestApps(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		tool, page := viewerApp()
		s := m.new(mcprt.Identity{Name: "t", Version: "1"}, tool)
		s.addResources(page)
		s.addPrompts(mcprt.Prompt{Name: "p", Meta: []byte(`{"traceparent":"00-1"}`), Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) {
			return mcprt.PromptResult{}, nil
		}})
		cs := s.connect(t, "2025-11-25", nil)
		if _, ok := cs.InitializeResult().Capabilities.Extensions[mcprt.AppsExtension]; !ok {
			t.Errorf("capabilities %+v, want the MCP Apps extension", cs.InitializeResult().Capabilities)
		}
		ctx := context.Background()
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		servertest.SameJSON(t, "the tool's _meta", servertest.MustJSON(tools.Tools[0].Meta), `{"trace":"t1","ui":{"resourceUri":"ui://kb/viewer","visibility":["app"]}}`)
		prompts, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		servertest.SameJSON(t, "the prompt's _meta", servertest.MustJSON(prompts.Prompts[0].Meta), `{"traceparent":"00-1"}`)
		const ui = `{"ui":{"csp":{"resourceDomains":["https://cdn.example.com"]},"prefersBorder":false}}`
		resources, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := resources.Resources[0]; r.MIMEType != mcprt.AppMIMEType {
			t.Errorf("resource %+v, want the app's MIME type", r)
		}
		servertest.SameJSON(t, "the page's _meta", servertest.MustJSON(resources.Resources[0].Meta), ui)
		read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://kb/viewer"})
		if err != nil {
			t.Fatal(err)
		}
		if c := read.Contents[0]; c.MIMEType != mcprt.AppMIMEType || c.Text != "<!doctype html>" {
			t.Errorf("contents %+v", c)
		}
		servertest.SameJSON(t, "the contents' _meta", servertest.MustJSON(read.Contents[0].Meta), ui)
	})
}
