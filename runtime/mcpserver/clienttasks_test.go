package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// sampleHi samples one short answer and returns its text.
var sampleHi = handlerTool("hi", func(ctx context.Context, args []byte) mcprt.Result {
	r, err := mcprt.Sample(ctx, mcprt.SampleRequest{Messages: []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("Hi")}}, MaxTokens: 5})
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult(r.Content.Text)
})

// serverRequest reads a request the server sent: its id, method and params.
func serverRequest(t *testing.T, line string) (id json.RawMessage, method string, params map[string]json.RawMessage) {
	t.Helper()
	var m struct {
		ID     json.RawMessage            `json:"id"`
		Method string                     `json:"method"`
		Params map[string]json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil || m.ID == nil {
		t.Fatalf("want a request, got %s", line)
	}
	return m.ID, m.Method, m.Params
}

// TestQuestionAsClientTask: on 2025-11-25, to a client that runs sampling
// as tasks and with tasks enabled, the request carries task, the task the
// client answers with is polled with tasks/get while working, and its
// answer is fetched with tasks/result.
func TestQuestionAsClientTask(t *testing.T) {
	t.Parallel()
	srv := New(mcprt.Identity{Name: "n", Version: "v", EnableSampling: true, EnableTasks: true}, sampleHi)
	srv.TaskTTL = 60e9
	c := startStdio(t, srv)
	c.initialize(wire.Rev20251125, `{"sampling":{},"tasks":{"requests":{"sampling":{"createMessage":{}}}}}`)
	c.send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"hi"}}`)
	id, method, params := serverRequest(t, c.recv())
	if method != "sampling/createMessage" || string(params["task"]) != `{"ttl":60000}` {
		t.Fatalf("%s %v, want sampling/createMessage with task", method, params)
	}
	task := `{"taskId":"c1","status":"%s","createdAt":"2026-01-02T15:04:05Z","lastUpdatedAt":"2026-01-02T15:04:05Z","ttl":60000,"pollInterval":1}`
	c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"task":` + strings.Replace(task, "%s", "working", 1) + `}}`)
	for _, status := range []string{"working", "completed"} {
		id, method, params = serverRequest(t, c.recv())
		if method != "tasks/get" || string(params["taskId"]) != `"c1"` {
			t.Fatalf("%s %v, want tasks/get of c1", method, params)
		}
		c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + strings.Replace(task, "%s", status, 1) + `}`)
	}
	id, method, params = serverRequest(t, c.recv())
	if method != "tasks/result" || string(params["taskId"]) != `"c1"` {
		t.Fatalf("%s %v, want tasks/result of c1", method, params)
	}
	c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"role":"assistant","model":"m","content":{"type":"text","text":"Hello"}}}`)
	c.expect(`{"jsonrpc":"2.0","id":"call","result":{"content":[{"type":"text","text":"Hello"}]}}`)

	// A client that answers at once is taken at its word; a failed task
	// fails the question.
	c.send(`{"jsonrpc":"2.0","id":"now","method":"tools/call","params":{"name":"hi"}}`)
	id, _, _ = serverRequest(t, c.recv())
	c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"role":"assistant","model":"m","content":{"type":"text","text":"at once"}}}`)
	c.expect(`{"jsonrpc":"2.0","id":"now","result":{"content":[{"type":"text","text":"at once"}]}}`)
	c.send(`{"jsonrpc":"2.0","id":"fail","method":"tools/call","params":{"name":"hi"}}`)
	id, _, _ = serverRequest(t, c.recv())
	failed := strings.Replace(strings.Replace(task, "%s", "failed", 1), `"ttl"`, `"statusMessage":"model unavailable","ttl"`, 1)
	c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"task":` + failed + `}}`)
	c.expect(`{"jsonrpc":"2.0","id":"fail","result":{"content":[{"type":"text","text":"the client's task for sampling/createMessage failed: model unavailable"}],"isError":true}}`)
}

// TestQuestionNotAsTask: without the identity's tasks, or to a client
// that runs no sampling as tasks, the request carries no task.
func TestQuestionNotAsTask(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tasks bool
		caps  string
	}{
		{false, `{"sampling":{},"tasks":{"requests":{"sampling":{"createMessage":{}}}}}`},
		{true, `{"sampling":{},"tasks":{"requests":{"elicitation":{"create":{}}}}}`},
	} {
		c := startStdio(t, New(mcprt.Identity{Name: "n", Version: "v", EnableSampling: true, EnableTasks: tc.tasks}, sampleHi))
		c.initialize(wire.Rev20251125, tc.caps)
		c.send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"hi"}}`)
		if _, _, params := serverRequest(t, c.recv()); params["task"] != nil {
			t.Errorf("tasks %v, caps %s: the request carries task %s", tc.tasks, tc.caps, params["task"])
		}
	}
}
