package mcptest

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// Groups makes the server serve groups (mcpserver's Server.Groups):
// groups/list lists these, and tools, prompts and resources carry their
// groups. A generated package's MCPGroups returns its groups.
func Groups(groups ...mcprt.Group) Option {
	return func(c *config) { c.groups = append(c.groups, groups...) }
}

// ToolSearch runs the server in tool search mode (mcpserver's
// Server.ToolSearch): tools/list lists search_tools, call_tool and the
// pinned tools.
func ToolSearch(ts mcpserver.ToolSearch) Option {
	return func(c *config) { c.search = &ts }
}

// SearchTools calls search_tools with query and limit (0 leaves it out)
// and returns the tools found, best first, as their descriptors say. A
// failed search fails the test.
func (c *Client) SearchTools(query string, limit int) []Tool {
	c.t.Helper()
	args := map[string]any{"query": query}
	if limit != 0 {
		args["limit"] = limit
	}
	res := c.CallTool("search_tools", args)
	if res.IsError {
		c.t.Fatalf("mcptest: search_tools %q failed: %s", query, res.Text())
	}
	var found struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal([]byte(res.Text()), &found); err != nil {
		c.t.Fatalf("mcptest: search_tools %q: malformed result %s: %v", query, res.Text(), err)
	}
	tools := make([]Tool, 0, len(found.Tools))
	for _, raw := range found.Tools {
		tools = append(tools, c.parseTool("search_tools", raw))
	}
	return tools
}

// ListGroups lists the groups the server serves, every page of them.
func (c *Client) ListGroups() []mcprt.Group {
	c.t.Helper()
	var groups []mcprt.Group
	for _, raw := range c.list("groups/list", "groups") {
		var g struct {
			Name        string                     `json:"name"`
			Title       string                     `json:"title"`
			Description string                     `json:"description"`
			Icons       []icon                     `json:"icons"`
			Meta        map[string]json.RawMessage `json:"_meta"`
		}
		if err := json.Unmarshal(raw, &g); err != nil {
			c.t.Fatalf("mcptest: groups/list: malformed group %s: %v", raw, err)
		}
		out := mcprt.Group{Name: g.Name, Title: g.Title, Description: g.Description, Icons: icons(g.Icons)}
		if m, ok := g.Meta[mcprt.GroupsMetaKey]; ok && json.Unmarshal(m, &out.Groups) != nil {
			c.t.Fatalf("mcptest: groups/list: malformed groups of group %s: %s", g.Name, m)
		}
		groups = append(groups, out)
	}
	return groups
}
