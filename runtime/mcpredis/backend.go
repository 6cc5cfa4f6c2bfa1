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
// owner's index by its owner), and every script touches one slot, so the
// backend also runs on Redis Cluster. Only Redis 7.0 commands are used.
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
	"sync"
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
// URL cannot say (a Sentinel or Cluster set-up, TLS certificates). Without
// a RetryDelay of its own, a read is retried MaxRetries times only: the
// client's default retries until the request's context ends, which would
// hold a request for as long as Redis is down.
func OpenOptions(ctx context.Context, opt rueidis.ClientOption) (*Backend, error) {
	if opt.RetryDelay == nil {
		opt.RetryDelay = retryDelay
	}
	client, err := rueidis.NewClient(opt)
	if err != nil {
		return nil, fmt.Errorf("mcpredis: connecting: %w", err)
	}
	b := New(client)
	b.uncached = opt.DisableCache
	if err := b.Ping(ctx); err != nil {
		client.Close()
		return nil, err
	}
	return b, nil
}

// MaxRetries is how often a read that failed for the connection is tried
// again, 50 ms, 100 ms and 200 ms apart.
const MaxRetries = 3

func retryDelay(attempts int, _ rueidis.Completed, _ error) time.Duration {
	if attempts >= MaxRetries {
		return -1
	}
	return 50 * time.Millisecond << attempts
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
// replica through publish/subscribe).
func (b *Backend) Client() rueidis.Client { return b.client }

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
