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

func TestMemoryTaskStoreListsInCreationOrderPerOwner(t *testing.T) {
	m, now := clockStore()
	for i, owner := range []string{"a", "b", "a", "a", "b"} {
		mustCreate(t, m, fmt.Sprint("t", i), owner, *now, 0)
	}
	ids, next := listIDs(t, m, "a", "", 2)
	if fmt.Sprint(ids) != "[t0 t2]" || next != "t2" {
		t.Fatalf("first page of a = %v, next %q; want [t0 t2], next t2", ids, next)
	}
	ids, next = listIDs(t, m, "a", next, 2)
	if fmt.Sprint(ids) != "[t3]" || next != "" {
		t.Fatalf("second page of a = %v, next %q; want [t3], no next", ids, next)
	}
	if _, _, err := m.List(context.Background(), "b", "t0", 2); !errors.Is(err, ErrTaskNotFound) {
		t.Errorf("List of b after a's task: %v, want ErrTaskNotFound", err)
	}
	if _, err := m.Get(context.Background(), "b", "t0"); !errors.Is(err, ErrTaskNotFound) {
		t.Errorf("Get of a's task by b: %v, want ErrTaskNotFound", err)
	}
}

func TestMemoryTaskStoreExpiresSoonestFirst(t *testing.T) {
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

// TestMemoryTaskStoreLimits: MaxPerOwner bounds an owner's tasks that
// have not ended, MaxTotal the tasks kept, ended ones included.
func TestMemoryTaskStoreLimits(t *testing.T) {
	m, now := clockStore()
	ctx := context.Background()
	m.MaxPerOwner, m.MaxTotal = 2, 4
	mustCreate(t, m, "a1", "a", *now, time.Minute)
	mustCreate(t, m, "a2", "a", *now, time.Minute)
	if err := m.Create(ctx, &Task{ID: "a3", Owner: "a", CreatedAt: *now}); !errors.Is(err, ErrTooManyTasks) {
		t.Errorf("third running task of a: %v, want ErrTooManyTasks", err)
	}
	// An ended task frees its owner's place, and stays kept.
	if err := m.Update(ctx, &Task{ID: "a1", Owner: "a", Status: TaskCompleted}); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, m, "a3", "a", *now, time.Minute)
	if ids, _ := listIDs(t, m, "a", "", 0); fmt.Sprint(ids) != "[a1 a2 a3]" {
		t.Errorf("a's tasks: %v, want [a1 a2 a3]", ids)
	}
	// So does a reaped one.
	if err := m.Renew(ctx, "a2", "r1", now.Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, reaped, err := m.Reap(ctx, "a", "a2", *now, []byte(`{}`)); err != nil || !reaped {
		t.Fatalf("Reap: %v %v", reaped, err)
	}
	mustCreate(t, m, "b1", "b", *now, 0)
	if err := m.Create(ctx, &Task{ID: "c1", Owner: "c", CreatedAt: *now}); !errors.Is(err, ErrTooManyTasks) {
		t.Errorf("fifth task kept: %v, want ErrTooManyTasks", err)
	}
	*now = now.Add(2 * time.Minute) // a's tasks expire and free their places
	mustCreate(t, m, "a4", "a", *now, 0)
	mustCreate(t, m, "a5", "a", *now, 0)
	mustCreate(t, m, "c1", "c", *now, 0)
	m.MaxTotal = 5 // room in all: only a's bound refuses
	if err := m.Create(ctx, &Task{ID: "a6", Owner: "a", CreatedAt: *now}); !errors.Is(err, ErrTooManyTasks) {
		t.Errorf("a's third running task after the expiry: %v, want ErrTooManyTasks", err)
	}
}

func TestMemoryTaskStoreTerminalIsFinal(t *testing.T) {
	m, now := clockStore()
	mustCreate(t, m, "t", "o", *now, time.Minute)
	ctx := context.Background()
	if err := m.Update(ctx, &Task{ID: "t", Owner: "o", Status: TaskCancelled, CreatedAt: *now, TTL: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if err := m.Update(ctx, &Task{ID: "t", Owner: "o", Status: TaskCompleted}); !errors.Is(err, ErrTaskTerminal) {
		t.Errorf("update of a cancelled task: %v, want ErrTaskTerminal", err)
	}
	got, err := m.Get(ctx, "o", "t")
	if err != nil || got.Status != TaskCancelled {
		t.Errorf("Get = %+v, %v; want cancelled", got, err)
	}
	if err := m.Update(ctx, &Task{ID: "missing"}); !errors.Is(err, ErrTaskNotFound) {
		t.Errorf("update of a missing task: %v, want ErrTaskNotFound", err)
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

// TestMemoryTaskStoreLapsed: Lapsed finds the unended tasks whose lease
// ended, following renewals, ends, reaps and expiry, and a task is
// reaped once.
func TestMemoryTaskStoreLapsed(t *testing.T) {
	m, now := clockStore()
	start := *now
	ctx := context.Background()
	for i := range 6 {
		leased(t, m, fmt.Sprint("t", i), start, start.Add(time.Duration(i+1)*time.Second))
	}
	mustCreate(t, m, "unleased", "o", start, time.Hour)
	if ids := lapsedIDs(t, m, start, 0); ids != nil {
		t.Errorf("Lapsed at the start = %v, want none", ids)
	}
	at := start.Add(4500 * time.Millisecond) // t0..t3 lapsed
	if ids := lapsedIDs(t, m, at, 0); fmt.Sprint(ids) != "[t0 t1 t2 t3]" {
		t.Errorf("Lapsed = %v, want [t0 t1 t2 t3]", ids)
	}
	if ids := lapsedIDs(t, m, at, 2); len(ids) != 2 {
		t.Errorf("Lapsed with limit 2 = %v", ids)
	}
	if err := m.Renew(ctx, "t0", "r2", start.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := m.Update(ctx, &Task{ID: "t1", Status: TaskCompleted}); err != nil {
		t.Fatal(err)
	}
	if err := m.Update(ctx, &Task{ID: "t2", Status: TaskInputRequired}); err != nil {
		t.Fatal(err)
	}
	if ids := lapsedIDs(t, m, at, 0); fmt.Sprint(ids) != "[t2 t3]" {
		t.Errorf("Lapsed after a renewal and an end = %v, want [t2 t3]", ids)
	}
	errObj := []byte(`{"code":-32603,"message":"stopped"}`)
	got, reaped, err := m.Reap(ctx, "o", "t3", at, errObj)
	if err != nil || !reaped || got.Status != TaskFailed || got.StatusMessage != ReapedMessage || string(got.Error) != string(errObj) {
		t.Fatalf("Reap = %+v, %v, %v; want failed by this call", got, reaped, err)
	}
	if got, reaped, err := m.Reap(ctx, "o", "t3", at, errObj); err != nil || reaped || got.Status != TaskFailed {
		t.Errorf("second Reap = %+v, %v, %v; want failed, not by this call", got, reaped, err)
	}
	if _, reaped, _ := m.Reap(ctx, "o", "t4", at, errObj); reaped {
		t.Error("Reap of a lease not yet ended failed it")
	}
	if ids := lapsedIDs(t, m, at, 0); fmt.Sprint(ids) != "[t2]" {
		t.Errorf("Lapsed after the reap = %v, want [t2]", ids)
	}
	*now = start.Add(2 * time.Hour) // every TTL has passed
	if ids := lapsedIDs(t, m, now.Add(time.Hour), 0); ids != nil {
		t.Errorf("Lapsed after expiry = %v, want none", ids)
	}
	if len(m.leases.tasks) != 0 {
		t.Errorf("%d leases left in the heap", len(m.leases.tasks))
	}
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

// TestMemoryTaskStoreMaxKept: MaxKept bounds one owner's tasks kept,
// ended ones included, and no other owner's; the TTL frees the places.
func TestMemoryTaskStoreMaxKept(t *testing.T) {
	t.Parallel()
	m, now := clockStore()
	ctx := context.Background()
	m.MaxKept = 2
	mustCreate(t, m, "a1", "a", *now, time.Minute)
	mustCreate(t, m, "a2", "a", *now, time.Minute)
	for _, id := range []string{"a1", "a2"} {
		if err := m.Update(ctx, &Task{ID: id, Status: TaskCompleted}); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Create(ctx, &Task{ID: "a3", Owner: "a", CreatedAt: *now}); !errors.Is(err, ErrTooManyTasks) {
		t.Errorf("a third task kept of a: %v, want ErrTooManyTasks", err)
	}
	mustCreate(t, m, "b1", "b", *now, 0)
	*now = now.Add(2 * time.Minute)
	mustCreate(t, m, "a3", "a", *now, 0)
}

// TestMemoryTaskStoreEndDropsAnswers: the answers of a task that ends
// are dropped, as no runner will take them.
func TestMemoryTaskStoreEndDropsAnswers(t *testing.T) {
	t.Parallel()
	m, now := clockStore()
	ctx := context.Background()
	mustCreate(t, m, "t", "o", *now, time.Minute)
	if err := m.PostAnswers(ctx, "t", map[string][]byte{"k": []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := m.Update(ctx, &Task{ID: "t", Status: TaskCancelled}); err != nil {
		t.Fatal(err)
	}
	if box, err := m.TakeAnswers(ctx, "t"); box != nil || err != nil {
		t.Errorf("answers of an ended task: %v, %v; want none", box, err)
	}
}
