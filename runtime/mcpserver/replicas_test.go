package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// replicas returns two servers of tools standing for two replicas: one
// MemoryTaskStore, the bus when withBus, and a lease of 20 ms, or of an
// hour with the bus, so that what crosses replicas can only come by it.
// They close when the test ends, which stops their reapers.
func replicas(t *testing.T, withBus bool, tools ...mcprt.Tool) (r1, r2 *Server) {
	store := mcpstore.NewMemoryTaskStore()
	var bus mcpstore.Bus
	if withBus {
		bus = &mcpstore.MemoryBus{}
	}
	mk := func(name string) *Server {
		s := taskServer(tools...)
		s.Tasks, s.Bus, s.ReplicaID = store, bus, name
		s.TaskLease, s.TaskGrace, s.TaskPollInterval = 20*time.Millisecond, time.Millisecond, 10*time.Millisecond
		if withBus {
			s.TaskLease = time.Hour
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	return mk("r1"), mk("r2")
}

// busModes runs f with and without a bus: with one, what crosses replicas
// arrives at once; without, within a lease. Each runs in parallel, in a
// synctest bubble, whose clock makes the leases pass at once.
func busModes(t *testing.T, f func(t *testing.T, withBus bool)) {
	for _, mode := range []struct {
		name    string
		withBus bool
	}{{"bus", true}, {"lease", false}} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) { f(t, mode.withBus) })
		})
	}
}

