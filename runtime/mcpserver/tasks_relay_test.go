package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// eventWith returns the next event of ev containing s, skipping others.
func eventWith(t *testing.T, ev <-chan string, s string) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case got, ok := <-ev:
			if !ok {
				t.Fatalf("stream ended before an event with %s", s)
			}
			if strings.Contains(got, s) {
				return got
			}
		case <-deadline:
			t.Fatalf("no event with %s", s)
		}
	}
}

// TestReplicaTaskResultCarriesQuestions: a 2025-11-25 tasks/result served
// by the replica that does not run the task carries the question its
// handler asks, whether the handler asks before the tasks/result comes or
// while it waits, and the answer reaches the handler.
func TestReplicaTaskResultCarriesQuestions(t *testing.T) {
	t.Parallel()
	for _, late := range []bool{false, true} {
		name := map[bool]string{false: "asked while it waits", true: "asked before it came"}[late]
		// The handler asks once go is closed: at once when late, else
		// once the tasks/result waits on the other replica.
		t.Run(name, func(t *testing.T) {
			asked, ask := make(chan struct{}, 1), make(chan struct{})
			if late {
				close(ask)
			}
			tool := handlerTool("name", func(ctx context.Context, args []byte) mcprt.Result {
				select {
				case <-ask:
				case <-ctx.Done():
					return mcprt.ErrorResult(ctx.Err())
				}
				asked <- struct{}{}
				return nameTool.Handler(ctx, args)
			})
			tool.TaskSupport = mcprt.TaskOptional
			tasks, sessions, bus := mcpstore.NewMemoryTaskStore(), &mcpstore.MemorySessionStore{}, &mcpstore.MemoryBus{}
			var servers []*Server
			mk := func(name string) *httpClient {
				srv := New(mcprt.Identity{Name: "n", Version: "v", EnableTasks: true, EnableElicitation: true}, tool)
				srv.Tasks, srv.Sessions, srv.Bus, srv.ReplicaID = tasks, sessions, bus, name
				t.Cleanup(func() { srv.Close() })
				servers = append(servers, srv)
				return startHTTP(t, srv)
			}
			a, b := mk("r1"), mk("r2")
			a.initialize(wire.Rev20251125, `{"elicitation":{}}`)
			b.sid = a.sid
			resp := a.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"name","task":{}}}`, nil)
			id, _, _ := taskOf(t, readAll(t, resp))
			if late {
				waitFor(t, asked)
				for n := 0; ; n++ {
					_, status, _ := taskOf(t, readAll(t, b.do(http.MethodPost, `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"`+id+`"}}`, nil)))
					if status == "input_required" {
						break
					}
					if n > 1000 {
						t.Fatalf("task %s is %s, want input_required", id, status)
					}
					time.Sleep(time.Millisecond)
				}
			}
			// The answer's headers come with its first message: the
			// question, which the handler asks only once it waits.
			// Cancelled before the servers close, so that a failing test
			// does not wait for its tasks/result, which a dropped stream
			// does not end.
			t.Cleanup(func() {
				readAll(t, a.do(http.MethodPost, `{"jsonrpc":"2.0","id":4,"method":"tasks/cancel","params":{"taskId":"`+id+`"}}`, nil))
			})
			answer := make(chan *http.Response, 1)
			go func() {
				answer <- b.do(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"`+id+`"}}`, nil)
			}()
			if !late {
				waitRelay(t, servers[1], id)
				close(ask)
			}
			var stream <-chan string
			select {
			case resp := <-answer:
				stream = events(t, resp)
			case <-time.After(timeout):
				t.Fatal("tasks/result sent nothing")
			}
			req := eventWith(t, stream, "elicitation/create")
			var r struct{ ID json.RawMessage }
			if err := json.Unmarshal([]byte(req), &r); err != nil || !strings.Contains(req, id) {
				t.Fatalf("question on the tasks/result stream: %q", req)
			}
			b.post(`{"jsonrpc":"2.0","id":`+string(r.ID)+`,"result":{"action":"accept","content":{"name":"Ada"}}}`, http.StatusAccepted, "", nil)
			sameJSON(t, eventWith(t, stream, `"id":2`), `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"accept: hello Ada"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}}}}`)
		})
	}
}

// waitRelay waits until a tasks/result for task id waits on srv.
func waitRelay(t *testing.T, srv *Server, id string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		srv.relayMu.Lock()
		n := len(srv.relays[id])
		srv.relayMu.Unlock()
		if n > 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("no tasks/result waits")
}

// TestReplicaRunnerStatusReachesStream: the status changes of a task
// reach its session's GET stream held by a replica that does not run it.
func TestReplicaRunnerStatusReachesStream(t *testing.T) {
	t.Parallel()
	g := newGate()
	tasks, sessions, bus := mcpstore.NewMemoryTaskStore(), &mcpstore.MemorySessionStore{}, &mcpstore.MemoryBus{}
	var servers []*Server
	mk := func(name string) *httpClient {
		srv := taskServer(g.tool("work", mcprt.TaskOptional))
		srv.Tasks, srv.Sessions, srv.Bus, srv.ReplicaID = tasks, sessions, bus, name
		t.Cleanup(func() { srv.Close() })
		servers = append(servers, srv)
		return startHTTP(t, srv)
	}
	a, b := mk("r1"), mk("r2")
	a.initialize(wire.Rev20251125, `{}`)
	b.sid = a.sid
	ev := events(t, b.do("GET", "", header("Accept", "text/event-stream")))
	waitGet(t, servers[1], b.sid)
	resp := a.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","task":{}}}`, nil)
	id, _, _ := taskOf(t, readAll(t, resp))
	waitFor(t, g.started)
	note := eventWith(t, ev, "notifications/tasks/status")
	if !strings.Contains(note, `"taskId":"`+id+`","status":"working","statusMessage":"half way"`) {
		t.Errorf("first status %s, want working, half way", note)
	}
	close(g.release)
	note = eventWith(t, ev, "notifications/tasks/status")
	if !strings.Contains(note, `"taskId":"`+id+`","status":"completed"`) {
		t.Errorf("second status %s, want completed", note)
	}
}
