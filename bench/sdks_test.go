package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	initializeRequest  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1.0.0"}}}`
	initializedNote    = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	listToolsRequest   = `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}`
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

// mcpGoServe answers one message with mcp-go's HandleMessage and encodes
// the answer, as its stdio transport does.
func mcpGoServe(s *mcpgoserver.MCPServer, req []byte) ([]byte, error) {
	resp := s.HandleMessage(context.Background(), json.RawMessage(req))
	if resp == nil {
		return nil, fmt.Errorf("no response")
	}
	return json.Marshal(resp)
}
