package mcpserver

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// capture is a slog.Handler keeping each record as "LEVEL msg k=v ...",
// the attributes in order, durations left out (they vary).
type capture struct {
	mu    sync.Mutex
	level slog.Level
	lines []string
}

func (c *capture) Enabled(_ context.Context, l slog.Level) bool { return l >= c.level }
func (c *capture) WithAttrs([]slog.Attr) slog.Handler           { return c }
func (c *capture) WithGroup(string) slog.Handler                { return c }

func (c *capture) Handle(_ context.Context, r slog.Record) error {
	parts := []string{r.Level.String(), r.Message}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "duration" {
			if a.Value.Kind() != slog.KindDuration {
				parts = append(parts, "duration=not-a-duration")
			}
			return true
		}
		parts = append(parts, a.Key+"="+a.Value.String())
		return true
	})
	c.mu.Lock()
	c.lines = append(c.lines, strings.Join(parts, " "))
	c.mu.Unlock()
	return nil
}

func (c *capture) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.lines
	c.lines = nil
	return l
}

// TestRequestLog checks the line logged per request, with and without
// arguments and notifications, and that nothing is logged below the
// logger's level.
func TestRequestLog(t *testing.T) {
	t.Parallel()
	tools := []mcprt.Tool{textTool("a", "A"), handlerTool("fails", func(ctx context.Context, args []byte) mcprt.Result {
		return mcprt.ErrorResult(context.Canceled)
	})}
	ctx := mcprt.WithToken(context.Background(), mcprt.TokenInfo{Subject: "alice"})
	calls := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"secret":"s3"}}}`,
		`{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"fails"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
	}
	run := func(h *capture, opts *RequestLogOptions) []string {
		srv := New(mcprt.Identity{Name: "t", Version: "1"}, tools...)
		srv.Use(RequestLog(slog.New(h), opts))
		c := initConn(t, srv, ctx)
		for _, call := range calls {
			c.Handle(ctx, []byte(call))
		}
		return h.take()
	}
	common := " revision=2025-06-18 transport=conn principal=alice"
	got := run(&capture{}, nil)
	want := []string{
		"INFO mcp request method=initialize id=0 outcome=ok revision=2025-06-18 transport=conn principal=alice",
		"INFO mcp request method=tools/call target=a id=1 outcome=ok" + common,
		"INFO mcp request method=tools/call target=fails id=\"two\" outcome=tool_error" + common,
		"WARN mcp request method=tools/call target=nope id=3 outcome=error code=-32602 error=invalid params: unknown tool \"nope\"" + common,
		"INFO mcp request method=ping id=4 outcome=ok" + common,
	}
	if !slices.Equal(got, want) {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	got = run(&capture{}, &RequestLogOptions{Arguments: true, Notifications: true})
	if len(got) != 6 || got[1] != "INFO mcp request method=notifications/initialized"+common {
		t.Errorf("notification line missing: %q", got)
	} else if want := "INFO mcp request method=tools/call target=a id=1 outcome=ok" + common + ` arguments={"secret":"s3"}`; got[2] != want {
		t.Errorf("with arguments\n got %s\nwant %s", got[2], want)
	}

	got = run(&capture{level: slog.LevelWarn}, &RequestLogOptions{Level: slog.LevelDebug})
	if len(got) != 1 || !strings.HasPrefix(got[0], "WARN mcp request method=tools/call target=nope") {
		t.Errorf("at level warn: %q", got)
	}
}
