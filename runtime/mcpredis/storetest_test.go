package mcpredis

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
	"github.com/mcpgen/mcpgen/runtime/mcpstore/storetest"
)

// The stores keep their contracts on miniredis, whose clock the suite
// moves, and on a real redis-server and a Redis Cluster, whose clocks it
// cannot: there the clauses about time are skipped, as miniredis runs
// them.

// rig is one Redis server under the suite, and the stores' clock.
type rig struct {
	t      *testing.T
	url    string
	mr     *miniredis.Miniredis // nil on a real server
	prefix string               // of the rig's keys, when it shares its server
	wait   int                  // the TaskStore's WaitReplicas

	mu sync.Mutex
	at time.Time
}

// miniRig starts a miniredis, which has no CLIENT TRACKING (hence
// client_cache=0), with its clock frozen at the rig's.
func miniRig(t *testing.T) *rig {
	mr := miniredis.RunT(t)
	r := &rig{t: t, url: "redis://" + mr.Addr() + "/0?client_cache=0", mr: mr, at: time.Now().UTC()}
	mr.SetTime(r.at)
	return r
}

// realRig starts a redis-server, or skips t without one.
func realRig(t *testing.T) *rig {
	return &rig{t: t, url: redistest.Start(t).URL(), at: time.Now().UTC()}
}

// clusterRigs returns rigs on one Redis Cluster, started for t, or skips
// t without redis-server or under -short. Each rig's keys have a prefix
// of their own, so that the suite's parallel clauses share the cluster.
func clusterRigs(t *testing.T) func(t *testing.T) *rig {
	c := redistest.StartCluster(t)
	var n atomic.Int64
	return func(t *testing.T) *rig {
		return &rig{t: t, url: c.URL(), at: time.Now().UTC(), prefix: "r" + strconv.FormatInt(n.Add(1), 10) + ":mcp:"}
	}
}

// open returns a backend on the rig's server, as a replica has, its
// tasks on the rig's clock.
func (r *rig) open() *Backend {
	b, err := Open(context.Background(), r.url)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { b.Close() })
	if r.prefix != "" {
		b.prefix = r.prefix
	}
	if r.mr != nil {
		// The suite moves miniredis's clock, which no blocked XREAD
		// sees: a follower looks again after a short block, not a second.
		b.Tasks.now = r.Now
		b.Events.block = 10 * time.Millisecond
	}
	b.Tasks.TaskLimits = mcpstore.TaskLimits{MaxPerOwner: 8, MaxKept: 12}
	// A redis-server without replicas answers WAIT at its timeout only.
	b.Tasks.WaitReplicas, b.Tasks.WaitTimeout = r.wait, 20*time.Millisecond
	return b
}

// Now implements storetest.Clock.
func (r *rig) Now() time.Time {
	if r.mr == nil {
		return time.Now()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.at
}

// Advance implements storetest.Clock: miniredis's keys expire and the
// stores' clock moves; a real server's time cannot move.
func (r *rig) Advance(d time.Duration) {
	if r.mr == nil {
		r.t.Skip("a real redis-server's time cannot be moved: the miniredis run checks this clause")
	}
	r.mu.Lock()
	r.at = r.at.Add(d)
	r.mr.SetTime(r.at)
	r.mu.Unlock()
	r.mr.FastForward(d)
}

// The stores under the suite: each opens a replica on its rig.
type (
	rigTasks struct {
		*TaskStore
		*rig
	}
	rigSessions struct {
		*SessionStore
		*rig
	}
	rigEvents struct {
		*EventLog
		*rig
	}
	rigBus struct {
		*Bus
		*rig
	}
)

func (s rigTasks) Replica() mcpstore.SharedTaskStore { return rigTasks{s.open().Tasks, s.rig} }
func (s rigSessions) Replica() mcpstore.SessionStore { return rigSessions{s.open().Sessions, s.rig} }
func (s rigEvents) Replica() mcpstore.EventLog       { return rigEvents{s.open().Events, s.rig} }
func (s rigBus) Replica() mcpstore.Bus               { return rigBus{s.open().Bus, s.rig} }

// rigs are the servers the suite runs on. Each starts what its rigs
// share for t, and returns a function that makes one rig a store.
var rigs = []struct {
	name  string
	start func(t *testing.T) func(t *testing.T) *rig
}{
	{"miniredis", func(*testing.T) func(*testing.T) *rig { return miniRig }},
	{"redis-server", func(*testing.T) func(*testing.T) *rig { return realRig }},
	{"cluster", clusterRigs},
}

// contracts are the suite's four, the task store's twice, each run over
// the stores of rigs mk makes.
var contracts = []struct {
	name string
	run  func(t *testing.T, mk func(t *testing.T) *rig)
}{
	{"TaskStore", func(t *testing.T, mk func(t *testing.T) *rig) {
		storetest.TaskStore(t, func(t *testing.T) mcpstore.SharedTaskStore { r := mk(t); return rigTasks{r.open().Tasks, r} })
	}},
	// With WaitReplicas, a task's end goes by EVAL, then WAIT on the
	// same connection.
	{"TaskStore waiting for replicas", func(t *testing.T, mk func(t *testing.T) *rig) {
		storetest.TaskStore(t, func(t *testing.T) mcpstore.SharedTaskStore {
			r := mk(t)
			r.wait = 1
			return rigTasks{r.open().Tasks, r}
		})
	}},
	{"SessionStore", func(t *testing.T, mk func(t *testing.T) *rig) {
		storetest.SessionStore(t, func(t *testing.T) mcpstore.SessionStore { r := mk(t); return rigSessions{r.open().Sessions, r} })
	}},
	{"EventLog", func(t *testing.T, mk func(t *testing.T) *rig) {
		storetest.EventLog(t, func(t *testing.T) mcpstore.EventLog { r := mk(t); return rigEvents{r.open().Events, r} })
	}},
	{"Bus", func(t *testing.T, mk func(t *testing.T) *rig) {
		storetest.Bus(t, func(t *testing.T) mcpstore.Bus { r := mk(t); return rigBus{r.open().Bus, r} })
	}},
}

// TestContracts keeps the contracts on every rig. On the cluster of
// three primaries with one replica each, every script and transaction
// must touch one slot, or the cluster refuses it with CROSSSLOT.
func TestContracts(t *testing.T) {
	t.Parallel()
	for _, rg := range rigs {
		t.Run(rg.name, func(t *testing.T) {
			t.Parallel()
			mk := rg.start(t)
			for _, c := range contracts {
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					c.run(t, mk)
				})
			}
		})
	}
}
