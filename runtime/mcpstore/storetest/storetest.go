// Package storetest checks a store against its contract in
// runtime/mcpstore, as testing/fstest checks a file system and
// testing/slogtest a log handler. A store author calls it from a test
// of their own package:
//
//	func TestStore(t *testing.T) {
//		storetest.TaskStore(t, func(t *testing.T) mcpstore.SharedTaskStore {
//			return mystore.New()
//		})
//	}
//
// [TaskStore], [SessionStore], [EventLog] and [Bus] each run one
// subtest per clause of their contract, named after the clause ("terminal
// status is final", "hold lapses leaves will"), so that a failure names
// the clause a store breaks. Each clause runs in parallel with the
// others, on a store of its own: newStore returns a new, empty store on
// every call (and is called once more first, to see what the store
// implements).
//
// Some clauses are about time: a task's TTL, a session's idle timeout,
// a stream's hold. When the store returned implements [Clock], the
// suite moves the store's time with it. Otherwise it runs each clause
// inside a testing/synctest bubble, where the store's time.Now and
// timers follow the bubble's fake clock; that suits a store in the
// process, but not one that talks to a server, which must implement
// Clock. Either way the suite never waits for a TTL in real time.
//
// A store shared by several replicas can implement [Replicator] too:
// then the clauses about replicas (a task created on one is found on
// another, a bus event reaches every replica) use a second handle.
package storetest

import (
	"testing"
	"testing/synctest"
	"time"
)

// wait bounds each wait of the suite for what a store does on its own,
// such as a delivery or a follower's end. A store that works takes far
// less; inside a bubble it costs no real time.
const wait = 10 * time.Second

// Clock is implemented by a store under test whose time the suite
// moves, such as a store on a server with a clock of its own.
type Clock interface {
	// Now returns the store's time.
	Now() time.Time
	// Advance moves the store's time on by d, as if d had passed: TTLs,
	// idle timeouts and holds lapse. When the store's time cannot move,
	// as a real server's cannot, Advance may skip the test.
	Advance(d time.Duration)
}

// Replicator is implemented by a shared store under test that opens a
// second handle on its state, as another replica of the server holds.
// S is the store's contract, such as mcpstore.SessionStore.
type Replicator[S any] interface {
	Replica() S
}

// env is what a clause checks: a store, another replica's handle on it
// (the store itself without a Replicator), and its clock.
type env[S any] struct {
	s, r  S
	clock Clock
}

// bubbleClock is the clock of a store inside a synctest bubble.
type bubbleClock struct{}

func (bubbleClock) Now() time.Time          { return time.Now() }
func (bubbleClock) Advance(d time.Duration) { time.Sleep(d) }

// now returns the store's time, without a monotonic reading.
func (e *env[S]) now() time.Time { return e.clock.Now().UTC().Round(0) }

// clause is one clause of a contract and its check.
type clause[S any] struct {
	name  string
	check func(t *testing.T, e *env[S])
}

// run runs each clause in a parallel subtest named after it, on a store
// of its own, inside a bubble unless the store has a Clock.
func run[S any](t *testing.T, newStore func(t *testing.T) S, clauses []clause[S]) {
	t.Helper()
	_, clocked := any(newStore(t)).(Clock)
	for _, c := range clauses {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if clocked {
				c.check(t, open(t, newStore))
				return
			}
			synctest.Test(t, func(t *testing.T) { c.check(t, open(t, newStore)) })
		})
	}
}

// open makes a store for a clause.
func open[S any](t *testing.T, newStore func(t *testing.T) S) *env[S] {
	s := newStore(t)
	e := &env[S]{s: s, r: s, clock: bubbleClock{}}
	if c, ok := any(s).(Clock); ok {
		e.clock = c
	}
	if r, ok := any(s).(Replicator[S]); ok {
		e.r = r.Replica()
	}
	return e
}

// within receives from c, failing t after the suite's wait.
func within[T any](t *testing.T, c <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(wait):
		t.Fatalf("%s: nothing after %v", what, wait)
		var zero T
		return zero
	}
}
