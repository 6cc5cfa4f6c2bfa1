package mcpgo

import (
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// AddSkills cannot serve skills on mcp-go, and says so: every server of
// the skills extension must answer skills/list and skills/get, and
// mark3labs/mcp-go v1.2.1 dispatches only the methods it defines.
// MCPServer.HandleMessage (server/request_handler.go) answers any other
// with -32601 from the default case of its switch, and neither a server
// option nor a hook adds a method (hooks may only refuse a request). The
// error wraps [mcprt.ErrNotSupported] and [errors.ErrUnsupported]. Serve skills with the built-in
// server (mcpserver) or on go-sdk (gosdk.AddSkills).
func AddSkills(s *server.MCPServer, skills ...mcprt.Skill) error {
	if len(skills) == 0 {
		return nil
	}
	return fmt.Errorf("mcpgo: AddSkills: %w: mark3labs/mcp-go answers methods it does not define, skills/list and skills/get among them, with -32601 (server/request_handler.go), and takes no handler of its own for them; serve skills with mcpserver or gosdk (%w)", mcprt.ErrNotSupported, errors.ErrUnsupported)
}
