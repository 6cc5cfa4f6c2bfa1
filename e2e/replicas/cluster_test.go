package replicas

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// lease is the replicas' TaskLease: short, so that a dead runner's tasks
// fail, and a dead replica's SSE streams end, within seconds.
const lease = 500 * time.Millisecond

// wait bounds every wait of the suite; nothing it waits for takes so long
// when the replicas work.
const wait = 20 * time.Second

// buildServer builds examples/conformance once into the test's directory.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "conformance")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/mcpgen/mcpgen/examples/conformance").CombinedOutput()
	if err != nil {
		t.Fatalf("building the server: %v\n%s", err, out)
	}
	return bin
}

// replica is one running server process.
type replica struct {
	name, addr string
	cmd        *exec.Cmd
	exited     chan struct{} // closed when the process has exited
}

// cluster is the replicas behind an in-test round-robin proxy.
type cluster struct {
	t        *testing.T
	bin      string
	redis    redisServer
	key      string
	mu       sync.Mutex
	replicas []*replica
	next     int
	proxy    *httptest.Server
	started  int
	tasks    []string // every task a call created, to count their ends
	requests int      // requests with an id sent, and the responses read
	answered int
}

// redisServer is the Redis the replicas share: one redis-server or a
// Redis Cluster.
type redisServer interface {
	URL() string     // as the replicas' -redis flag takes it
	Addrs() []string // every node's host:port
	Stop()           // kills every process by PID
	Restart()        // starts again what Stop ended, empty
}

// startRedis starts the replicas' Redis for t.
type startRedis func(t *testing.T) redisServer

// redisSetups are the set-ups every replicas test runs on: one
// redis-server, and a Redis Cluster of three primaries with one replica
// each.
var redisSetups = []struct {
	name  string
	start startRedis
}{
	{"redis-server", func(t *testing.T) redisServer { return redistest.Start(t) }},
	{"redis-cluster", func(t *testing.T) redisServer {
		rc := redistest.StartCluster(t)
		t.Logf("redis cluster formed in %v", rc.Formed)
		return rc
	}},
}

// onEachRedis runs test on each of the redisSetups, side by side: each
// has its own Redis, replicas and proxy.
func onEachRedis(t *testing.T, test func(t *testing.T, redis startRedis)) {
	for _, s := range redisSetups {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			test(t, s.start)
		})
	}
}

// skipShort skips an end-to-end test under -short, as the edit loop of
// docs/testing.md runs: each test here runs a real Redis, and a cluster
// builds the server's program and runs it three times.
func skipShort(t *testing.T) {
	if testing.Short() {
		t.Skip("an end-to-end test, left out of -short")
	}
}

func newCluster(t *testing.T, n int, redis startRedis) *cluster {
	skipShort(t)
	rs := redis(t) // first: it may skip t
	c := &cluster{t: t, bin: buildServer(t), redis: rs, key: hex.EncodeToString(bytes.Repeat([]byte{7}, 32))}
	for range n {
		c.start(c.key)
	}
	rp := &httputil.ReverseProxy{
		Rewrite:       func(pr *httputil.ProxyRequest) { pr.Out.URL.Scheme, pr.Out.URL.Host = "http", "replica" },
		Transport:     c,
		FlushInterval: -1,
	}
	c.proxy = httptest.NewServer(rp)
	t.Cleanup(c.proxy.Close)
	return c
}

// start starts a replica sealing request states with key, reading its
// address from its "serving MCP on" line.
func (c *cluster) start(key string) *replica {
	c.t.Helper()
	c.started++
	r := &replica{name: "r" + strconv.Itoa(c.started)}
	r.cmd = exec.Command(c.bin, "-http", "127.0.0.1:0", "-redis", c.redis.URL(), "-state-key", key,
		"-replica", r.name, "-lease", lease.String())
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	r.exited = make(chan struct{})
	c.t.Cleanup(func() { r.cmd.Process.Kill(); <-r.exited })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if addr, ok := strings.CutPrefix(lines.Text(), "serving MCP on http://"); ok {
			r.addr = strings.TrimSuffix(addr, "/mcp")
			break
		}
	}
	if r.addr == "" {
		c.t.Fatalf("replica %s did not start", r.name)
	}
	go func() {
		io.Copy(io.Discard, stderr)
		r.cmd.Wait()
		close(r.exited)
	}()
	c.mu.Lock()
	c.replicas = append(c.replicas, r)
	c.mu.Unlock()
	return r
}