// getUntil polls tasks/get of task id through c until its status is
// want, and returns the task.
func getUntil(t *testing.T, c *stdioClient, id, want string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for n := 100; ; n++ {
		c.send(`{"jsonrpc":"2.0","id":` + itoa(n) + `,"method":"tasks/get","params":{` + extMeta + `,"taskId":"` + id + `"}}`)
		resp, _ := c.response(itoa(n))
		_, status, raw := taskOf(t, resp)
		if status == want {
			return raw
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s is %s, want %s", id, status, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestReplicaUpdateReachesRunner: a tasks/update served by the replica
// that does not run the task reaches the handler, which completes with
// the answer.
func TestReplicaUpdateReachesRunner(t *testing.T) {
	t.Parallel()
	busModes(t, func(t *testing.T, withBus bool) {
		asker := nameTool
		asker.Name, asker.TaskSupport = "asker", mcprt.TaskRequired
		asker.Handler = func(ctx context.Context, args []byte) mcprt.Result {
			time.Sleep(20 * time.Millisecond) // past the grace: it asks as a task
			return nameTool.Handler(ctx, args)
		}
		r1, r2 := replicas(t, withBus, asker)
		c1, c2 := startStdio(t, r1), startStdio(t, r2)
		c1.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + extMeta + `,"name":"asker"}}`)
		resp, _ := c1.response("1")
		id, _, _ := taskOf(t, resp)
		getUntil(t, c2, id, "input_required")
		c2.call(`{"jsonrpc":"2.0","id":2,"method":"tasks/update","params":{`+extMeta+`,"taskId":"`+id+`","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}}}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete"}}`)
		raw := getUntil(t, c2, id, "completed")
		if b, _ := json.Marshal(raw["result"]); string(b) != `{"content":[{"text":"accept: hello Ada","type":"text"}],"resultType":"complete"}` {
			t.Errorf("result %s", b)
		}
	})
}

// TestReplicaCancelReachesRunner: a tasks/cancel served by the replica
// that does not run the task cancels the handler's context.
func TestReplicaCancelReachesRunner(t *testing.T) {
	t.Parallel()
	busModes(t, func(t *testing.T, withBus bool) {
		g := newGate()
		r1, r2 := replicas(t, withBus, g.tool("slow", mcprt.TaskRequired))
		c1, c2 := startStdio(t, r1), startStdio(t, r2)
		c1.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + extMeta + `,"name":"slow"}}`)
		resp, _ := c1.response("1")
		id, _, _ := taskOf(t, resp)
		waitFor(t, g.started)
		c2.call(`{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{`+extMeta+`,"taskId":"`+id+`"}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete"}}`)
		select {
		case err := <-g.ended:
			if err == nil {
				t.Error("the handler ended without being cancelled")
			}
		case <-time.After(timeout):
			t.Fatal("the handler was not cancelled")
		}
		getUntil(t, c1, id, "cancelled")
	})
}

// TestReplicaTaskResultWaits: a 2025-11-25 tasks/result served by the
// replica that does not run the task waits for its end and answers the
// call's exact result. (The two sessions share the task owner, as one
// session served by both replicas does.)
func TestReplicaTaskResultWaits(t *testing.T) {
	t.Parallel()
	busModes(t, func(t *testing.T, withBus bool) {
		g := newGate()
		r1, r2 := replicas(t, withBus, g.tool("work", mcprt.TaskOptional))
		c1, c2 := startStdio(t, r1), startStdio(t, r2)
		c1.initialize(wire.Rev20251125, `{}`)
		c2.initialize(wire.Rev20251125, `{}`)
		onlySession(r2).taskOwner = onlySession(r1).taskOwner
		c1.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","task":{}}}`)
		resp, _ := c1.response("1")
		id, _, _ := taskOf(t, resp)
		waitFor(t, g.started)
		c2.send(`{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"` + id + `"}}`)
		time.Sleep(30 * time.Millisecond) // longer than a lease: tasks/result must still wait
		close(g.release)
		got, _ := c2.response("2")
		sameJSON(t, got, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}}}}`)
	})
}

// onlySession returns the one live session of srv.
func onlySession(srv *Server) *session {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for sess := range srv.sessions {
		return sess
	}
	panic("no session")
}

// deadRenewals is a task store whose Renew does nothing, as when the
// replica renewing has died.
type deadRenewals struct{ *mcpstore.MemoryTaskStore }

func (deadRenewals) Renew(context.Context, string, string, time.Time) error { return nil }

// TestReplicaDeathFailsTask: a task whose runner stops renewing its lease
// is still working one lease later, and failed (-32603) on any replica
// three leases after its last renewal; it never stays working.
func TestReplicaDeathFailsTask(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		r1, r2 := replicas(t, false, g.tool("slow", mcprt.TaskRequired))
		store := deadRenewals{r1.Tasks.(*mcpstore.MemoryTaskStore)}
		r1.Tasks, r2.Tasks = store, store
		var mu sync.Mutex
		now := time.Now()
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		r1.now, r2.now = clock, clock
		c1, c2 := startStdio(t, r1), startStdio(t, r2)
		c1.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + extMeta + `,"name":"slow"}}`)
		resp, _ := c1.response("1")
		id, _, _ := taskOf(t, resp)
		waitFor(t, g.started)
		advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
		advance(r1.TaskLease)
		getUntil(t, c2, id, "working")
		advance(2 * r1.TaskLease)
		raw := getUntil(t, c2, id, "failed")
		if e, _ := raw["error"].(map[string]any); e["code"] != float64(-32603) {
			t.Errorf("the failed task's error: %v", raw["error"])
		}
		getUntil(t, c1, id, "failed")
		close(g.release)
	})
}

// TestReplicaSessionRoams: a 2025 session initialized on one replica is
// served by another sharing the SessionStore, with the log level set on
// either honoured on both, and a DELETE on one is 404 on every one.
func TestReplicaSessionRoams(t *testing.T) {
	t.Parallel()
	store := &mcpstore.MemorySessionStore{}
	mk := func() *httpClient {
		srv := New(mcprt.Identity{Name: "n", Version: "v", EnableLogging: true, EnableResourceSubscriptions: true}, logTool)
		srv.Sessions = store
		return startHTTP(t, srv)
	}
	a, b := mk(), mk()
	a.initialize(wire.Rev20250618, `{"roots":{}}`)
	b.sid = a.sid
	const logged = `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"logged"}]}}`
	call := func(id int) string {
		return `{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tools/call","params":{"name":"log"}}`
	}
	b.post(call(1), 200, fmt.Sprintf(logged, 1), nil) // no level yet: plain JSON
	a.post(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"error"}}`, 200, `{"jsonrpc":"2.0","id":2,"result":{}}`, nil)
	ev := events(t, b.do("POST", call(3), nil))
	nextEvent(t, ev, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"t","data":{"at":"error"}}}`)
	nextEvent(t, ev, fmt.Sprintf(logged, 3))
	b.post(`{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"emergency"}}`, 200, `{"jsonrpc":"2.0","id":4,"result":{}}`, nil)
	a.post(call(5), 200, fmt.Sprintf(logged, 5), nil) // nothing at emergency
	if resp := b.do("DELETE", "", nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: status %d", resp.StatusCode)
	}
	for _, c := range []*httpClient{a, b} {
		c.post(call(6), 404, "", nil)
	}
}

