package bench

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/bench/servers"
	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/mcpredis"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// tasksMeta is the _meta of a 2026-07-28 request from a client that
// declares the tasks extension, as the load run's tasks mode sends it.
const tasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}},`

// heldTool is a task=required tool whose handler answers as the
// reference tool does once released, one handler a token: with a short
// grace, its calls become tasks that end after their answer.
const heldTool = "held_task"

// lifeServer is the built-in server of the load run (bench/cmd/serve):
// the reference tool and its task form, tasks kept for a minute with
// bounds no run reaches, in memory or in Redis. With release, it also
// serves heldTool, each handler waiting for a token of release, and its
// calls become tasks at once.
func lifeServer(b *testing.B, backend *mcpredis.Backend, release chan struct{}) http.Handler {
	srv := servers.BuiltinServer()
	if release != nil {
		held := mcprt.Tool{Name: heldTool, InputSchema: []byte(`{"type":"object"}`), TaskSupport: mcprt.TaskRequired,
			Handler: func(ctx context.Context, _ []byte) mcprt.Result {
				select {
				case <-release:
				case <-ctx.Done():
				}
				return mcprt.TextResult("updated 10 prices in emea")
			}}
		srv.AddTools(held)
		srv.TaskGrace = time.Microsecond
	}
	srv.TaskTTL = time.Minute
	if backend == nil {
		srv.Tasks = &mcpstore.MemoryTaskStore{TaskLimits: mcpstore.TaskLimits{MaxPerOwner: 1 << 30, MaxKept: 1 << 30}, MaxTotal: 1 << 30}
	} else {
		backend.Tasks.MaxPerOwner, backend.Tasks.MaxKept = 1<<30, 1<<30
		backend.Attach(srv)
	}
	b.Cleanup(func() { srv.Close() })
	return srv.HTTPHandler()
}

// post serves one 2026-07-28 request of method and name on h, in
// process, and returns the answer, which must hold want.
func post(b *testing.B, h http.Handler, body []byte, method, name, want string) []byte {
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	got := w.Body.Bytes()
	if w.Code != http.StatusOK || !bytes.Contains(got, []byte(want)) {
		b.Fatalf("%s: status %d, answer %.300s; want %s", method, w.Code, got, want)
	}
	return got
}

// taskLife calls the task tool on h, which answers with a task, then
// sends tasks/get at once until the task has completed, as the load run
// does. It returns the tasks/get it took.
func taskLife(b *testing.B, h http.Handler, call []byte, tool string, release chan struct{}) int {
	created := post(b, h, call, "tools/call", tool, `"resultType":"task"`)
	if release != nil {
		release <- struct{}{}
	}
	i := bytes.Index(created, []byte(`"taskId":"`)) + len(`"taskId":"`)
	id := string(created[i : i+bytes.IndexByte(created[i:], '"')])
	get := []byte(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{` + tasksMeta + `"taskId":"` + id + `"}}`)
	for n := 1; ; n++ {
		runtime.Gosched() // as a client waits for the network: the task's run goes on meanwhile
		got := post(b, h, get, "tasks/get", id, `"taskId":"`+id+`"`)
		switch {
		case bytes.Contains(got, []byte(`"status":"completed"`)) && bytes.Contains(got, []byte(`updated 10 prices in emea`)):
			return n
		case !bytes.Contains(got, []byte(`"status":"working"`)):
			b.Fatalf("tasks/get: %.300s; want it working or completed", got)
		}
	}
}