// kill ends replica name with SIGKILL and takes it out of the proxy's
// rotation only after, so that the proxy meets its refused dials too.
func (c *cluster) kill(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, r := range c.replicas {
		if r.name == name {
			r.cmd.Process.Signal(syscall.SIGKILL)
			<-r.exited
			c.replicas = append(c.replicas[:i], c.replicas[i+1:]...)
			return
		}
	}
	c.t.Fatalf("no replica %s", name)
}

// alive fails the test for each replica in the rotation whose process
// has exited: a replica that panicked.
func (c *cluster) alive(t *testing.T) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.replicas {
		select {
		case <-r.exited:
			t.Errorf("replica %s exited: %v", r.name, r.cmd.ProcessState)
		default:
		}
	}
}

func (c *cluster) names() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for _, r := range c.replicas {
		names = append(names, r.name)
	}
	return names
}

// pinHeader names the replica a request must go to; without it the proxy
// takes the next one round-robin.
const pinHeader = "X-Test-Replica"

// RoundTrip sends each request to the next replica, or the pinned one,
// and on a refused dial to the one after.
func (c *cluster) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
	}
	pin := req.Header.Get(pinHeader)
	var last error
	for try := 0; try < 4; try++ {
		c.mu.Lock()
		var r *replica
		for _, x := range c.replicas {
			if x.name == pin {
				r = x
			}
		}
		if r == nil && len(c.replicas) > 0 {
			r = c.replicas[c.next%len(c.replicas)]
			c.next++
		}
		c.mu.Unlock()
		if r == nil {
			return nil, errors.New("no replica")
		}
		out := req.Clone(req.Context())
		out.URL.Host, out.Host = r.addr, r.addr
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.Header.Del(pinHeader)
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err == nil {
			resp.Header.Set(pinHeader, r.name)
			return resp, nil
		}
		last = err
		var op *net.OpError
		if !errors.As(err, &op) || op.Op != "dial" {
			return nil, err
		}
	}
	return nil, last
}

// redisClient returns a client of the suite's Redis, to read what the
// replicas stored.
func (c *cluster) redisClient() rueidis.Client {
	client, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: c.redis.Addrs(), DisableCache: true})
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(client.Close)
	return client
}

// runner returns the replica running task id, as its record says.
func (c *cluster) runner(id string) string {
	client := c.redisClient()
	v, err := client.Do(context.Background(), client.B().Hget().Key("mcp:{t:"+id+"}").Field("runner").Build()).ToString()
	if err != nil {
		c.t.Fatalf("runner of %s: %v", id, err)
	}
	return v
}

// other returns a live replica that is not name.
func (c *cluster) other(name string) string {
	for _, n := range c.names() {
		if n != name {
			return n
		}
	}
	c.t.Fatal("no other replica")
	return ""
}

// reply is one HTTP exchange: its status, the replica that served it,
// and the JSON-RPC messages of its body (one, or those of an SSE stream).
type reply struct {
	status   int
	replica  string
	header   http.Header
	messages []map[string]any
	ids      []string // the SSE event ids of the messages, in order
	body     string
}

// response returns the message with a result or error.
func (r *reply) response() map[string]any {
	for _, m := range r.messages {
		if _, ok := m["result"]; ok {
			return m
		}
		if _, ok := m["error"]; ok {
			return m
		}
	}
	return nil
}

func (r *reply) result() map[string]any {
	res, _ := r.response()["result"].(map[string]any)
	return res
}

// errorCode returns the JSON-RPC error code of the response, 0 for none.
func (r *reply) errorCode() int {
	e, _ := r.response()["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return int(code)
}

// mcpRequest is a request to the MCP endpoint url, with body (none when
// "") and headers, accepting JSON and SSE as clients do.
func mcpRequest(ctx context.Context, method, url, body string, headers map[string]string) (*http.Request, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return req, nil
}

// client bounds every exchange of send, so that a request that hangs
// fails the test instead of stalling it.
var client = &http.Client{Timeout: wait}

// send posts body (or sends method with no body when body is "") to the
// proxy with headers, reading a JSON or SSE answer whole.
func (c *cluster) send(ctx context.Context, method, body string, headers map[string]string) (*reply, error) {
	req, err := mcpRequest(ctx, method, c.proxy.URL+"/mcp", body, headers)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	r := &reply{status: resp.StatusCode, replica: resp.Header.Get(pinHeader), header: resp.Header}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		err = readSSE(resp.Body, func(id string, m map[string]any) bool {
			if m != nil {
				r.ids = append(r.ids, id)
				r.messages = append(r.messages, m)
			}
			return true
		})
		return r, err
	}
	raw, err := io.ReadAll(resp.Body)
	r.body = string(raw)
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		r.messages = append(r.messages, m)
	}
	return r, err
}

