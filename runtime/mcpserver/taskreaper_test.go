package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// blockingTask is a task tool whose handler runs until its context ends,
// telling started when it begins.
func blockingTask(started chan<- struct{}) mcprt.Tool {
	tool := handlerTool("slow", func(ctx context.Context, _ []byte) mcprt.Result {
		started <- struct{}{}
		<-ctx.Done()
		return mcprt.ErrorResult(ctx.Err())
	})
	tool.TaskSupport = mcprt.TaskOptional
	return tool
}

// reaperPair returns two replicas sharing tasks, sessions and a bus, the
// first of which runs tasks but renews no lease, as when its process has
// died; the session is initialized (2025-11-25) on the first and its GET
// stream held by the second, whose events are returned. They serve over
// in-memory connections, so that the tests can run in synctest bubbles.
func reaperPair(t *testing.T, lease time.Duration, tools ...mcprt.Tool) (a, b *httpClient, ra, rb *Server, ev <-chan string) {
	t.Helper()
	tasks, sessions, bus := mcpstore.NewMemoryTaskStore(), &mcpstore.MemorySessionStore{}, &mcpstore.MemoryBus{}
	id := mcprt.Identity{Name: "n", Version: "v", EnableTasks: true, EnableToolNotifications: true}
	mk := func(name string, store mcpstore.TaskStore) (*httpClient, *Server) {
		srv := New(id, tools...)
		srv.Tasks, srv.Sessions, srv.Bus, srv.ReplicaID, srv.TaskLease = store, sessions, bus, name, lease
		c := startMemHTTP(t, srv)
		t.Cleanup(func() { srv.Close() })
		return c, srv
	}
	a, ra = mk("r1", deadRenewals{tasks})
	b, rb = mk("r2", tasks)
	a.initialize(wire.Rev20251125, `{}`)
	b.sid = a.sid
	ev = events(t, b.do("GET", "", header("Accept", "text/event-stream")))
	waitGet(t, rb, b.sid)
	return a, b, ra, rb, ev
}

// startSlow calls the slow tool as a task through c and returns the
// task's id once its handler runs.
func startSlow(t *testing.T, c *httpClient, started <-chan struct{}) string {
	t.Helper()
	resp := c.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{}}}`, nil)
	id, status, _ := taskOf(t, readAll(t, resp))
	if status != "working" {
		t.Fatalf("created task is %s", status)
	}
	waitFor(t, started)
	return id
}

// failedStatus checks that the event ev is the notifications/tasks/status
// of task id failed by the reaper.
func failedStatus(t *testing.T, ev, id string) {
	t.Helper()
	var n struct {
		Method string
		Params struct{ TaskID, Status, StatusMessage string }
	}
	if err := json.Unmarshal([]byte(ev), &n); err != nil {
		t.Fatalf("event %s: %v", ev, err)
	}
	if n.Method != "notifications/tasks/status" || n.Params.TaskID != id || n.Params.Status != "failed" ||
		n.Params.StatusMessage != mcpstore.ReapedMessage {
		t.Errorf("event %s, want the status of task %s failed", ev, id)
	}
}

// TestReaperFailsDeadRunnersTask: a task whose runner stopped renewing its
// lease becomes failed (-32603) with nobody asking for it, and the session
// that created it is told so once, on its GET stream held by the other
// replica; tasks/list then shows it failed.
func TestReaperFailsDeadRunnersTask(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		started := make(chan struct{}, 1)
		a, b, _, rb, ev := reaperPair(t, 20*time.Millisecond, blockingTask(started))
		id := startSlow(t, a, started)
		failedStatus(t, nextOf(t, ev), id)
		rb.AddTools(textTool("t", "T")) // after it on the same stream: nothing between
		nextEvent(t, ev, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
		stored, err := rb.Tasks.Get(context.Background(), onlySession(rb).taskOwner, id)
		if err != nil || stored.Status != mcpstore.TaskFailed || !strings.Contains(string(stored.Error), `"code":-32603`) {
			t.Errorf("stored task %+v, %v; want failed with -32603", stored, err)
		}
		for _, c := range []*httpClient{a, b} {
			body := readAll(t, c.do(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tasks/list"}`, nil))
			if !strings.Contains(body, `"taskId":"`+id+`","status":"failed"`) {
				t.Errorf("tasks/list: %s, want the task failed", body)
			}
		}
	})
}