// BenchmarkTaskLife is the life of a 2026-07-28 task through the
// built-in server's HTTP handler, in process: tools/call of the
// reference tool as a task, then tasks/get until it has completed, the
// tasks in memory and in a redis-server (skipped without one), beside a
// stateless call of the reference tool and a tasks/get alone; the
// -detached ones make the call a task before its handler ends. Besides the time, it reports the
// processor time of the process per life (cpu-µs/op), and on Redis that
// of redis-server (redis-cpu-µs/op), the commands Redis ran (those inside
// scripts included, redis-cmds/op) and the round trips the server made
// (rtt/op).
//
//	go test -run '^$' -bench TaskLife -count 8 ./bench
func BenchmarkTaskLife(b *testing.B) {
	callReq := callRequest(1, 10)
	stateless := bytes.Replace(callReq, []byte(`"params":{`), []byte(`"params":{`+statelessMeta), 1)
	task := bytes.Replace(callReq, []byte(`"params":{"name":"bulk_price_update"`), []byte(`"params":{`+tasksMeta+`"name":"`+servers.TaskTool+`"`), 1)
	b.Run("stateless-call", func(b *testing.B) {
		h := lifeServer(b, nil, nil)
		measure(b, nil, func() int {
			post(b, h, stateless, "tools/call", "bulk_price_update", "updated 10 prices in emea")
			return 0
		})
	})
	b.Run("get", func(b *testing.B) {
		// A tasks/get of a completed task alone: with the call, the
		// least a life costs.
		h := lifeServer(b, nil, nil)
		created := post(b, h, task, "tools/call", servers.TaskTool, `"resultType":"task"`)
		i := bytes.Index(created, []byte(`"taskId":"`)) + len(`"taskId":"`)
		id := string(created[i : i+bytes.IndexByte(created[i:], '"')])
		get := []byte(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{` + tasksMeta + `"taskId":"` + id + `"}}`)
		measure(b, nil, func() int {
			post(b, h, get, "tasks/get", id, `"status":"completed"`)
			return 0
		})
	})
	held := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + tasksMeta + `"name":"` + heldTool + `","arguments":{}}}`)
	for _, detached := range []bool{false, true} {
		suffix, call, tool := "", task, servers.TaskTool
		if detached {
			// The call becomes a task before its handler ends, which then
			// stores its end: a longer call's life.
			suffix, call, tool = "-detached", held, heldTool
		}
		release := func() chan struct{} {
			if detached {
				return make(chan struct{}, 1024)
			}
			return nil
		}
		b.Run("memory"+suffix, func(b *testing.B) {
			rel := release()
			h := lifeServer(b, nil, rel)
			measure(b, nil, func() int { return taskLife(b, h, call, tool, rel) })
		})
		b.Run("redis"+suffix, func(b *testing.B) {
			rs := redistest.Start(b)
			client, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{rs.Addr()}})
			if err != nil {
				b.Fatal(err)
			}
			counted := &redistest.Trips{Client: client}
			backend := mcpredis.New(counted)
			b.Cleanup(func() { backend.Close() })
			rel := release()
			h := lifeServer(b, backend, rel)
			measure(b, &redisMeter{client: client, counted: counted}, func() int { return taskLife(b, h, call, tool, rel) })
		})
	}
}

// measure runs op b.N times from 16 goroutines (8 a processor on two)
// and reports the processor time per op, the tasks/get an op took, and
// what rm measures of Redis.
func measure(b *testing.B, rm *redisMeter, op func() int) {
	b.ReportAllocs()
	var gets atomic.Int64
	for range 100 { // warm: scripts loaded, connections open
		op()
	}
	rm.start(b)
	cpu := processCPU()
	b.ResetTimer()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			gets.Add(int64(op()))
		}
	})
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(processCPU()-cpu)/n/1e3, "cpu-µs/op")
	if gets.Load() > 0 {
		b.ReportMetric(float64(gets.Load())/n, "gets/op")
	}
	rm.stop(b, n)
}

// redisMeter measures what a run costs Redis: its processor time and
// the commands it ran, from INFO, and the server's round trips.
type redisMeter struct {
	client  rueidis.Client // not counted
	counted *redistest.Trips
	cpu     float64
	cmds    map[string]int64
	trips   int64
}

func (rm *redisMeter) start(b *testing.B) {
	if rm == nil {
		return
	}
	rm.cpu, rm.cmds = rm.info(b)
	rm.trips = rm.counted.Count()
}

// stop reports the costs per op of n ops since start, and logs the
// commands by name.
func (rm *redisMeter) stop(b *testing.B, n float64) {
	if rm == nil {
		return
	}
	trips := rm.counted.Count() - rm.trips
	cpu, cmds := rm.info(b)
	var total int64
	var by strings.Builder
	for name, calls := range cmds {
		if d := calls - rm.cmds[name]; d > 0 && name != "info" {
			total += d
			by.WriteString(" " + name + "=" + strconv.FormatFloat(float64(d)/n, 'f', 2, 64))
		}
	}
	b.ReportMetric((cpu-rm.cpu)*1e6/n, "redis-cpu-µs/op")
	b.ReportMetric(float64(total)/n, "redis-cmds/op")
	b.ReportMetric(float64(trips)/n, "rtt/op")
	b.Logf("N=%d, Redis commands per op:%s", b.N, by.String())
}

// info reads the processor time redis-server has spent, in seconds, and
// the calls of each command, from INFO.
func (rm *redisMeter) info(b *testing.B) (float64, map[string]int64) {
	text, err := rm.client.Do(context.Background(), rm.client.B().Info().Section("cpu").Section("commandstats").Build()).ToString()
	if err != nil {
		b.Fatal(err)
	}
	var cpu float64
	cmds := map[string]int64{}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if k, v, ok := strings.Cut(line, ":"); ok {
			switch {
			case k == "used_cpu_sys" || k == "used_cpu_user":
				f, _ := strconv.ParseFloat(v, 64)
				cpu += f
			case strings.HasPrefix(k, "cmdstat_"):
				calls, _, _ := strings.Cut(strings.TrimPrefix(v, "calls="), ",")
				n, _ := strconv.ParseInt(calls, 10, 64)
				cmds[strings.TrimPrefix(k, "cmdstat_")] = n
			}
		}
	}
	return cpu, cmds
}
