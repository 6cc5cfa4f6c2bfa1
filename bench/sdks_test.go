package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/pricing"
)

const (
	initializeRequest  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1.0.0"}}}`
	initializedNote    = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	listToolsRequest   = `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}`
	bulkDescription    = "Applies a price change to a list of products in one region."
	errNoResponseLimit = 5 * time.Second
)

// byteTransport is a go-sdk transport carrying JSON-RPC as bytes: what a
// client writes is decoded with the SDK's own jsonrpc.DecodeMessage and
// what the server writes is encoded with jsonrpc.EncodeMessage, so a
// request goes from bytes to bytes through the SDK's whole stack without a
// socket.
type byteTransport struct {
	in     chan []byte
	out    chan []byte
	closed chan struct{}
}

func newByteTransport() *byteTransport {
	return &byteTransport{in: make(chan []byte), out: make(chan []byte, 16), closed: make(chan struct{})}
}

func (t *byteTransport) Connect(context.Context) (mcp.Connection, error) { return t, nil }

func (t *byteTransport) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case b := <-t.in:
		return jsonrpc.DecodeMessage(b)
	case <-t.closed:
		return nil, errors.New("closed")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (t *byteTransport) Write(ctx context.Context, m jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return err
	}
	select {
	case t.out <- b:
		return nil
	case <-t.closed:
		return errors.New("closed")
	}
}

func (t *byteTransport) Close() error {
	select {
	case <-t.closed:
	default:
		close(t.closed)
	}
	return nil
}

func (t *byteTransport) SessionID() string { return "" }

// roundTrip sends req and returns the server's next message.
func (t *byteTransport) roundTrip(req []byte) ([]byte, error) {
	t.in <- req
	select {
	case b := <-t.out:
		return b, nil
	case <-time.After(errNoResponseLimit):
		return nil, errors.New("no response")
	}
}

// connectGoSDK connects srv to a byte transport and initializes the session.
func connectGoSDK(srv *mcp.Server) (*byteTransport, func(), error) {
	t := newByteTransport()
	ss, err := srv.Connect(context.Background(), t, nil)
	if err != nil {
		return nil, nil, err
	}
	if _, err := t.roundTrip([]byte(initializeRequest)); err != nil {
		return nil, nil, err
	}
	t.in <- []byte(initializedNote)
	return t, func() { ss.Close(); t.Close() }, nil
}

// goSDKTyped is the reference tool on go-sdk's typed mcp.AddTool: schema
// inferred from the input type, arguments validated against it and
// unmarshaled by the SDK.
func goSDKTyped() *mcp.Server {
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

// mcpGoUntyped is the reference tool on mcp-go with NewTool options and a
// handler that reads the arguments map without any validation.
func mcpGoUntyped() *mcpgoserver.MCPServer {
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
	), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
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
	})
	return s
}

// mcpGoTyped is the reference tool on mcp-go with a schema from the input
// type, input schema validation on, and a typed handler.
func mcpGoTyped() *mcpgoserver.MCPServer {
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

// mcpGoServe answers one message with mcp-go's HandleMessage and encodes
// the answer, as its stdio transport does.
func mcpGoServe(s *mcpgoserver.MCPServer, req []byte) ([]byte, error) {
	resp := s.HandleMessage(context.Background(), json.RawMessage(req))
	if resp == nil {
		return nil, fmt.Errorf("no response")
	}
	return json.Marshal(resp)
}
