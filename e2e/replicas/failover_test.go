package replicas

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// failoverBound bounds how long a request may take while a primary is
// failed over: the client's dial and write timeouts and its retries.
const failoverBound = 10 * time.Second

// outcome is what a client saw of one request during the failover.
type outcome struct {
	at   time.Time
	took time.Duration
	ok   bool
	what string // "ok", "-32603", "status 503", or the transport error
}

// TestRedisPrimaryKilled: while a session calls and tasks are polled
// through the replicas, the primary holding the bus is SIGKILLed. Its
// replica is promoted; no request hangs, every failure is -32603 or 503,
// every task made before the kill ends (completed, or failed with
// -32603), and sessions, new tasks and the bus work again.
func TestRedisPrimaryKilled(t *testing.T) {
	rc := redistest.StartCluster(t)
	t.Logf("redis cluster formed in %v", rc.Formed)
	c := newCluster(t, 3, func(*testing.T) redisServer { return rc })
	ctx := context.Background()

	s := c.initialize(t, "2025-06-18")
	// Tasks, at least two of them on the primary to be killed, the bus's.
	doomed := rc.PrimaryOf("mcp:bus")
	var ids []string
	onKilled := 0
	for i := 0; len(ids) < 6 || onKilled < 2; i++ {
		if i == 40 {
			t.Fatalf("of %d tasks, %d on the bus's primary", len(ids), onKilled)
		}
		r := do(t)(c.call2026(ctx, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":2,"label":"f`+strconv.Itoa(i)+`"}`, ""))
		id := taskOf(t, r)["taskId"].(string)
		ids = append(ids, id)
		if rc.PrimaryOf("mcp:{t:"+id+"}") == doomed {
			onKilled++
		}
	}
	if rc.PrimaryOf("mcp:{s:"+s.id+"}") == doomed {
		t.Logf("the session is on the killed primary too")
	}

	// The load: the session calls a tool and the tasks are polled, one
	// request after another, until the failover is over.
	var (
		mu   sync.Mutex
		seen []outcome
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	load := func(send func(n int) (*reply, error)) {
		defer wg.Done()
		for n := 1000; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			start := time.Now()
			r, err := send(n)
			o := outcome{at: start, took: time.Since(start)}
			switch {
			case err != nil:
				o.what = err.Error()
			case r.status == 503:
				o.what = "status 503"
			case r.errorCode() != 0:
				o.what = strconv.Itoa(r.errorCode())
				if o.what != "-32603" {
					b, _ := json.Marshal(r.response())
					t.Logf("%v after the start: %s", time.Since(start), b)
				}
			case r.status != 200 || r.response() == nil:
				o.what = "status " + strconv.Itoa(r.status) + " " + r.body
			default:
				o.ok, o.what = true, "ok"
			}
			mu.Lock()
			seen = append(seen, o)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		}
	}
	wg.Add(2)
	go load(func(n int) (*reply, error) {
		return c.send(ctx, "POST", `{"jsonrpc":"2.0","id":`+strconv.Itoa(n)+`,"method":"tools/call","params":{"name":"test_simple_text"}}`, s.headers(""))
	})
	go load(func(n int) (*reply, error) {
		id := ids[n%len(ids)]
		return c.call2026(ctx, "tasks/get", id, `"taskId":"`+id+`"`, "")
	})
	time.Sleep(300 * time.Millisecond)
	killed, promoted := rc.KillPrimary("mcp:bus")
	promotedAt := time.Now()
	killedAt := promotedAt.Add(-promoted)
	t.Logf("killed primary %s (the bus's, %d of %d tasks'); replica promoted %v after", killed, onKilled, len(ids), promoted)
	time.Sleep(time.Second)
	close(stop)
	wg.Wait()

	// What the clients saw.
	counts := map[string]int{}
	var lastFailure time.Time
	var slowest time.Duration
	for _, o := range seen {
		counts[o.what]++
		slowest = max(slowest, o.took)
		if !o.ok {
			lastFailure = o.at.Add(o.took)
			if o.what != "-32603" && o.what != "status 503" {
				t.Errorf("a request failed with %q, want -32603 or 503", o.what)
			}
		}
	}
	if slowest > failoverBound {
		t.Errorf("the slowest request took %v, want at most %v", slowest, failoverBound)
	}
	recovered := time.Duration(0)
	if !lastFailure.IsZero() {
		recovered = lastFailure.Sub(killedAt)
	}
	t.Logf("requests %d: %v; slowest %v; last failure %v after the kill", len(seen), counts, slowest, recovered)
	if counts["ok"] == 0 {
		t.Errorf("no request succeeded during the run: %v", counts)
	}

	// Every task made before the kill ends within three leases of the
	// promotion: completed, or failed with -32603 when its runner could
	// not renew its lease during the failover.
	ended := map[string]int{}
	deadline := promotedAt.Add(3*lease + 2*time.Second)
	for _, id := range ids {
		for {
			r, err := c.call2026(ctx, "tasks/get", id, `"taskId":"`+id+`"`, "")
			if err == nil && r.errorCode() == 0 && r.response() != nil {
				task := taskOf(t, r)
				st, _ := task["status"].(string)
				if st == "completed" {
					ended[st]++
					break
				}
				if st == "failed" {
					if b, _ := json.Marshal(task); !strings.Contains(string(b), "-32603") {
						t.Errorf("task %s failed without -32603: %s", id, b)
					}
					ended[st]++
					break
				}
				if st != "working" {
					t.Fatalf("task %s: %v", id, task)
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("task %s has not ended %v after the promotion", id, time.Since(promotedAt))
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	t.Logf("tasks made before the kill: %v", ended)

	// Sessions, new tasks and the bus work after the failover.
	if r := s.call(t, "tools/call", `"name":"test_simple_text"`, ""); r.errorCode() != 0 || r.status != 200 {
		t.Errorf("the session after the failover: %d %v", r.status, r.messages)
	}
	if r := c.initialize(t, "2025-06-18").call(t, "tools/call", `"name":"test_simple_text"`, ""); r.errorCode() != 0 || r.status != 200 {
		t.Errorf("a new session after the failover: %d %v", r.status, r.messages)
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
			t.Fatal("no notification crossed the bus after the failover")
		}
	}
}
