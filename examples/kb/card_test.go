package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// TestServerCard: with -server-card the card is served beside the
// endpoint, naming the endpoint's URL, and the AI Catalog points at it.
func TestServerCard(t *testing.T) {
	t.Parallel()
	srv := mcpserver.New(identity, MCPTools()...)
	routes, err := builtinRoutes(srv, nil)
	if err == nil {
		err = withCard(routes, srv, "127.0.0.1:8080")
	}
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	for p, h := range routes {
		mux.Handle(p, h)
	}
	get := func(path string) (int, map[string]any) {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080"+path, nil))
		var v map[string]any
		json.Unmarshal(rec.Body.Bytes(), &v)
		return rec.Code, v
	}
	code, c := get("/mcp/server-card")
	remotes, _ := c["remotes"].([]any)
	if code != 200 || c["name"] != "io.github.mcpgen/kb" || c["version"] != identity.Version || len(remotes) != 1 ||
		remotes[0].(map[string]any)["url"] != "http://127.0.0.1:8080/mcp" {
		t.Errorf("card: %d %v", code, c)
	}
	code, cat := get("/.well-known/ai-catalog.json")
	entries, _ := cat["entries"].([]any)
	if code != 200 || len(entries) != 1 || entries[0].(map[string]any)["url"] != "http://127.0.0.1:8080/mcp/server-card" ||
		entries[0].(map[string]any)["identifier"] != "urn:air:mcpgen.github.io:mcp:kb" {
		t.Errorf("catalog: %d %v", code, cat)
	}
}
