package mcpgo

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestHTTPHandlerRefusesBadAuth returns the error of an Auth that cannot
// work rather than serving.
func TestHTTPHandlerRefusesBadAuth(t *testing.T) {
	t.Parallel()
	f := authtest.NewFixture()
	f.Auth.Resource = "/mcp"
	if _, err := HTTPHandler(NewServer(mcprt.Identity{Name: "n", Version: "v"}), f.Auth); err == nil {
		t.Error("HTTPHandler took an Auth whose resource is not a URL")
	}
}