// sharedPair returns HTTP clients of two replicas sharing sessions and a
// bus, and the servers, made of id and tools.
func sharedPair(t *testing.T, id mcprt.Identity, tools ...mcprt.Tool) (a, b *httpClient, ra, rb *Server) {
	store, bus := &mcpstore.MemorySessionStore{}, &mcpstore.MemoryBus{}
	mk := func(name string) (*httpClient, *Server) {
		srv := New(id, tools...)
		srv.Sessions, srv.Bus, srv.ReplicaID = store, bus, name
		return startHTTP(t, srv), srv
	}
	a, ra = mk("r1")
	b, rb = mk("r2")
	return a, b, ra, rb
}

// TestReplicaAnswerRouted: the client's answer to a request of the
// replica running a call reaches it through another replica, and so does
// notifications/cancelled.
func TestReplicaAnswerRouted(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	a, b, _, _ := sharedPair(t, mcprt.Identity{Name: "n", Version: "v", EnableElicitation: true}, elicitTool, blockTool(started, cancelled))
	a.initialize(wire.Rev20250618, `{"elicitation":{}}`)
	b.sid = a.sid
	ev := events(t, a.do("POST", `{"jsonrpc":"2.0","id":"q","method":"tools/call","params":{"name":"ask"}}`, nil))
	nextEvent(t, ev, `{"jsonrpc":"2.0","id":"r1.1","method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}`)
	b.post(`{"jsonrpc":"2.0","id":"r1.1","result":{"action":"decline"}}`, http.StatusAccepted, "", nil)
	nextEvent(t, ev, `{"jsonrpc":"2.0","id":"q","result":{"content":[{"type":"text","text":"decline "}]}}`)

	go a.do("POST", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"block"}}`, nil)
	waitFor(t, started)
	b.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`, http.StatusAccepted, "", nil)
	waitFor(t, cancelled)
}

// TestReplicaNotificationsCrossed: a list_changed and a resource update
// made on one replica reach the session whose GET stream another holds,
// once each, for a subscription taken through either.
func TestReplicaNotificationsCrossed(t *testing.T) {
	t.Parallel()
	a, b, ra, rb := sharedPair(t, mcprt.Identity{Name: "n", Version: "v", EnableToolNotifications: true,
		EnableResourceNotifications: true, EnableResourceSubscriptions: true})
	a.initialize(wire.Rev20250618, `{}`)
	b.sid = a.sid
	ev := events(t, a.do("GET", "", header("Accept", "text/event-stream")))
	waitGet(t, ra, a.sid)
	b.post(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"file:///x"}}`, 200, `{"jsonrpc":"2.0","id":1,"result":{}}`, nil)
	rb.Add(textTool("t", "T"))
	nextEvent(t, ev, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	rb.ResourceUpdated("file:///y") // not subscribed
	rb.ResourceUpdated("file:///x")
	nextEvent(t, ev, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///x"}}`)
	ra.ResourceUpdated("file:///x")
	nextEvent(t, ev, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///x"}}`)
	ra.Add(textTool("u", "U"))
	nextEvent(t, ev, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
}

// waitGet waits until srv holds the GET stream of session sid.
func waitGet(t *testing.T, srv *Server, sid string) {
	t.Helper()
	if !getOpenBecomes(srv, sid, true) {
		t.Fatal("no GET stream")
	}
}

// waitNoGet waits until srv has seen the GET stream of session sid go.
func waitNoGet(t *testing.T, srv *Server, sid string) {
	t.Helper()
	if !getOpenBecomes(srv, sid, false) {
		t.Fatal("the GET stream stayed open")
	}
}

// getOpenBecomes reports whether, within the tests' timeout, srv comes to
// hold a GET stream of session sid (open) or to hold none (!open).
func getOpenBecomes(srv *Server, sid string, open bool) bool {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		held := false
		if sess := srv.localSession(sid); sess != nil {
			sess.mu.Lock()
			held = sess.get != nil
			sess.mu.Unlock()
		}
		if held == open {
			return true
		}
	}
	return false
}

