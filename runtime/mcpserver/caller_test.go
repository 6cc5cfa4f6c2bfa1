package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// blockTool runs until its context ends, reporting the start and the
// cancellation on the channels.
func blockTool(started, cancelled chan<- struct{}) mcprt.Tool {
	return handlerTool("block", func(ctx context.Context, args []byte) mcprt.Result {
		close(started)
		select {
		case <-ctx.Done():
			close(cancelled)
			return mcprt.TextResult("cancelled")
		case <-time.After(timeout):
			return mcprt.TextResult("not cancelled")
		}
	})
}

func TestCancellationReachesHandler(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, blockTool(started, cancelled)))
	c.initialize(wire.Rev20250618, `{}`)
	c.send(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"block"}}`)
	<-started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1","reason":"user"}}`)
	select {
	case <-cancelled:
	case <-time.After(timeout):
		t.Fatal("the handler's context was not cancelled")
	}
	// A cancelled request gets no response.
	c.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if rest := c.rest(); len(rest) != 1 || !strings.Contains(rest[0], `"id":2`) {
		t.Errorf("after cancellation got %q, want only the ping response", rest)
	}
}

func TestProgress(t *testing.T) {
	t.Parallel()
	prog := handlerTool("p", func(ctx context.Context, args []byte) mcprt.Result {
		for _, p := range []float64{0, 50, 100} {
			if err := mcprt.Progress(ctx, p, 100, ""); err != nil {
				return mcprt.ErrorResult(err)
			}
		}
		mcprt.Progress(ctx, 1.5, 0, "unknown total")
		return mcprt.TextResult("done")
	})
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, prog))
	c.initialize(wire.Rev20250618, `{}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p","_meta":{"progressToken":"tok"}}}`)
	for _, p := range []string{"0", "50", "100"} {
		c.expect(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":` + p + `,"total":100}}`)
	}
	c.expect(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":1.5,"message":"unknown total"}}`)
	c.expect(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}`)
	// Without a token: no notifications.
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"p"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}]}}`)
}

// logTool logs one message at every level.
var logTool = handlerTool("log", func(ctx context.Context, args []byte) mcprt.Result {
	for _, l := range []mcprt.LogLevel{mcprt.LevelDebug, mcprt.LevelInfo, mcprt.LevelWarning, mcprt.LevelError} {
		if err := mcprt.Log(ctx, l, "t", map[string]string{"at": string(l)}); err != nil {
			return mcprt.ErrorResult(err)
		}
	}
	return mcprt.TextResult("logged")
})

func TestLogLevelFiltering(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v", EnableLogging: true}, logTool))
	c.initialize(wire.Rev20250326, `{}`)
	done := `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"logged"}]}}`
	// No level set yet: nothing is sent.
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"log"}}`, fmt.Sprintf(done, 1))
	c.call(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"warning"}}`, `{"jsonrpc":"2.0","id":2,"result":{}}`)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"log"}}`)
	c.expect(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"t","data":{"at":"warning"}}}`)
	c.expect(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"t","data":{"at":"error"}}}`)
	c.expect(fmt.Sprintf(done, 3))
}

func TestLogWithoutLoggingEnabled(t *testing.T) {
	t.Parallel()
	c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v"}, logTool))
	c.initialize(wire.Rev20250326, `{}`)
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"log"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"logged"}]}}`)
}

var elicitTool = handlerTool("ask", func(ctx context.Context, args []byte) mcprt.Result {
	r, err := mcprt.Elicit(ctx, "Your name?", []byte(`{"type":"object","properties":{"name":{"type":"string"}}}`))
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult(r.Action + " " + string(r.Content))
})

var sampleTool = handlerTool("sample", func(ctx context.Context, args []byte) mcprt.Result {
	r, err := mcprt.Sample(ctx, mcprt.SampleRequest{
		Messages:     []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("Hi")}},
		MaxTokens:    10,
		SystemPrompt: "Be brief.",
	})
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult(r.Role + "|" + r.Content.Text + "|" + r.Model + "|" + r.StopReason)
})

func TestElicitationRoundTrip(t *testing.T) {
	t.Parallel()
	id := mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}
	c := startStdio(t, New(id, elicitTool))
	c.initialize(wire.Rev20250618, `{"elicitation":{}}`)
	c.send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"ask"}}`)
	c.expect(`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	c.expect(`{"jsonrpc":"2.0","id":"call","result":{"content":[{"type":"text","text":"accept {\"name\":\"Ada\"}"}]}}`)
	// An error answer reaches the handler as an error.
	c.send(`{"jsonrpc":"2.0","id":"call2","method":"tools/call","params":{"name":"ask"}}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"user closed the dialog"}}`)
	c.expect(`{"jsonrpc":"2.0","id":"call2","result":{"content":[{"type":"text","text":"the client answered elicitation/create with error -1: user closed the dialog"}],"isError":true}}`)
}

func TestElicitationRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		enabled bool
		rev     wire.Revision
		caps    string
		err     string
	}{
		{"not enabled", false, wire.Rev20250618, `{"elicitation":{}}`, "elicitation is not enabled in the server's identity"},
		{"not declared", true, wire.Rev20250618, `{}`, "the client did not declare the elicitation capability"},
		{"old revision", true, wire.Rev20250326, `{"elicitation":{}}`, "elicitation needs protocol revision 2025-06-18 or later; the session uses 2025-03-26"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v", EnableElicitation: tt.enabled}, elicitTool))
			c.initialize(tt.rev, tt.caps)
			c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}}`,
				`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`+tt.err+`"}],"isError":true}}`)
		})
	}
}

func TestElicitationCancelled(t *testing.T) {
	t.Parallel()
	id := mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}
	c := startStdio(t, New(id, elicitTool))
	c.initialize(wire.Rev20251125, `{"elicitation":{"form":{}}}`)
	c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ask"}}`)
	c.recv() // elicitation/create
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	// The server withdraws its own request; the cancelled call is not answered.
	c.expect(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"the server no longer needs the answer"}}`)
	c.call(`{"jsonrpc":"2.0","id":8,"method":"ping"}`, `{"jsonrpc":"2.0","id":8,"result":{}}`)
}

func TestSamplingRoundTrip(t *testing.T) {
	t.Parallel()
	id := mcprt.Identity{Name: "n", Version: "v", EnableSampling: true}
	c := startStdio(t, New(id, sampleTool))
	c.initialize(wire.Rev20241105, `{"sampling":{}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sample"}}`)
	c.expect(`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10,"systemPrompt":"Be brief."}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"Hello"},"model":"m1","stopReason":"endTurn"}}`)
	c.expect(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"assistant|Hello|m1|endTurn"}]}}`)
	// Without the capability declared: an error result.
	c2 := startStdio(t, New(id, sampleTool))
	c2.initialize(wire.Rev20241105, `{}`)
	c2.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sample"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"the client did not declare the sampling capability"}],"isError":true}}`)
}

// TestRoundTripEndsWithInput checks that a handler waiting for the client
// is released when the input ends, and the server returns.
func TestRoundTripEndsWithInput(t *testing.T) {
	t.Parallel()
	id := mcprt.Identity{Name: "n", Version: "v", EnableSampling: true}
	c := startStdio(t, New(id, sampleTool))
	c.initialize(wire.Rev20250618, `{"sampling":{}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sample"}}`)
	c.recv()
	rest := c.rest()
	if len(rest) != 1 || !strings.Contains(rest[0], "connection is closed") {
		t.Errorf("after end of input got %q", rest)
	}
	if err := c.close(); err != nil {
		t.Errorf("ServeStream = %v, want nil", err)
	}
}
