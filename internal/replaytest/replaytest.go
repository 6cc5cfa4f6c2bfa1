// Package replaytest is the contract of a DPoP replay cache
// (mcpserver.ReplayCache) as one suite, which every implementation runs
// on itself: the memory cache of the gate and the Redis one.
package replaytest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Cache is a replay cache: mcpserver.ReplayCache, restated so that this
// package imports neither it nor the gate.
type Cache interface {
	Use(ctx context.Context, id string, until time.Time) (first bool, err error)
}

// TTL is how long the suite asks entries to be kept; elapse is asked to
// move the cache's clock past it.
const TTL = 2 * time.Second

// Run checks c: a first use is first and the next are not; ids are
// independent; an entry is forgotten once its time has passed; of
// concurrent uses of one id, exactly one is first. now is the cache's
// clock; elapse moves it on by d (fast-forwarding a fake, or sleeping).
func Run(t *testing.T, c Cache, now func() time.Time, elapse func(d time.Duration)) {
	t.Helper()
	ctx := context.Background()
	use := func(id string, want bool) {
		t.Helper()
		first, err := c.Use(ctx, id, now().Add(TTL))
		if err != nil {
			t.Fatalf("Use(%q): %v", id, err)
		}
		if first != want {
			t.Errorf("Use(%q) = %v, want %v", id, first, want)
		}
	}
	use("a", true)
	use("a", false)
	use("b", true)
	use("a", false)
	elapse(TTL + 100*time.Millisecond)
	use("a", true)
	use("a", false)

	var firsts atomic.Int32
	var wg sync.WaitGroup
	until := now().Add(TTL)
	for range 16 {
		wg.Go(func() {
			first, err := c.Use(ctx, "c", until)
			if err != nil {
				t.Error(err)
			}
			if first {
				firsts.Add(1)
			}
		})
	}
	wg.Wait()
	if n := firsts.Load(); n != 1 {
		t.Errorf("16 concurrent uses of one id: %d first, want 1", n)
	}
}