// TestReplicaIdleCopyKeepsEvents: a replica whose copy of a shared
// session idles out forgets only its copy; the session's events stay in
// the shared log, and another replica still resumes its streams.
func TestReplicaIdleCopyKeepsEvents(t *testing.T) {
	t.Parallel()
	release, ended := make(chan struct{}), make(chan error, 1)
	close(release)
	store, log := &mcpstore.MemorySessionStore{}, &mcpstore.MemoryEventLog{}
	var mu sync.Mutex
	now := time.Now()
	mk := func() (*httpClient, *Server) {
		srv := New(mcprt.Identity{Name: "n", Version: "v"}, stepTool(release, ended))
		srv.Sessions, srv.Events, srv.SessionIdleTimeout = store, log, time.Minute
		srv.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		return startHTTP(t, srv), srv
	}
	a, _ := mk()
	b, _ := mk()
	a.initialize(wire.Rev20250618, `{}`)
	b.sid = a.sid
	ev := rawEvents(t, b.do("POST", stepCall, nil))
	first := nextRaw(t, ev).id
	rest(t, ev)
	<-ended
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	other := &httpClient{t: t, url: a.url}
	other.initialize(wire.Rev20250618, `{}`) // a's sweep of idle sessions
	if a.do("POST", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil).StatusCode != 200 {
		t.Fatal("the shared session ended with a's idle copy")
	}
	if resp := b.do("GET", "", header("Last-Event-ID", first)); resp.StatusCode != 200 {
		t.Errorf("resuming on b after a's copy idled out: status %d", resp.StatusCode)
	}
}

// TestReplicaSessionKeepsItsPrincipal: a session alice initialized on one
// replica is refused to bob's token on another, which has never seen it,
// and served to alice there.
func TestReplicaSessionKeepsItsPrincipal(t *testing.T) {
	t.Parallel()
	store := &mcpstore.MemorySessionStore{}
	var r ran
	ra, rb := authServer(&r), authServer(&r)
	ra.Sessions, rb.Sessions = store, store
	a, b := startHTTP(t, ra), startHTTP(t, rb)
	rev := wire.Rev20251125
	a.authInit(rev, "alice-all")
	b.sid = a.sid
	body, hdr := request(rev, 1, "tools/call", "a")
	if resp := b.do(http.MethodPost, body, bearer("bob-all", hdr)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("bob's token on alice's session, on the other replica: %d, want 404", resp.StatusCode)
	}
	if r.n.Load() != 0 {
		t.Error("bob's call ran")
	}
	resp := b.do(http.MethodPost, body, bearer("alice-all", hdr))
	if got := readAll(t, resp); resp.StatusCode != 200 || !strings.Contains(got, "a:alice") {
		t.Errorf("alice on the other replica: %d %s", resp.StatusCode, got)
	}
}

