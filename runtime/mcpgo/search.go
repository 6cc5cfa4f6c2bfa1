package mcpgo

import (
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// ToolSearch puts s, a server [NewServer] made, in tool search mode, as
// the built-in server's Server.ToolSearch does: tools/list lists
// search_tools, call_tool and the pinned tools, search_tools ranks the
// tools the adapter added with ts.Index (built from them on the first
// search when nil), and every tool is still called by name. Call it once,
// before serving. The list is written by the hooks NewServer installs; a
// server the caller made lists every tool. The scopes of the tool
// call_tool calls are checked in the call, whose refusal is an error
// result, not a 403.
func ToolSearch(s *server.MCPServer, ts mcpserver.ToolSearch) {
	reg := registryOf(s)
	reg.search.Set(ts.Index, ts.Pin)
	addTools("ToolSearch", s, reg, reg.search.Tools(revision))
}

// searchPage is the page tools/list answers in search mode: the tools of
// search mode and the pinned ones the adapter added, as registered with
// mcp-go; the hook then swaps in each one's variant for the revision.
func (l *listings) searchPage() []mcp.Tool {
	l.tools.mu.RLock()
	defer l.tools.mu.RUnlock()
	var out []mcp.Tool
	for _, name := range l.search.Listed() {
		if vs, ok := l.tools.byKey[name]; ok {
			out = append(out, vs[registeredRevision.Index()])
		}
	}
	return out
}
