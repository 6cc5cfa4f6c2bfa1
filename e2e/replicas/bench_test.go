package replicas

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/mcpredis"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// benchServer serves one echo tool over HTTP, on Redis when backend is
// set.
func benchServer(tb testing.TB, backend *mcpredis.Backend) *httptest.Server {
	tool := mcprt.Tool{Name: "echo", InputSchema: []byte(`{"type":"object"}`),
		Handler: func(context.Context, []byte) mcprt.Result { return mcprt.TextResult("ok") }}
	srv := mcpserver.New(mcprt.Identity{Name: "bench", Version: "1"}, tool)
	if backend != nil {
		backend.Attach(srv)
	}
	hs := httptest.NewServer(srv.HTTPHandler())
	tb.Cleanup(hs.Close)
	return hs
}

func post(tb testing.TB, url, body string, h map[string]string) *http.Response {
	req, err := mcpRequest(context.Background(), "POST", url, body, h)
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		tb.Fatalf("status %d", resp.StatusCode)
	}
	return resp
}

// BenchmarkReplicas compares, in one run, tools/call served from memory
// and with the Redis backend attached (2026-07-28 stateless, and in a
// 2025 session), and measures task lifecycles on the Redis store: on
// one redis-server, and on a Redis Cluster without and with
// TaskStore.WaitReplicas.
//
//	go test -run '^$' -bench Replicas -benchtime 2000x ./e2e/replicas
func BenchmarkReplicas(b *testing.B) {
	rs := redistest.Start(b)
	backend, err := mcpredis.Open(context.Background(), rs.URL())
	if err != nil {
		b.Fatal(err)
	}
	defer backend.Close()
	backend.Sessions.CacheTTL = -1 // every request reads its session from Redis
	cached, err := mcpredis.Open(context.Background(), rs.URL())
	if err != nil {
		b.Fatal(err)
	}
	defer cached.Close()
	call2026 := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo"}}`
	h2026 := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo"}
	for _, mode := range []struct {
		name    string
		backend *mcpredis.Backend
	}{{"memory", nil}, {"redis", backend}, {"redis-cached", cached}} {
		hs := benchServer(b, mode.backend)
		b.Run("2026-call/"+mode.name, func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					post(b, hs.URL, call2026, h2026)
				}
			})
		})
		b.Run("2025-session-call/"+mode.name, func(b *testing.B) {
			resp := post(b, hs.URL, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`, nil)
			h := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-06-18"}
			post(b, hs.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					post(b, hs.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`, h)
				}
			})
		})
	}
	b.Run("task-create-get-end/redis", func(b *testing.B) { benchTaskLife(b, backend.Tasks) })

	// On a Redis Cluster, without and with waiting for a replica at
	// each task's end.
	rc := redistest.StartCluster(b)
	on, err := mcpredis.Open(context.Background(), rc.URL())
	if err != nil {
		b.Fatal(err)
	}
	defer on.Close()
	b.Run("task-create-get-end/redis-cluster", func(b *testing.B) {
		on.Tasks.WaitReplicas = 0
		benchTaskLife(b, on.Tasks)
	})
	b.Run("task-create-get-end/redis-cluster-wait", func(b *testing.B) {
		on.Tasks.WaitReplicas = 1
		benchTaskLife(b, on.Tasks)
	})
}

// benchTaskLife creates, reads and ends a task per iteration on store.
func benchTaskLife(b *testing.B, store *mcpredis.TaskStore) {
	store.MaxPerOwner = 1 << 30
	var n atomic.Int64
	n.Store(time.Now().UnixNano()) // ids unique across runs on one Redis
	b.SetParallelism(8)            // 16 goroutines on 2 cores, as in the store's other measurements
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			now := time.Now().UTC()
			i := n.Add(1)
			id := "bench-" + strconv.FormatInt(i, 10)
			t := &mcpstore.Task{ID: id, Owner: "o" + strconv.FormatInt(i%16, 10), Tool: "echo", Status: mcpstore.TaskWorking,
				CreatedAt: now, UpdatedAt: now, TTL: time.Minute, Runner: "r1", LeaseUntil: now.Add(4 * time.Second)}
			if err := store.Create(ctx, t); err != nil {
				b.Fatal(err)
			}
			if _, err := store.Get(ctx, t.Owner, id); err != nil {
				b.Fatal(err)
			}
			t.Status = mcpstore.TaskCompleted
			if err := store.Update(ctx, t); err != nil {
				b.Fatal(err)
			}
		}
	})
}