// TestReplicaBusSetAfterChanges: a server that changed its catalog before
// its Bus was set (as an application adds prompts before attaching a
// backend) still hears the other replicas.
func TestReplicaBusSetAfterChanges(t *testing.T) {
	t.Parallel()
	id := mcprt.Identity{Name: "n", Version: "v", EnableToolNotifications: true}
	store, bus := &mcpstore.MemorySessionStore{}, &mcpstore.MemoryBus{}
	ra, rb := New(id), New(id)
	ra.AddTools(textTool("early", "E")) // before its Bus: nothing to tell
	ra.Sessions, ra.Bus, ra.ReplicaID = store, bus, "r1"
	rb.Sessions, rb.Bus, rb.ReplicaID = store, bus, "r2"
	a := startHTTP(t, ra)
	a.initialize(wire.Rev20250618, `{}`)
	ev := events(t, a.do("GET", "", header("Accept", "text/event-stream")))
	waitGet(t, ra, a.sid)
	rb.AddTools(textTool("t", "T"))
	nextEvent(t, ev, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
}

// answerCount is a shared task store that counts TakeAnswers and Get.
type answerCount struct {
	*mcpstore.MemoryTaskStore
	takes, gets atomic.Int32
}

func (a *answerCount) Get(ctx context.Context, owner, id string) (*mcpstore.Task, error) {
	a.gets.Add(1)
	return a.MemoryTaskStore.Get(ctx, owner, id)
}

func (a *answerCount) TakeAnswers(ctx context.Context, id string) (map[string][]byte, error) {
	a.takes.Add(1)
	return a.MemoryTaskStore.TakeAnswers(ctx, id)
}

// TestReplicaOwnEndReadsNothing: the runner hears of its own task's end
// on the bus like every replica, and reads nothing for it: it has the
// answers and the end already.
func TestReplicaOwnEndReadsNothing(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		r1, r2 := replicas(t, true, g.tool("slow", mcprt.TaskRequired))
		store := &answerCount{MemoryTaskStore: r1.Tasks.(*mcpstore.MemoryTaskStore)}
		r1.Tasks, r2.Tasks = store, store
		c1 := startStdio(t, r1)
		c1.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + extMeta + `,"name":"slow"}}`)
		resp, _ := c1.response("1")
		id, _, _ := taskOf(t, resp)
		waitFor(t, g.started)
		close(g.release)
		getUntil(t, c1, id, "completed")
		synctest.Wait() // every goroutine waits: a read the end would cause is done
		if n := store.takes.Load(); n != 0 {
			t.Errorf("the runner took answers %d times after its own end, want 0", n)
		}
	})
}

// TestTaskRunWritesFromItsCopy: a run stores its task's changes from its
// own copy, reading nothing, and a cancel made meanwhile still wins over
// the end it stores after.
func TestTaskRunWritesFromItsCopy(t *testing.T) {
	t.Parallel()
	g := newGate()
	r1, _ := replicas(t, true, g.tool("slow", mcprt.TaskRequired))
	store := &answerCount{MemoryTaskStore: r1.Tasks.(*mcpstore.MemoryTaskStore)}
	r1.Tasks = store
	c1 := startStdio(t, r1)
	run := func(id string) string {
		c1.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + extMeta + `,"name":"slow"}}`)
		resp, _ := c1.response(id)
		task, _, _ := taskOf(t, resp)
		waitFor(t, g.started)
		return task
	}
	ended := func(task string) *mcpstore.Task {
		t.Helper()
		run := r1.running(task)
		if run != nil {
			<-run.done
		}
		got, err := store.MemoryTaskStore.Get(context.Background(), "", task)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	done := run("1")
	g.release <- struct{}{}
	<-g.ended
	if got := ended(done); got.Status != mcpstore.TaskCompleted {
		t.Fatalf("task %s, want completed", got.Status)
	}
	if n := store.gets.Load(); n != 0 {
		t.Errorf("a task's life read it %d times, want 0", n)
	}

	cancelled := run("2")
	if err := store.MemoryTaskStore.Update(context.Background(), &mcpstore.Task{ID: cancelled, Status: mcpstore.TaskCancelled}); err != nil {
		t.Fatal(err)
	}
	g.release <- struct{}{}
	<-g.ended
	if got := ended(cancelled); got.Status != mcpstore.TaskCancelled {
		t.Errorf("a task cancelled while its handler ran: %s, want cancelled", got.Status)
	}
}

