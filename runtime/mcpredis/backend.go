// Package mcpredis keeps the shared state of an mcpserver.Server in Redis
// (or Valkey), so that several replicas behind a load balancer serve the
// same clients and nothing is lost when one of them dies: tasks with
// their leases and answers, 2025 sessions, the SSE event log, the bus
// between replicas and the DPoP proofs taken.
//
//	b, err := mcpredis.Open(ctx, "redis://127.0.0.1:6379/0")
//	if err != nil { ... }
//	defer b.Close()
//	b.Attach(srv) // before srv serves
//
// Every key is hash-tagged by the task or session it belongs to (the
// owner's index by its owner), and on Redis Cluster every script touches
// one slot. On one server, a task's create and its end are one script
// each, across slots. Only Redis 7.0 commands are used.
//
// Only this package links a Redis client: a server that does not import
// it builds without one. Its stores implement the contracts of
// [github.com/mcpgen/mcpgen/runtime/mcpstore], and it imports no server:
// Attach takes any [mcpstore.Attacher].
package mcpredis

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// Backend is a connection to Redis and the stores built on it. Open one
// per process and attach it to the server.
type Backend struct {
	// Tasks, Sessions, Events, Bus and Replay are what Attach gives the
	// server; their fields tune them and are read while serving, so set
	// them before Attach.
	Tasks    *TaskStore
	Sessions *SessionStore
	Events   *EventLog
	Bus      *Bus
	Replay   *ReplayCache // the DPoP proofs taken, for every replica

	client rueidis.Client
	prefix string
	token  string // tells this backend's bus events from other processes'
	// uncached is set when the client was opened without client-side
	// caching, so that nothing waits for cached copies to expire.
	uncached bool

	closeOnce sync.Once
	done      chan struct{}
	wg        sync.WaitGroup
}

// Default timeouts of the connection, used when the URL sets none, so
// that a request fails soon while Redis is unreachable instead of hanging.
const (
	DefaultDialTimeout  = time.Second
	DefaultWriteTimeout = 2 * time.Second
)

// Open connects to the Redis server (or cluster) at url, of the form
// redis://[user:password@]host:port/db, rediss:// for TLS, with the
// query parameters of [rueidis.ParseURL] (client_cache=0 turns client-side
// caching off, for servers without CLIENT TRACKING). It fails when the
// server does not answer.
//
// For a Redis Cluster, name one node or several, the others as addr
// parameters, with database 0:
//
//	redis://10.0.0.1:6379/0?addr=10.0.0.2:6379&addr=10.0.0.3:6379
//
// The client asks the nodes for the cluster's slots and follows MOVED
// and ASK redirections; one node that answers is enough to start.
func Open(ctx context.Context, url string) (*Backend, error) {
	opt, err := rueidis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("mcpredis: %w", err)
	}
	if opt.Dialer.Timeout == 0 {
		opt.Dialer.Timeout = DefaultDialTimeout
	}
	if opt.ConnWriteTimeout == 0 {
		opt.ConnWriteTimeout = DefaultWriteTimeout
	}
	return OpenOptions(ctx, opt)
}

// OpenOptions connects with the options of a rueidis client, for what a
// URL cannot say (a Sentinel or Cluster set-up, TLS certificates).
// Without a RetryDelay of its own, the client tries commands again as
// DefaultRetryBudget describes, writes included. With one, only reads
// are tried again, as that function decides.
func OpenOptions(ctx context.Context, opt rueidis.ClientOption) (*Backend, error) {
	return openOptions(ctx, opt, DefaultRetryBudget)
}

// openOptions is OpenOptions with a retry budget of its own.
func openOptions(ctx context.Context, opt rueidis.ClientOption, budget time.Duration) (*Backend, error) {
	var r *retrier
	if opt.RetryDelay == nil {
		r = &retrier{budget: budget}
		opt.RetryDelay = r.delay
	}
	client, err := rueidis.NewClient(opt)
	if err != nil {
		return nil, fmt.Errorf("mcpredis: connecting: %w", err)
	}
	b := New(client)
	if r != nil {
		b.client = retrying{client, r}
	}
	b.uncached = opt.DisableCache
	if err := b.Ping(ctx); err != nil {
		client.Close()
		return nil, err
	}
	return b, nil
}