// readSSE calls fn with each event's id and message (nil for an event
// without data) until fn returns false or the stream ends.
func readSSE(body io.Reader, fn func(id string, m map[string]any) bool) error {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var id, data string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			var m map[string]any
			if data != "" {
				if err := json.Unmarshal([]byte(data), &m); err != nil {
					return fmt.Errorf("event %q: %v", data, err)
				}
			}
			if (id != "" || m != nil) && !fn(id, m) {
				return nil
			}
			id, data = "", ""
		case strings.HasPrefix(line, "id:"):
			id = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "data:"):
			data += strings.TrimSpace(line[5:])
		}
	}
	return sc.Err()
}

// stream opens a long-lived SSE request through the proxy and sends each
// message's method and params on the channel it returns, after the
// stream's first event (its priming event or acknowledgement) arrived, so
// that whatever is sent next is meant for a listener already there.
func (c *cluster) stream(t *testing.T, method, body string, h map[string]string) <-chan map[string]any {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := mcpRequest(ctx, method, c.proxy.URL+"/mcp", body, h)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 {
		t.Fatalf("%s: status %d", method, resp.StatusCode)
	}
	first := make(chan struct{})
	events := make(chan map[string]any, 100)
	go readSSE(bufio.NewReader(resp.Body), func(_ string, m map[string]any) bool {
		select {
		case <-first:
		default:
			close(first)
		}
		if m != nil {
			events <- m
		}
		return true
	})
	select {
	case <-first:
	case <-time.After(wait):
		t.Fatalf("%s: no first event", method)
	}
	return events
}

// meta2026 is the _meta of a 2026-07-28 request from a client that can
// elicit and run tasks.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// call2026 sends a 2026-07-28 request with its standard headers; name is
// the Mcp-Name (a tool or task), pin the replica ("" for round-robin).
func (c *cluster) call2026(ctx context.Context, method, name, params, pin string) (*reply, error) {
	if params != "" {
		params = "," + params
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + meta2026 + params + `}}`
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	if name != "" {
		h["Mcp-Name"] = name
	}
	if pin != "" {
		h[pinHeader] = pin
	}
	r, err := c.send(ctx, "POST", body, h)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	if err == nil && r.response() != nil {
		c.answered++
		task := r.result()
		if nested, ok := task["task"].(map[string]any); ok {
			task = nested
		}
		if id, _ := task["taskId"].(string); method == "tools/call" && id != "" {
			c.tasks = append(c.tasks, id)
		}
	}
	return r, err
}

// must fails the test on err, else returns r.
func must(t *testing.T, r *reply, err error) *reply {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// do returns must bound to t, for a call's two results.
func do(t *testing.T) func(*reply, error) *reply {
	return func(r *reply, err error) *reply {
		t.Helper()
		return must(t, r, err)
	}
}

// taskOf returns the task of a CreateTaskResult or tasks/get result.
func taskOf(t *testing.T, r *reply) map[string]any {
	t.Helper()
	res := r.result()
	if task, ok := res["task"].(map[string]any); ok {
		return task
	}
	if res["taskId"] == nil {
		t.Fatalf("no task in %d %v %s", r.status, r.messages, r.body)
	}
	return res
}

// get2026 returns task id as tasks/get answers it.
func (c *cluster) get2026(t *testing.T, id, pin string) map[string]any {
	t.Helper()
	r, err := c.call2026(context.Background(), "tasks/get", id, `"taskId":"`+id+`"`, pin)
	return taskOf(t, must(t, r, err))
}

// until polls task id round-robin until its status is want, failing on
// a terminal other status or after wait; it returns the task.
func (c *cluster) until(t *testing.T, id, want string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		task := c.get2026(t, id, "")
		st, _ := task["status"].(string)
		if st == want {
			return task
		}
		if st == "completed" || st == "failed" || st == "cancelled" || time.Now().After(deadline) {
			t.Fatalf("task %s is %s, want %s: %v", id, st, want, task)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