// TestReaperTellsOnce: replicas reaping the same lapsed task at once fail
// it once, and the session is told once.
func TestReaperTellsOnce(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		started := make(chan struct{}, 1)
		// An hour's lease: neither the renewals nor the reapers' own looks
		// come in the test; the clock moves and the test makes them look.
		a, _, ra, rb, ev := reaperPair(t, time.Hour, blockingTask(started))
		var mu sync.Mutex
		now := time.Now()
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		ra.now, rb.now = clock, clock
		id := startSlow(t, a, started)
		mu.Lock()
		now = now.Add(3 * time.Hour)
		mu.Unlock()
		ctx := context.Background()
		lapsed, err := rb.shared().Lapsed(ctx, clock(), 10)
		if err != nil || len(lapsed) != 1 || lapsed[0].ID != id {
			t.Fatalf("Lapsed = %v, %v; want the task", lapsed, err)
		}
		// Both replicas found it lapsed before either failed it.
		var reapers sync.WaitGroup
		for _, srv := range []*Server{ra, rb, ra, rb} {
			reapers.Go(func() {
				if got, err := srv.reap(ctx, srv.shared(), lapsed[0]); err != nil || got.Status != mcpstore.TaskFailed {
					t.Errorf("reap: %+v, %v", got, err)
				}
			})
		}
		reapers.Wait()
		if again, _ := rb.shared().Lapsed(ctx, clock(), 10); len(again) != 0 {
			t.Errorf("Lapsed after the reap = %v, want none", again)
		}
		rb.AddTools(textTool("t", "T"))
		failedStatus(t, nextOf(t, ev), id)
		nextEvent(t, ev, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	})
}

// TestTasksListReapsLapsed: tasks/list shows failed a task whose lease
// lapsed, as tasks/get does, rather than working until its TTL.
func TestTasksListReapsLapsed(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		started := make(chan struct{}, 1)
		srv := taskServer(blockingTask(started))
		srv.TaskLease = time.Hour // no renewal comes in the test
		var mu sync.Mutex
		now := time.Now()
		srv.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		c := startMemHTTP(t, srv)
		c.initialize(wire.Rev20251125, `{}`)
		id := startSlow(t, c, started)
		mu.Lock()
		now = now.Add(3 * time.Hour)
		mu.Unlock()
		body := readAll(t, c.do(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tasks/list"}`, nil))
		if !strings.Contains(body, `"taskId":"`+id+`","status":"failed"`) {
			t.Errorf("tasks/list: %s, want the task failed", body)
		}
	})
}

// TestReaperRunsOnlyForSharedStores: a server keeping its tasks in the
// store it made starts no reaper; one given a shared store starts it on
// its first use and stops it on Close, after which none starts.
func TestReaperRunsOnlyForSharedStores(t *testing.T) {
	t.Parallel()
	running := func(s *Server) bool {
		s.reaperMu.Lock()
		defer s.reaperMu.Unlock()
		return s.reaperStop != nil
	}
	own := taskServer()
	own.taskStore()
	if running(own) {
		t.Error("a reaper runs for the server's own store")
	}
	shared := taskServer()
	shared.Tasks = mcpstore.NewMemoryTaskStore()
	if running(shared) {
		t.Error("a reaper runs before the store is used")
	}
	shared.HTTPHandler()
	if !running(shared) {
		t.Fatal("no reaper once the server serves with a shared store")
	}
	shared.Close()
	shared.taskStore()
	if running(shared) {
		t.Error("a reaper runs after Close")
	}
}
