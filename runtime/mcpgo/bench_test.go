package mcpgo_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcpgo/internal/pricing"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// referenceRequest is the reference tools/call: bulk_price_update with 10
// changes.
func referenceRequest() []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bulk_price_update","arguments":{"region":"emea","rounding":"nearest_cent","changes":[`)
	for i := range 10 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"product_id":"P-` + strconv.Itoa(i) + `","new_price":19.99,"effective_from":"2026-01-01T00:00:00Z"}`)
	}
	b.WriteString(`]}}}`)
	return []byte(b.String())
}

// benchCall sends req to s through mcp-go's in-process entry point and
// encodes the response, as a transport would.
func benchCall(b *testing.B, s *server.MCPServer, req []byte) {
	ctx := context.Background()
	b.ReportAllocs()
	b.SetBytes(int64(len(req)))
	for b.Loop() {
		out, err := json.Marshal(s.HandleMessage(ctx, req))
		if err != nil || !strings.Contains(string(out), `"text":"10"`) {
			b.Fatalf("response %s, %v", out, err)
		}
	}
}

// BenchmarkCallReference runs the reference call through the adapter:
// mcp-go's dispatch, the generated decoder, the tool, the result mapping
// and the encoding of the response.
func BenchmarkCallReference(b *testing.B) {
	benchCall(b, mcpgo.NewServer(mcprt.Identity{Name: "bench", Version: "1"}, pricing.MCPTools()...), referenceRequest())
}

// BenchmarkCallReferenceBindArguments runs the same call on the same
// mcp-go server with mcp-go's own idiom, for comparison in the same run: a
// handler that binds the arguments with encoding/json (no validation) and
// answers with a text result.
func BenchmarkCallReferenceBindArguments(b *testing.B) {
	s := server.NewMCPServer("bench", "1")
	tool := pricing.MCPTools()[0]
	s.AddTool(mcp.NewToolWithRawSchema(tool.Name, tool.Description, tool.InputSchema), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in pricing.BulkPriceUpdateInput
		if err := req.BindArguments(&in); err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		n, err := pricing.BulkPriceUpdate(ctx, in)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(strconv.Itoa(n)), nil
	})
	benchCall(b, s, referenceRequest())
}
