package servertest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/authtest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// logThenReturn logs its argument n, then returns it.
var logThenReturn = mcprt.Tool{Name: "log_then_return", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, args []byte) mcprt.Result {
	var in struct{ N int }
	_ = json.Unmarshal(args, &in)
	if err := mcprt.Log(ctx, mcprt.LevelInfo, "", in.N); err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult(strconv.Itoa(in.N))
}}

// logCalls is how many calls a test of log order makes: one reordered
// message in 20 would fail it.
const logCalls = 20

// TestLogsBeforeResult: a call's log message reaches the client before
// its result, on every path, over stdio and Streamable HTTP, on a session
// and on 2026-07-28.
func TestLogsBeforeResult(t *testing.T) {
	run(t, func(t *testing.T, m *mode) {
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			t.Run("stdio "+rev, func(t *testing.T) {
				c := m.new(mcprt.Identity{Name: "t", Version: "1", EnableLogging: true}, logThenReturn).raw(t, rev)
				c.LogLevel("info")
				var logged []string
				c.Notify(func(method string, params []byte) {
					if method == "notifications/message" {
						var p struct{ Data json.RawMessage }
						_ = json.Unmarshal(params, &p)
						logged = append(logged, string(p.Data))
					}
				})
				late := 0
				for i := range logCalls {
					c.Call("tools/call", fmt.Sprintf(`{"name":"log_then_return","arguments":{"n":%d}}`, i))
					if !slices.Contains(logged, strconv.Itoa(i)) {
						late++ // read, if ever, with the answer to the next call
					}
				}
				if late > 0 {
					t.Errorf("%d of %d calls were answered before their log message", late, logCalls)
				}
			})
			t.Run("http "+rev, func(t *testing.T) {
				c := authtest.Start(t, m.new(mcprt.Identity{Name: "t", Version: "1", EnableLogging: true}, logThenReturn).httpHandler(t, nil, rev), rev)
				meta := ""
				if c.Stateless() {
					meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"},`
				}
				bad := 0
				for i := range logCalls {
					// A session for each call: mcp-go may lose a message to
					// the forwarder of the session's request before, a race
					// of its own that docs/adapters.md names.
					c.Init("")
					if !c.Stateless() {
						c.Do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}`, "", nil).Body.Close()
					}
					resp := c.Do(http.MethodPost, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s"name":"log_then_return","arguments":{"n":%d}}}`, i+2, meta, i), "", nil)
					if got := messages(resp); len(got) != 2 || !strings.Contains(got[0], `"method":"notifications/message"`) || !strings.Contains(got[0], fmt.Sprintf(`"data":%d`, i)) || !strings.Contains(got[1], `"result"`) {
						bad++
						t.Logf("call %d: %q", i, got)
					}
				}
				if bad > 0 {
					t.Errorf("%d of %d calls were not answered with their log message first", bad, logCalls)
				}
			})
		}
	})
}

// messages returns the JSON-RPC messages of a response: the events of an
// SSE stream, or the one body.
func messages(resp *http.Response) []string {
	defer resp.Body.Close()
	var out []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok || !sse {
			if !sse {
				d = sc.Text()
			}
			if strings.TrimSpace(d) != "" {
				out = append(out, d)
			}
		}
	}
	return out
}
