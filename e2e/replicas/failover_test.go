package replicas

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// failoverBound bounds how long a request may take while Redis fails:
// a command tried again for mcpredis.DefaultRetryBudget, the client's
// dial and write timeouts, and the request's other commands.
const failoverBound = 10 * time.Second

// outcome is what a client saw of one request during the failure.
type outcome struct {
	kind string // the load that sent it
	at   time.Time
	took time.Duration
	ok   bool
	what string // "ok", "-32603", "status 503", or the transport error
}

// failure is a Redis failure a loss run causes.
type failure struct {
	// kill ends a Redis process and returns once Redis can serve again
	// (a replica promoted, a server restarted): when it killed, and how
	// long until then.
	kill func(t *testing.T) (time.Time, time.Duration)
	// on reports whether key was on the Redis process killed, asked
	// after kill returned.
	on func(key string) bool
}

// lossCount is what one kind of state lost: of the acknowledged copies
// on the Redis process killed, how many are gone afterwards, and of
// those elsewhere.
type lossCount struct{ on, lost, elsewhere, lostElsewhere int }

func (l lossCount) String() string {
	return strconv.Itoa(l.lost) + " of " + strconv.Itoa(l.on) + " on the killed node (" +
		strconv.Itoa(l.lostElsewhere) + " of " + strconv.Itoa(l.elsewhere) + " elsewhere)"
}

func (l *lossCount) add(on, lost bool) {
	switch {
	case on:
		l.on++
		if lost {
			l.lost++
		}
	default:
		l.elsewhere++
		if lost {
			l.lostElsewhere++
		}
	}
}

// losses is what a loss run counted.
type losses struct {
	tasks   lossCount // tasks acknowledged by tools/call, not found afterwards
	results lossCount // tasks read completed before the kill, not completed with their result afterwards
	// unfinished: tasks running during the failure that failed with
	// -32603, their result lost, rather than completed.
	unfinished lossCount
	sessions   lossCount // 2025 sessions acknowledged by initialize that answer 404 afterwards
	events     lossCount // SSE events read before the kill, not replayed on a resume from the first
	// codes counts what the clients saw during the run, by answer.
	codes map[string]int
	// recovered is, for each load, how long after the kill its last
	// failure ended: from then on its requests succeeded.
	recovered map[string]time.Duration
	slowest   time.Duration
	back      time.Duration // from the kill until Redis served again
}

// streamed is a 2025 call read whole over SSE before the kill.
type streamed struct {
	s     *session
	first string   // the id of its first message
	after []string // the ids of the messages after it
}

// TestRedisPrimaryKilled: while sessions call, tasks are polled and new
// tasks and sessions are made through the replicas, the primary holding
// the bus is SIGKILLed and its replica promoted. No request hangs; every
// failure is -32603 or 503; every task made before the kill ends
// (completed, or failed with -32603); nothing acknowledged on the other
// primaries is lost; and sessions, new tasks and the bus work again.
// What the promoted replica lost is counted and logged: Redis replicates
// asynchronously, so no count of it always holds. Not parallel: it
// measures times.
func TestRedisPrimaryKilled(t *testing.T) {
	rc := redistest.StartCluster(t)
	t.Logf("redis cluster formed in %v", rc.Formed)
	c := newCluster(t, 3, func(*testing.T) redisServer { return rc })
	doomed := rc.PrimaryOf("mcp:bus")
	var promoted string
	l := lossRun(t, c, failure{
		kill: func(t *testing.T) (time.Time, time.Duration) {
			killed, took := rc.KillPrimary("mcp:bus")
			promoted = rc.PrimaryOf("mcp:bus")
			t.Logf("killed primary %s (the bus's); replica %s promoted %v after", killed, promoted, took)
			return time.Now().Add(-took), took
		},
		on: func(key string) bool { return rc.PrimaryOf(key) == promoted },
	}, func(key string) bool { return rc.PrimaryOf(key) == doomed })
	for _, lc := range []lossCount{l.tasks, l.results, l.sessions, l.events} {
		if lc.lostElsewhere != 0 {
			t.Errorf("lost on the primaries not killed: %v", lc)
		}
	}
	afterFailure(t, c)
}

// aofDown is how long the single redis-server stays down after its
// kill, as a supervisor would restart it.
const aofDown = time.Second