// DefaultRetryBudget is how long a command of Open's client goes on
// being tried while Redis cannot be reached. It covers a replica's
// promotion with a cluster-node-timeout of a second, and the client's
// look at the new slot map (2 to 4 s in all, as docs/deployment.md
// measures), or a restart by a supervisor.
//
// The tries are 50 ms, 100 ms, 200 ms, 400 ms, then 500 ms apart. A read
// is tried again after any failure of its connection. A write is tried
// again only when Redis cannot have run it: its connection could not be
// made, or Redis answered CLUSTERDOWN, TRYAGAIN or LOADING. A write whose
// connection broke after it was sent may have run, and fails. Tries stop
// when the command's context ends. Once a command has used its whole
// budget, the others fail at their first failure, until one succeeds:
// a long outage fails requests at once, as Redis answers nothing.
const DefaultRetryBudget = 5 * time.Second

// retrier is the retry policy of DefaultRetryBudget.
type retrier struct {
	budget time.Duration
	// spent is set once a command used its whole budget, and cleared
	// by the next command Redis answers.
	spent atomic.Bool
}

// delay is a rueidis RetryDelayFn: how long to wait before trying cmd
// again after its attempts-th failure with err, or -1 for not again.
func (r *retrier) delay(attempts int, cmd rueidis.Completed, err error) time.Duration {
	if r.spent.Load() || (!cmd.IsReadOnly() && !unsent(err)) {
		return -1
	}
	waited := time.Duration(0)
	for n := 1; n < attempts; n++ {
		waited += retryStep(n)
	}
	d := min(retryStep(attempts), r.budget-waited)
	if d <= 0 {
		r.spent.Store(true)
		return -1
	}
	return d
}

// answered notes a result: one that Redis answered, and not only to
// say it is not ready, ends a spent budget.
func (r *retrier) answered(res rueidis.RedisResult) {
	if !r.spent.Load() {
		return
	}
	if err := res.Error(); err == nil || res.NonRedisError() == nil && !unsent(err) {
		r.spent.Store(false)
	}
}

// retryStep is the wait after a command's attempts-th failure.
func retryStep(attempts int) time.Duration {
	if attempts > 4 {
		return 500 * time.Millisecond
	}
	return 25 * time.Millisecond << attempts
}

// unsent reports whether err says that Redis did not run the command:
// its connection could not be made, or Redis refused it while its
// cluster, or the data set it loads, is not ready.
func unsent(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	if re, ok := rueidis.IsRedisErr(err); ok {
		return re.IsClusterDown() || re.IsTryAgain() || re.IsLoading()
	}
	return false
}

// retrying is a client whose commands are all retryable, writes
// included, as its retrier decides, and which tells the retrier what
// Redis answered. No pipeline of mcpredis mixes reads with writes: a
// read tried again sends its whole pipeline again.
type retrying struct {
	rueidis.Client
	r *retrier
}

func (c retrying) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	res := c.Client.Do(ctx, cmd.ToRetryable())
	c.r.answered(res)
	return res
}

// DoMulti marks the commands of multi in place.
func (c retrying) DoMulti(ctx context.Context, multi ...rueidis.Completed) []rueidis.RedisResult {
	for i := range multi {
		multi[i] = multi[i].ToRetryable()
	}
	res := c.Client.DoMulti(ctx, multi...)
	if len(res) > 0 {
		c.r.answered(res[0])
	}
	return res
}

func (c retrying) DoMultiCache(ctx context.Context, multi ...rueidis.CacheableTTL) []rueidis.RedisResult {
	res := c.Client.DoMultiCache(ctx, multi...)
	if len(res) > 0 {
		c.r.answered(res[0])
	}
	return res
}