// kindCount is a bus that counts what is published of one kind.
type kindCount struct {
	mcpstore.MemoryBus
	kind mcpstore.BusKind
	n    atomic.Int32
}

func (b *kindCount) Publish(ctx context.Context, e mcpstore.BusEvent) error {
	if e.Kind == b.kind {
		b.n.Add(1)
	}
	return b.MemoryBus.Publish(ctx, e)
}

// TestTaskEndPublishedWhereAwaited: the end of a 2026-07-28 task, which
// nobody awaits on another replica (its client polls), costs no bus event;
// a 2025-11-25 task's end, which a tasks/result elsewhere may await, is
// published once.
func TestTaskEndPublishedWhereAwaited(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		r1, _ := replicas(t, true, g.tool("slow", mcprt.TaskRequired))
		bus := &kindCount{kind: mcpstore.BusTaskChanged}
		r1.Bus = bus
		c1 := startStdio(t, r1)
		c1.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + extMeta + `,"name":"slow"}}`)
		resp, _ := c1.response("1")
		id, _, _ := taskOf(t, resp)
		waitFor(t, g.started)
		g.release <- struct{}{}
		getUntil(t, c1, id, "completed")
		if n := bus.n.Load(); n != 0 {
			t.Errorf("a 2026-07-28 task's end published %d task changes, want 0", n)
		}

		c2 := startStdio(t, r1)
		c2.initialize(wire.Rev20251125, `{}`)
		c2.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{}}}`)
		resp, _ = c2.response("1")
		id, _, _ = taskOf(t, resp)
		waitFor(t, g.started)
		g.release <- struct{}{}
		c2.send(`{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"` + id + `"}}`)
		c2.response("2")
		if n := bus.n.Load(); n != 1 {
			t.Errorf("a 2025-11-25 task's end published %d task changes, want 1", n)
		}
	})
}

// failingGet is a shared task store whose Get fails while broken is set,
// as Redis does while a primary is failed over.
type failingGet struct {
	*mcpstore.MemoryTaskStore
	broken atomic.Bool
}

func (f *failingGet) Get(ctx context.Context, owner, id string) (*mcpstore.Task, error) {
	if f.broken.Load() {
		return nil, errors.New("connection refused")
	}
	return f.MemoryTaskStore.Get(ctx, owner, id)
}

// TestTaskGetStoreFails: while the store cannot read a task, tasks/get
// answers -32603, which a client may retry, not -32602 "no task", which
// ends its polling; a task truly absent is still -32602.
func TestTaskGetStoreFails(t *testing.T) {
	t.Parallel()
	g := newGate()
	r1, _ := replicas(t, true, g.tool("slow", mcprt.TaskRequired))
	store := &failingGet{MemoryTaskStore: r1.Tasks.(*mcpstore.MemoryTaskStore)}
	r1.Tasks = store
	r1.Logger = slog.New(slog.DiscardHandler)
	c := startStdio(t, r1)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + extMeta + `,"name":"slow"}}`)
	resp, _ := c.response("1")
	id, _, _ := taskOf(t, resp)
	waitFor(t, g.started)
	store.broken.Store(true)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{` + extMeta + `,"taskId":"` + id + `"}}`)
	if resp, _ := c.response("2"); !strings.Contains(resp, `"code":-32603`) || strings.Contains(resp, "refused") {
		t.Errorf("tasks/get while the store fails: %s, want -32603 without the store's words", resp)
	}
	store.broken.Store(false)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{` + extMeta + `,"taskId":"nope"}}`)
	if resp, _ := c.response("3"); !strings.Contains(resp, `"code":-32602`) {
		t.Errorf("tasks/get of no task: %s, want -32602", resp)
	}
	close(g.release)
	getUntil(t, c, id, "completed")
}
