package mcpstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// clockStore returns a store whose clock the test moves.
func clockStore() (*MemoryTaskStore, *time.Time) {
	now := time.Unix(1_700_000_000, 0)
	m := &MemoryTaskStore{}
	m.now = func() time.Time { return now }
	return m, &now
}

func mustCreate(t *testing.T, m *MemoryTaskStore, id, owner string, created time.Time, ttl time.Duration) {
	t.Helper()
	if err := m.Create(context.Background(), &Task{ID: id, Owner: owner, Status: TaskWorking, CreatedAt: created, TTL: ttl}); err != nil {
		t.Fatalf("Create(%s): %v", id, err)
	}
}

func listIDs(t *testing.T, m *MemoryTaskStore, owner, after string, limit int) ([]string, string) {
	t.Helper()
	page, next, err := m.List(context.Background(), owner, after, limit)
	if err != nil {
		t.Fatalf("List(%q, %q): %v", owner, after, err)
	}
	var ids []string
	for _, p := range page {
		ids = append(ids, p.ID)
	}
	return ids, next
}

func TestMemoryTaskStoreExpiresSoonestFirst(t *testing.T) {
	t.Parallel()
	m, now := clockStore()
	start := *now
	mustCreate(t, m, "long", "o", start, time.Hour)
	mustCreate(t, m, "short", "o", start, time.Minute)
	mustCreate(t, m, "forever", "o", start, 0)
	*now = start.Add(2 * time.Minute)
	if _, err := m.Get(context.Background(), "o", "short"); !errors.Is(err, ErrTaskNotFound) {
		t.Errorf("Get of an expired task: %v, want ErrTaskNotFound", err)
	}
	if n := m.Len(); n != 2 {
		t.Errorf("Len after the short TTL = %d, want 2 (the expired task removed)", n)
	}
	ids, _ := listIDs(t, m, "o", "", 0)
	if fmt.Sprint(ids) != "[long forever]" {
		t.Errorf("List = %v, want [long forever]", ids)
	}
	*now = start.Add(2 * time.Hour)
	ids, _ = listIDs(t, m, "o", "", 0)
	if fmt.Sprint(ids) != "[forever]" || m.Len() != 1 {
		t.Errorf("after the long TTL: List = %v, Len = %d; want [forever], 1", ids, m.Len())
	}
}

