package gosdk

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// ToolSearch puts s in tool search mode, as the built-in server's
// Server.ToolSearch does: tools/list lists search_tools, call_tool and
// the pinned tools, search_tools ranks the tools the adapter added with
// ts.Index (built from them on the first search when nil), and every tool
// is still called by name. Call it once, before serving. go-sdk checks the
// scopes of call_tool at the endpoint; the scopes of the tool it calls are
// checked in the call, whose refusal is an error result, not a 403.
func ToolSearch(s *mcp.Server, ts mcpserver.ToolSearch) {
	reg := registryOf(s)
	reg.search.Set(ts.Index, ts.Pin)
	for _, t := range reg.search.Tools(revisionOf) {
		d := descriptor(&t)
		reg.lists.add(kindTools, t.Name, d, wire.NewDescriptors(&t, wire.AppendTool, 0))
		s.AddTool(d, withRevision(handler(&t, reg)))
	}
}

// revisionKey holds the revision of a call of the tools of search mode,
// whose answers are descriptors as that revision lists them.
type revisionKey struct{}

func withRevision(h mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return h(context.WithValue(ctx, revisionKey{}, revision(req.ProtocolVersion())), req)
	}
}

func revisionOf(ctx context.Context) wire.Revision {
	if r, ok := ctx.Value(revisionKey{}).(wire.Revision); ok {
		return r
	}
	return wire.LatestRevision
}

// searchPage is the page tools/list answers in search mode: the tools of
// search mode and the pinned ones the adapter added, in one page.
func (l *listings) searchPage(r *mcp.ListToolsResult) *mcp.ListToolsResult {
	out := *r
	out.Tools, out.NextCursor = nil, ""
	l.mu.RLock()
	defer l.mu.RUnlock()
	for _, name := range l.search.Listed() {
		if d, ok := l.byID[kindTools][name]; ok {
			if t, ok := d.sdk.(*mcp.Tool); ok {
				out.Tools = append(out.Tools, t)
			}
		}
	}
	return &out
}
