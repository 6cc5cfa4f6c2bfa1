package servers

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/pricing"
)

const bulkDescription = "Applies a price change to a list of products in one region."

// NewGoSDKTyped is the reference tool on go-sdk's typed mcp.AddTool: schema
// inferred from the input type, arguments validated against it and
// unmarshaled by the SDK.
func NewGoSDKTyped() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "bulk_price_update", Description: bulkDescription},
		func(ctx context.Context, req *mcp.CallToolRequest, in pricing.BulkPriceUpdateInput) (*mcp.CallToolResult, any, error) {
			text, err := pricing.Apply(in)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	return s
}

// NewMCPGoUntyped is the reference tool on mcp-go with NewTool options and a
// handler that reads the arguments map without any validation.
func NewMCPGoUntyped() *mcpgoserver.MCPServer {
	s := mcpgoserver.NewMCPServer("bench", "1.0.0", mcpgoserver.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewTool("bulk_price_update",
		mcpgo.WithDescription(bulkDescription),
		mcpgo.WithString("region", mcpgo.Required(), mcpgo.Enum("emea", "amer", "apac")),
		mcpgo.WithString("rounding", mcpgo.Enum("none", "nearest_cent", "nearest_unit")),
		mcpgo.WithArray("changes", mcpgo.Required(), mcpgo.Items(map[string]any{
			"type": "object",
			"properties": map[string]any{
				"product_id":     map[string]any{"type": "string"},
				"new_price":      map[string]any{"type": "number", "minimum": 0},
				"effective_from": map[string]any{"type": "string", "format": "date-time"},
			},
			"required": []string{"product_id", "new_price"},
		})),
	), untypedHandler)
	return s
}

// untypedHandler reads the arguments map of bulk_price_update unchecked.
func untypedHandler(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	args := req.GetArguments()
	region, _ := args["region"].(string)
	rounding, _ := args["rounding"].(string)
	changes, _ := args["changes"].([]any)
	in := pricing.BulkPriceUpdateInput{Region: pricing.Region(region), Rounding: pricing.Rounding(rounding)}
	for _, c := range changes {
		m, _ := c.(map[string]any)
		id, _ := m["product_id"].(string)
		price, _ := m["new_price"].(float64)
		in.Changes = append(in.Changes, pricing.PriceChange{ProductID: id, NewPrice: price})
	}
	text, err := pricing.Apply(in)
	if err != nil {
		return mcpgo.NewToolResultError(err.Error()), nil
	}
	return mcpgo.NewToolResultText(text), nil
}

// NewMCPGoTyped is the reference tool on mcp-go with a schema from the input
// type, input schema validation on, and a typed handler.
func NewMCPGoTyped() *mcpgoserver.MCPServer {
	s := mcpgoserver.NewMCPServer("bench", "1.0.0", mcpgoserver.WithToolCapabilities(false), mcpgoserver.WithInputSchemaValidation())
	s.AddTool(mcpgo.NewTool("bulk_price_update",
		mcpgo.WithDescription(bulkDescription),
		mcpgo.WithInputSchema[pricing.BulkPriceUpdateInput](),
	), mcpgo.NewTypedToolHandler(func(ctx context.Context, req mcpgo.CallToolRequest, in pricing.BulkPriceUpdateInput) (*mcpgo.CallToolResult, error) {
		text, err := pricing.Apply(in)
		if err != nil {
			return mcpgo.NewToolResultError(err.Error()), nil
		}
		return mcpgo.NewToolResultText(text), nil
	}))
	return s
}