// BenchmarkMemoryTaskStore measures one task's life (create, get, a
// renewal, end) beside a store already holding n tasks with leases, and
// a look for lapsed leases: the cost must not grow with n.
func BenchmarkMemoryTaskStore(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprint("stored=", n), func(b *testing.B) {
			m, now := clockStore()
			m.MaxPerOwner, m.MaxTotal = n+10, n+10
			for i := range n {
				mustCreateB(b, m, fmt.Sprint("old", i), fmt.Sprint("owner", i%1000), *now)
			}
			ctx := context.Background()
			ids := make([]string, b.N)
			for i := range ids {
				ids[i] = fmt.Sprint("new", i)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				*now = now.Add(time.Millisecond)
				t := &Task{ID: ids[i], Owner: "bench", Status: TaskWorking, CreatedAt: *now, TTL: time.Millisecond,
					Runner: "r1", LeaseUntil: now.Add(time.Second)}
				if err := m.Create(ctx, t); err != nil {
					b.Fatal(err)
				}
				if _, err := m.Get(ctx, "bench", t.ID); err != nil {
					b.Fatal(err)
				}
				if err := m.Renew(ctx, t.ID, "r1", now.Add(2*time.Second)); err != nil {
					b.Fatal(err)
				}
				if lapsed, err := m.Lapsed(ctx, *now, 100); err != nil || len(lapsed) != 0 {
					b.Fatal(lapsed, err)
				}
				t.Status = TaskCompleted
				if err := m.Update(ctx, t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func mustCreateB(b *testing.B, m *MemoryTaskStore, id, owner string, created time.Time) {
	if err := m.Create(context.Background(), &Task{ID: id, Owner: owner, Status: TaskWorking, CreatedAt: created, TTL: time.Hour,
		Runner: "r1", LeaseUntil: created.Add(24 * time.Hour)}); err != nil {
		b.Fatal(err)
	}
}

// leased creates a working task of owner o whose lease ends at until.
func leased(t *testing.T, m *MemoryTaskStore, id string, created, until time.Time) {
	t.Helper()
	if err := m.Create(context.Background(), &Task{ID: id, Owner: "o", Status: TaskWorking, CreatedAt: created,
		TTL: time.Hour, Runner: "r1", LeaseUntil: until}); err != nil {
		t.Fatal(err)
	}
}

func lapsedIDs(t *testing.T, m *MemoryTaskStore, now time.Time, limit int) []string {
	t.Helper()
	found, err := m.Lapsed(context.Background(), now, limit)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range found {
		ids = append(ids, f.ID)
	}
	slices.Sort(ids)
	return ids
}

// TestTaskLimitsDefaults: a zero or negative bound is its default.
func TestTaskLimitsDefaults(t *testing.T) {
	t.Parallel()
	got := TaskLimits{MaxPerOwner: -1}.Limits()
	if want := (TaskLimits{DefaultMaxPerOwner, DefaultMaxKept}); got != want {
		t.Errorf("Limits = %+v, want %+v", got, want)
	}
	if got := (TaskLimits{3, 4}).Limits(); got != (TaskLimits{3, 4}) {
		t.Errorf("Limits of set bounds = %+v", got)
	}
}

// TestMemoryTaskStoreMaxTotal: MaxTotal bounds the tasks kept of all
// owners together, ended ones included; their TTL frees the places.
func TestMemoryTaskStoreMaxTotal(t *testing.T) {
	t.Parallel()
	m, now := clockStore()
	ctx := context.Background()
	m.MaxTotal = 3
	for i, owner := range []string{"a", "b", "c"} {
		mustCreate(t, m, fmt.Sprint("t", i), owner, *now, time.Minute)
	}
	if err := m.Update(ctx, &Task{ID: "t0", Status: TaskCompleted}); err != nil {
		t.Fatal(err)
	}
	if err := m.Create(ctx, &Task{ID: "t3", Owner: "d", CreatedAt: *now}); !errors.Is(err, ErrTooManyTasks) {
		t.Errorf("a fourth task kept: %v, want ErrTooManyTasks", err)
	}
	*now = now.Add(2 * time.Minute)
	mustCreate(t, m, "t3", "d", *now, 0)
}

// TestMemoryTaskStoreLeaseHeap: a task leaves the heap of leases when it
// ends, is reaped or expires, so that Lapsed walks only unended ones.
func TestMemoryTaskStoreLeaseHeap(t *testing.T) {
	t.Parallel()
	m, now := clockStore()
	start := *now
	ctx := context.Background()
	for i := range 4 {
		leased(t, m, fmt.Sprint("t", i), start, start.Add(time.Duration(i+1)*time.Second))
	}
	if err := m.Update(ctx, &Task{ID: "t0", Status: TaskCompleted}); err != nil {
		t.Fatal(err)
	}
	if _, reaped, err := m.Reap(ctx, "o", "t1", start.Add(time.Minute), []byte(`{}`)); err != nil || !reaped {
		t.Fatalf("Reap = %v, %v", reaped, err)
	}
	if n := len(m.leases.tasks); n != 2 {
		t.Errorf("%d leases in the heap after an end and a reap, want 2", n)
	}
	*now = start.Add(2 * time.Hour) // every TTL has passed
	if ids := lapsedIDs(t, m, now.Add(time.Hour), 0); ids != nil || len(m.leases.tasks) != 0 {
		t.Errorf("after expiry: Lapsed = %v, %d leases in the heap; want none", ids, len(m.leases.tasks))
	}
}