// TestRedisAOFKilled: the single redis-server, with appendonly yes and
// appendfsync everysec, is SIGKILLed under the same load and restarted
// aofDown later on its port and directory. Nothing acknowledged is
// lost: a killed process leaves what it wrote to its file in the
// kernel, and Redis answers a write only after writing it there. Not
// parallel: it measures times.
func TestRedisAOFKilled(t *testing.T) {
	rs := redistest.Start(t, redistest.AOF)
	c := newCluster(t, 3, func(*testing.T) redisServer { return rs })
	l := lossRun(t, c, failure{
		kill: func(t *testing.T) (time.Time, time.Duration) {
			rs.Stop()
			killed := time.Now()
			time.Sleep(aofDown)
			rs.Restart()
			took := time.Since(killed)
			t.Logf("killed redis-server; restarted on its AOF %v later, answering %v after", aofDown, took)
			return killed, took
		},
		on: func(string) bool { return true },
	}, func(string) bool { return true })
	for _, lc := range []lossCount{l.tasks, l.results, l.sessions, l.events} {
		if lc.lost != 0 {
			t.Errorf("lost with AOF: %v", lc)
		}
	}
	afterFailure(t, c)
}

// lossRun makes state of every kind (tasks running and ended, 2025
// sessions, SSE streams), at least two of each on the Redis process f
// kills as onBefore tells before the kill; then, under a load that goes
// on making tasks and sessions, kills it, and counts what was lost. It
// fails t on a request that hangs or fails other than with -32603 or
// 503, and on a task that does not end.
func lossRun(t *testing.T, c *cluster, f failure, onBefore func(key string) bool) losses {
	ctx := context.Background()
	l := losses{codes: map[string]int{}, recovered: map[string]time.Duration{}}

	// Tasks ended before the kill, with their results, at least two of
	// them on the node to be killed.
	short := map[string]bool{}
	for i, on := 0, 0; len(short) < 4 || on < 2; i++ {
		if i == 60 {
			t.Fatalf("of %d tasks, %d on the node to be killed", len(short), on)
		}
		r := do(t)(c.call2026(ctx, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":1,"label":"e`+strconv.Itoa(i)+`"}`, ""))
		id := taskOf(t, r)["taskId"].(string)
		short[id] = true
		if onBefore("mcp:{t:" + id + "}") {
			on++
		}
	}

	// Sessions, and SSE streams read whole: a 2025-11-25 call reporting
	// progress, each in a session of its own, at least two of each on
	// the node to be killed.
	var sessions []*session
	var streams []streamed
	var loaded *session // the load's, on the node to be killed
	for i, onS, onE := 0, 0, 0; onS < 2 || onE < 2; i++ {
		if i == 60 {
			t.Fatalf("of %d sessions, %d on the node to be killed; of %d streams, %d", len(sessions), onS, len(streams), onE)
		}
		s := c.initialize(t, "2025-11-25")
		if on := onBefore("mcp:{s:" + s.id + "}"); i%2 == 0 {
			sessions = append(sessions, s)
			if on {
				onS++
				loaded = s
			}
		} else {
			streams = append(streams, readStream(t, s))
			if on {
				onE++
			}
		}
	}

	ended := map[string]string{}
	for id := range short {
		ended[id] = text(c.until(t, id, "completed")["result"].(map[string]any))
	}

	// Tasks running at the kill, at least two of them on the node to be
	// killed.
	var running []string
	for i, on := 0, 0; len(running) < 6 || on < 2; i++ {
		if i == 60 {
			t.Fatalf("of %d tasks, %d on the node to be killed", len(running), on)
		}
		r := do(t)(c.call2026(ctx, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":2,"label":"f`+strconv.Itoa(i)+`"}`, ""))
		id := taskOf(t, r)["taskId"].(string)
		running = append(running, id)
		if onBefore("mcp:{t:" + id + "}") {
			on++
		}
	}

	// The load, one request after another in each of four goroutines,
	// until a second after Redis serves again: a session calls a tool,
	// tasks are polled, and new tasks and sessions are made.
	var (
		mu     sync.Mutex
		seen   []outcome
		made   []string // tasks acknowledged during the load
		joined []*session
		stop   = make(chan struct{})
		wg     sync.WaitGroup
	)
	load := func(kind string, send func(n int) (*reply, error), ok func(r *reply)) {
		defer wg.Done()
		for n := 1000; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			start := time.Now()
			r, err := send(n)
			o := outcome{kind: kind, at: start, took: time.Since(start)}
			switch {
			case err != nil:
				o.what = err.Error()
			case r.status == 503:
				o.what = "status 503"
			case r.errorCode() != 0:
				o.what = strconv.Itoa(r.errorCode())
				if o.what != "-32603" {
					b, _ := json.Marshal(r.response())
					t.Logf("%s %v after the start: %s", kind, time.Since(start), b)
				}
			case r.status != 200 || r.response() == nil:
				o.what = "status " + strconv.Itoa(r.status) + " " + r.body
			default:
				o.ok, o.what = true, "ok"
			}
			mu.Lock()
			seen = append(seen, o)
			if o.ok && ok != nil {
				ok(r)
			}
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		}
	}
	wg.Add(4)
	go load("session call", func(n int) (*reply, error) {
		return c.send(ctx, "POST", `{"jsonrpc":"2.0","id":`+strconv.Itoa(n)+`,"method":"tools/call","params":{"name":"test_simple_text"}}`, loaded.headers(""))
	}, nil)
	go load("tasks/get", func(n int) (*reply, error) {
		id := running[n%len(running)]
		return c.call2026(ctx, "tasks/get", id, `"taskId":"`+id+`"`, "")
	}, nil)
	go load("task create", func(n int) (*reply, error) {
		return c.call2026(ctx, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":1,"label":"l`+strconv.Itoa(n)+`"}`, "")
	}, func(r *reply) {
		task := r.result()
		if nested, ok := task["task"].(map[string]any); ok {
			task = nested
		}
		if id, _ := task["taskId"].(string); id != "" {
			made = append(made, id)
		}
	})
	go load("initialize", func(n int) (*reply, error) {
		return c.send(ctx, "POST", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`, nil)
	}, func(r *reply) {
		if id := r.header.Get("Mcp-Session-Id"); id != "" {
			joined = append(joined, &session{c: c, id: id, rev: "2025-06-18"})
		}
	})
	time.Sleep(500 * time.Millisecond)
	killedAt, back := f.kill(t)
	l.back = back
	time.Sleep(time.Second)
	close(stop)
	wg.Wait()

	// What the clients saw.
	last := map[string]time.Time{}
	for _, o := range seen {
		l.codes[o.what]++
		l.slowest = max(l.slowest, o.took)
		if !o.ok {
			last[o.kind] = o.at.Add(o.took)
			if o.what != "-32603" && o.what != "status 503" {
				t.Errorf("a %s failed with %q, want -32603 or 503", o.kind, o.what)
			}
		}
	}
	for kind, at := range last {
		l.recovered[kind] = at.Sub(killedAt)
	}
	if l.slowest > failoverBound {
		t.Errorf("the slowest request took %v, want at most %v", l.slowest, failoverBound)
	}
	if l.codes["ok"] == 0 {
		t.Errorf("no request succeeded during the run: %v", l.codes)
	}

	// Every task running at the kill ends within three leases of Redis
	// serving again: completed, or failed with -32603 when its runner
	// could not renew its lease or store its end meanwhile. A task made
	// during the load is found, or counted lost.
	deadline := killedAt.Add(back + 3*lease + 3*time.Second)
	for _, id := range append(running, made...) {
		for {
			r, err := c.call2026(ctx, "tasks/get", id, `"taskId":"`+id+`"`, "")
			if err == nil && r.errorCode() == -32602 {
				l.tasks.add(f.on("mcp:{t:"+id+"}"), true)
				break
			}
			if err == nil && r.errorCode() == 0 && r.response() != nil {
				task := taskOf(t, r)
				st, _ := task["status"].(string)
				if st == "failed" {
					if b, _ := json.Marshal(task); !strings.Contains(string(b), "-32603") {
						t.Errorf("task %s failed without -32603: %s", id, b)
					}
				}
				if st == "completed" || st == "failed" {
					on := f.on("mcp:{t:" + id + "}")
					l.tasks.add(on, false)
					l.unfinished.add(on, st == "failed")
					break
				}
				if st != "working" {
					t.Fatalf("task %s: %v", id, task)
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("task %s has not ended %v after the kill", id, time.Since(killedAt))
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	// The tasks ended before the kill keep their results.
	for id, want := range ended {
		r := do(t)(c.call2026(ctx, "tasks/get", id, `"taskId":"`+id+`"`, ""))
		kept := false
		if r.errorCode() == 0 {
			task := taskOf(t, r)
			res, _ := task["result"].(map[string]any)
			kept = task["status"] == "completed" && text(res) == want
		}
		l.results.add(f.on("mcp:{t:"+id+"}"), !kept)
	}

	// The sessions made before the kill and during the load answer, or
	// are gone (404).
	for _, s := range append(sessions, joined...) {
		r := s.call(t, "tools/call", `"name":"test_simple_text"`, "")
		if r.status != 200 && r.status != 404 {
			t.Errorf("session %s after the kill: %d %s", s.id, r.status, r.body)
		}
		l.sessions.add(f.on("mcp:{s:"+s.id+"}"), r.status == 404)
	}

	// Each stream resumed from its first message replays the rest.
	for _, st := range streams {
		h := st.s.headers("")
		h["Last-Event-ID"] = st.first
		r := do(t)(c.send(ctx, "GET", "", h))
		on := f.on("mcp:{s:" + st.s.id + "}")
		if r.status != 200 && r.status != 400 {
			t.Errorf("resume of %s after the kill: %d %s", st.first, r.status, r.body)
		}
		got := map[string]bool{}
		for _, id := range r.ids {
			got[id] = true
		}
		for _, id := range st.after {
			l.events.add(on, !got[id])
		}
	}

	kinds := make([]string, 0, len(l.recovered))
	for k := range l.recovered {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var rec []string
	for _, k := range kinds {
		rec = append(rec, k+" "+l.recovered[k].Round(10*time.Millisecond).String())
	}
	t.Logf("requests %d: %v; slowest %v; Redis served again %v after the kill", len(seen), l.codes, l.slowest, back)
	t.Logf("last failure after the kill, by load: %s", strings.Join(rec, ", "))
	t.Logf("lost: tasks %v; results %v; sessions %v; SSE events %v", l.tasks, l.results, l.sessions, l.events)
	t.Logf("tasks running during the failure that failed, not completed: %v", l.unfinished)
	return l
}

// readStream calls test_tool_with_progress in s over SSE and reads the
// stream whole.
func readStream(t *testing.T, s *session) streamed {
	t.Helper()
	req, err := mcpRequest(context.Background(), "POST", s.c.proxy.URL+"/mcp",
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"test_tool_with_progress","_meta":{"progressToken":"p"}}}`, s.headers(""))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("test_tool_with_progress: status %d", resp.StatusCode)
	}
	st := streamed{s: s}
	readSSE(resp.Body, func(id string, m map[string]any) bool {
		switch {
		case m == nil || id == "":
		case st.first == "":
			st.first = id
		default:
			st.after = append(st.after, id)
		}
		return true
	})
	if st.first == "" || len(st.after) != 3 {
		t.Fatalf("test_tool_with_progress streamed %q then %v, want an id and three more", st.first, st.after)
	}
	return st
}

// afterFailure checks that no replica died, and that sessions, new tasks
// and the bus work once Redis serves again.
func afterFailure(t *testing.T, c *cluster) {
	c.alive(t)
	ctx := context.Background()
	if r := c.initialize(t, "2025-06-18").call(t, "tools/call", `"name":"test_simple_text"`, ""); r.errorCode() != 0 || r.status != 200 {
		t.Errorf("a new session after the failure: %d %v", r.status, r.messages)
	}
	r := do(t)(c.call2026(ctx, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":1,"label":"after"}`, ""))
	c.until(t, taskOf(t, r)["taskId"].(string), "completed")

	names := c.names()
	events := c.stream(t, "POST", `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{`+meta2026+`,"notifications":{"toolsListChanged":true}}}`,
		map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen", pinHeader: names[0]})
	heard := false
	for timeout := time.After(wait); !heard; {
		if r := do(t)(c.call2026(ctx, "tools/call", "test_trigger_tool_change", `"name":"test_trigger_tool_change"`, names[1])); r.errorCode() != 0 {
			t.Fatalf("trigger: %v", r.messages)
		}
		select {
		case m := <-events:
			heard = m["method"] == "notifications/tools/list_changed"
		case <-time.After(time.Second):
		case <-timeout:
			t.Fatal("no notification crossed the bus after the failure")
		}
	}
}