// New returns a backend on a client the caller made; Close closes it.
func New(client rueidis.Client) *Backend {
	b := &Backend{client: client, prefix: "mcp:", token: rand.Text()[:12], done: make(chan struct{})}
	b.Tasks = &TaskStore{b: b}
	b.Sessions = &SessionStore{b: b}
	b.Events = &EventLog{b: b}
	b.Bus = &Bus{b: b}
	b.Replay = &ReplayCache{b: b}
	return b
}

// Attach makes srv, an mcpserver.Server, keep its tasks, 2025 sessions
// and SSE events in Redis, talk to the other replicas through the bus
// and share with them the DPoP proofs it took (Server.DPoPReplay). Call
// it before srv serves. Sessions expire after srv's SessionIdleTimeout
// without a request, as they do in one process.
func (b *Backend) Attach(srv mcpstore.Attacher) {
	idle := srv.AttachStores(mcpstore.Stores{Tasks: b.Tasks, Sessions: b.Sessions, Events: b.Events, Bus: b.Bus, Replay: b.Replay})
	b.Sessions.idle = idle
	b.Events.idle = idle
}

// Ping reports whether Redis answers, for the readiness check a load
// balancer makes: a replica whose Redis is unreachable cannot serve.
func (b *Backend) Ping(ctx context.Context) error {
	if err := b.client.Do(ctx, b.client.B().Ping().Build()).Error(); err != nil {
		return fmt.Errorf("mcpredis: ping: %w", err)
	}
	return nil
}

// Close stops following the bus and closes the connection.
func (b *Backend) Close() error {
	b.closeOnce.Do(func() {
		close(b.done)
		b.client.Close()
		b.wg.Wait()
	})
	return nil
}

// Client returns the Redis client, for the application's own use of the
// same connection (for example to keep its catalog the same on every
// replica through publish/subscribe). Its writes are not retried unless
// marked so (Completed.ToRetryable).
func (b *Backend) Client() rueidis.Client {
	if r, ok := b.client.(retrying); ok {
		return r.Client
	}
	return b.client
}

// Key names. The part in braces is the hash tag that puts a task's or a
// session's keys in one Cluster slot.
func (b *Backend) taskKey(id string) string      { return b.prefix + "{t:" + id + "}" }
func (b *Backend) answersKey(id string) string   { return b.prefix + "{t:" + id + "}:a" }
func (b *Backend) ownerKey(o, k string) string   { return b.prefix + "{o:" + o + "}:" + k }
func (b *Backend) sessionKey(id string) string   { return b.prefix + "{s:" + id + "}" }
func (b *Backend) subsKey(id string) string      { return b.prefix + "{s:" + id + "}:u" }
func (b *Backend) streamsKey(id string) string   { return b.prefix + "{s:" + id + "}:es" }
func (b *Backend) streamKey(id, s string) string { return b.prefix + "{s:" + id + "}:e:" + s }
func (b *Backend) holdKey(id, s string) string   { return b.prefix + "{s:" + id + "}:h:" + s }
func (b *Backend) willKey(id, s string) string   { return b.prefix + "{s:" + id + "}:w:" + s }
func (b *Backend) busKey() string                { return b.prefix + "bus" }
func (b *Backend) leasesKey() string             { return b.prefix + "{leases}" }
func (b *Backend) replayKey(id string) string    { return b.prefix + "{p:" + id + "}" }

// cluster reports whether the client talks to a Redis Cluster, where a
// script may touch the keys of one slot only. Elsewhere a step that
// spans slots runs as one script.
func (b *Backend) cluster() bool { return b.client.Mode() == rueidis.ClientModeCluster }

// failed wraps an error of Redis itself, so that the server answers it as
// an internal error rather than as a fact about the task or session.
func failed(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("mcpredis: %s: %w", what, err)
}

// closed reports whether err comes from the backend being closed.
func closed(err error) bool { return errors.Is(err, rueidis.ErrClosing) }
