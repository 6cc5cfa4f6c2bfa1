package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bench/servers"
	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/mcpredis"
)

// TestStoreFlagsRefused checks that the flags of the built-in server's
// stores are refused for the other servers, and values that mean nothing.
func TestStoreFlagsRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-server", "floor", "-redis", "redis://127.0.0.1:6379/0"}, "serve: -redis: -redis, -session-cache, -max-tasks and -task-ttl configure the built-in server only (-server mcpserver), not floor"},
		{[]string{"-server", "gosdk-typed", "-max-tasks", "5", "-session-cache", "0"}, "serve: -max-tasks, -session-cache: -redis, -session-cache, -max-tasks and -task-ttl configure the built-in server only (-server mcpserver), not gosdk-typed"},
		{[]string{"-server", "mcpgo-typed", "-task-ttl", "1m"}, "serve: -task-ttl: "},
		{[]string{"-session-cache", "1m"}, "-session-cache caches the sessions kept in Redis: it needs -redis"},
		{[]string{"-max-tasks", "-1"}, "must not be negative"},
	} {
		var stderr bytes.Buffer
		if code := run(tc.args, &stderr); code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("serve %q exited %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestSessionCacheFlag checks that -redis alone caches sessions as the
// backend does by default, and that -session-cache 0 reads Redis on every
// request.
func TestSessionCacheFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want time.Duration // of SessionStore.CacheTTL
	}{
		{[]string{"-redis", "R"}, mcpredis.DefaultSessionCacheTTL},
		{[]string{"-redis", "R", "-session-cache", "1m"}, time.Minute},
		{[]string{"-redis", "R", "-session-cache", "0"}, -1},
	} {
		var stderr bytes.Buffer
		o, err := parseFlags(tc.args, &stderr)
		if err != nil {
			t.Fatalf("serve %q: %v; %s", tc.args, err, stderr.Bytes())
		}
		if got := sessionCacheTTL(o.store); got != tc.want {
			t.Errorf("serve %q: the sessions' CacheTTL is %s, want %s", tc.args, got, tc.want)
		}
	}
	if _, err := parseFlags([]string{"-server", "floor"}, io.Discard); err != nil {
		t.Errorf("the floor with the stores' defaults: %v", err)
	}
}

// createTask calls the task tool as a 2026-07-28 client declaring the
// tasks extension, and returns the answer.
func createTask(t *testing.T, url string, id int) string {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",`+
		`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}},"name":%q,`+
		`"arguments":{"region":"emea","changes":[{"product_id":"SKU-1","new_price":1}]}}}`, id, servers.TaskTool)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": servers.TaskTool} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// serveBuiltin serves the built-in server with the stores bf asks for.
func serveBuiltin(t *testing.T, bf builtinFlags) string {
	t.Helper()
	srv, closeStores, err := builtin(context.Background(), bf)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(func() { hs.Close(); closeStores() })
	return hs.URL
}

// createTasks creates n tasks and returns the answer to the last, failing
// the test if an earlier one is not a task.
func createTasks(t *testing.T, url string, n int) string {
	t.Helper()
	for i := 1; i < n; i++ {
		if got := createTask(t, url, i); !strings.Contains(got, `"resultType":"task"`) {
			t.Fatalf("task %d: %s", i, got)
		}
	}
	return createTask(t, url, n)
}

// TestMaxTasks checks that the default store keeps more than 100 tasks
// of the clients without authorization, who share one owner on
// 2026-07-28, once they have ended (the bound of 100 is of tasks running
// at once), that -max-tasks bounds the tasks kept, and that -task-ttl sets
// their TTL.
func TestMaxTasks(t *testing.T) {
	if got := createTasks(t, serveBuiltin(t, builtinFlags{}), 101); !strings.Contains(got, `"resultType":"task"`) {
		t.Errorf("the 101st task of the default store, the others ended: %s; want a task", got)
	}
	url := serveBuiltin(t, builtinFlags{maxTasks: 150, taskTTL: time.Minute})
	got := createTasks(t, url, 150)
	if !strings.Contains(got, `"resultType":"task"`) || !strings.Contains(got, `"ttlMs":60000`) {
		t.Errorf("the 150th task with -max-tasks 150 -task-ttl 1m: %s", got)
	}
	if got := createTask(t, url, 151); !strings.Contains(got, "too many tasks") {
		t.Errorf("the 151st task with -max-tasks 150: %s; want too many tasks", got)
	}
}

// TestRedis checks that -redis keeps the tasks and sessions in Redis, with
// -max-tasks as the Redis store's bound and -session-cache as its cache.
func TestRedis(t *testing.T) {
	rs := redistest.Start(t)
	srv, closeStores, err := builtin(context.Background(), builtinFlags{redis: rs.URL(), sessionCache: time.Minute, maxTasks: 150})
	if err != nil {
		t.Fatal(err)
	}
	defer closeStores()
	if s, ok := srv.Sessions.(*mcpredis.SessionStore); !ok || s.CacheTTL != time.Minute {
		t.Errorf("sessions kept in %T, want an *mcpredis.SessionStore with a cache of 1m", srv.Sessions)
	}
	hs := httptest.NewServer(srv.HTTPHandler())
	defer hs.Close()
	got := createTasks(t, hs.URL, 150)
	id, _, _ := strings.Cut(got[strings.Index(got, `"taskId":"`)+len(`"taskId":"`):], `"`)
	if line, err := redistest.Command(rs.Addr(), "EXISTS", "mcp:{t:"+id+"}"); err != nil || line != "1" {
		t.Errorf("task %s in Redis: %q, %v; want :1 (the 150th task: %s)", id, line, err, got)
	}
}

// TestRedisUnreachable checks that a Redis that does not answer is an
// error of the server's start, not of its first request.
func TestRedisUnreachable(t *testing.T) {
	rs := redistest.Start(t)
	rs.Stop()
	var stderr bytes.Buffer
	if code := run([]string{"-http", "127.0.0.1:0", "-redis", rs.URL()}, &stderr); code != 1 || !strings.Contains(stderr.String(), "mcpredis") {
		t.Errorf("serve with a stopped Redis exited %d, stderr %q; want 1 and the backend's error", code, stderr.String())
	}
}
