package mcpredis

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// backend returns a backend on a fresh miniredis, which has no CLIENT
// TRACKING (hence client_cache=0), and the server behind it.
func backend(t *testing.T) (*Backend, *miniredis.Miniredis) {
	t.Helper()
	mr := miniredis.RunT(t)
	b, err := Open(context.Background(), "redis://"+mr.Addr()+"/0?client_cache=0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, mr
}

// newTask returns a working task of owner created now.
func newTask(id, owner string, ttl time.Duration) *mcpstore.Task {
	now := time.Now().UTC()
	return &mcpstore.Task{ID: id, Owner: owner, Tool: "slow", Status: mcpstore.TaskWorking,
		CreatedAt: now, UpdatedAt: now, TTL: ttl, PollInterval: time.Second,
		Runner: "r1", LeaseUntil: now.Add(time.Minute)}
}

func mustCreate(t *testing.T, s *TaskStore, task *mcpstore.Task) {
	t.Helper()
	if err := s.Create(context.Background(), task); err != nil {
		t.Fatalf("create %s: %v", task.ID, err)
	}
}

// TestTaskRoundTrip: what Create stores Get returns, field by field, to
// its owner only.
func TestTaskRoundTrip(t *testing.T) {
	b, _ := backend(t)
	ctx := context.Background()
	want := newTask("T1", "sess-a", time.Hour)
	want.StatusMessage, want.InputRequests = "asking", []byte(`{"k":{}}`)
	mustCreate(t, b.Tasks, want)
	got, err := b.Tasks.Get(ctx, "sess-a", "T1")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(*got) != fmt.Sprint(*want) {
		t.Errorf("got  %+v\nwant %+v", *got, *want)
	}
	if _, err := b.Tasks.Get(ctx, "sess-b", "T1"); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("another owner's get: %v, want ErrTaskNotFound", err)
	}
	if _, err := b.Tasks.Get(ctx, "sess-a", "T2"); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("unknown task: %v, want ErrTaskNotFound", err)
	}
}

// TestTaskTerminalIsFinal: an update after a terminal one is refused and
// changes nothing; Update keeps the runner and lease as stored.
func TestTaskTerminalIsFinal(t *testing.T) {
	b, _ := backend(t)
	ctx := context.Background()
	task := newTask("T1", "", time.Hour)
	mustCreate(t, b.Tasks, task)
	upd := *task
	upd.Status, upd.Runner, upd.LeaseUntil = mcpstore.TaskInputRequired, "elsewhere", time.Time{}
	if err := b.Tasks.Update(ctx, &upd); err != nil {
		t.Fatal(err)
	}
	upd.Status, upd.Result = mcpstore.TaskCompleted, []byte(`{"content":[]}`)
	if err := b.Tasks.Update(ctx, &upd); err != nil {
		t.Fatal(err)
	}
	upd.Status, upd.Result = mcpstore.TaskCancelled, nil
	if err := b.Tasks.Update(ctx, &upd); !errors.Is(err, mcpstore.ErrTaskTerminal) {
		t.Errorf("update of a completed task: %v, want ErrTaskTerminal", err)
	}
	got, _ := b.Tasks.Get(ctx, "", "T1")
	if got.Status != mcpstore.TaskCompleted || string(got.Result) != `{"content":[]}` {
		t.Errorf("stored %s %s, want completed with its result", got.Status, got.Result)
	}
	if got.Runner != "r1" || !got.LeaseUntil.Equal(task.LeaseUntil) {
		t.Errorf("runner %q lease %v, want r1 %v", got.Runner, got.LeaseUntil, task.LeaseUntil)
	}
	if err := b.Tasks.Update(ctx, newTask("T9", "", 0)); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("update of an unknown task: %v, want ErrTaskNotFound", err)
	}
}

// open returns a second backend on the miniredis of another, as a second
// replica has.
func open(t *testing.T, mr *miniredis.Miniredis) *Backend {
	t.Helper()
	b, err := Open(context.Background(), "redis://"+mr.Addr()+"/0?client_cache=0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestTaskTerminalRace: of completions and cancels racing on two
// replicas, exactly one is stored.
func TestTaskTerminalRace(t *testing.T) {
	b1, mr := backend(t)
	b2 := open(t, mr)
	ctx := context.Background()
	for i := range 20 {
		id := fmt.Sprint("T", i)
		mustCreate(t, b1.Tasks, newTask(id, "", time.Hour))
		var wins sync.WaitGroup
		won := make(chan mcpstore.TaskStatus, 2)
		for _, side := range []struct {
			s  *TaskStore
			st mcpstore.TaskStatus
		}{{b1.Tasks, mcpstore.TaskCompleted}, {b2.Tasks, mcpstore.TaskCancelled}} {
			wins.Add(1)
			go func() {
				defer wins.Done()
				task := newTask(id, "", time.Hour)
				task.Status = side.st
				if err := side.s.Update(ctx, task); err == nil {
					won <- side.st
				} else if !errors.Is(err, mcpstore.ErrTaskTerminal) {
					t.Error(err)
				}
			}()
		}
		wins.Wait()
		close(won)
		var winners []mcpstore.TaskStatus
		for st := range won {
			winners = append(winners, st)
		}
		got, _ := b1.Tasks.Get(ctx, "", id)
		if len(winners) != 1 || got.Status != winners[0] {
			t.Fatalf("winners %v, stored %s: want exactly one", winners, got.Status)
		}
	}
}

// TestTaskOwnerLimit: creates beyond MaxPerOwner are refused, however many
// replicas race; other owners are not counted; a task whose TTL passed
// gives its place back.
func TestTaskOwnerLimit(t *testing.T) {
	b1, mr := backend(t)
	b2 := open(t, mr)
	b1.Tasks.MaxPerOwner, b2.Tasks.MaxPerOwner = 5, 5
	var ok sync.WaitGroup
	var mu sync.Mutex
	created, refused := 0, 0
	for i := range 20 {
		ok.Add(1)
		go func() {
			defer ok.Done()
			s := b1.Tasks
			if i%2 == 1 {
				s = b2.Tasks
			}
			err := s.Create(context.Background(), newTask(fmt.Sprint("T", i), "sess-a", time.Minute))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				created++
			case errors.Is(err, mcpstore.ErrTooManyTasks):
				refused++
			default:
				t.Error(err)
			}
		}()
	}
	ok.Wait()
	if created != 5 || refused != 15 {
		t.Fatalf("created %d, refused %d; want 5 and 15", created, refused)
	}
	mustCreate(t, b1.Tasks, newTask("other", "sess-b", time.Minute))
	later := time.Now().Add(2 * time.Minute)
	b1.Tasks.now = func() time.Time { return later }
	mr.FastForward(2 * time.Minute)
	task := newTask("after", "sess-a", time.Minute)
	task.CreatedAt = later
	mustCreate(t, b1.Tasks, task)
}

// TestTaskOwnerLimitCountsRunning: MaxPerOwner counts the owner's tasks
// that have not ended, so an ended or reaped task gives its place back
// and stays kept; MaxKept bounds the tasks kept.
func TestTaskOwnerLimitCountsRunning(t *testing.T) {
	b, _ := backend(t)
	ctx := context.Background()
	b.Tasks.MaxPerOwner, b.Tasks.MaxKept = 2, 4
	mustCreate(t, b.Tasks, newTask("A1", "", time.Minute))
	mustCreate(t, b.Tasks, newTask("A2", "", time.Minute))
	if err := b.Tasks.Create(ctx, newTask("A3", "", time.Minute)); !errors.Is(err, mcpstore.ErrTooManyTasks) {
		t.Fatalf("a third running task: %v, want ErrTooManyTasks", err)
	}
	done := newTask("A1", "", time.Minute)
	done.Status = mcpstore.TaskCompleted
	if err := b.Tasks.Update(ctx, done); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, b.Tasks, newTask("A3", "", time.Minute))
	lapsed := newTask("A2", "", time.Minute)
	if err := b.Tasks.Renew(ctx, "A2", "r1", time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, reaped, err := b.Tasks.Reap(ctx, lapsed.Owner, lapsed.ID, time.Now(), []byte(`{}`)); err != nil || !reaped {
		t.Fatalf("Reap: %v %v", reaped, err)
	}
	mustCreate(t, b.Tasks, newTask("A4", "", time.Minute))
	if tasks, _, err := b.Tasks.List(ctx, "", "", 0); err != nil || len(tasks) != 4 {
		t.Errorf("List: %d tasks, %v; want the 4 kept", len(tasks), err)
	}
	finish := newTask("A3", "", time.Minute)
	finish.Status = mcpstore.TaskFailed
	if err := b.Tasks.Update(ctx, finish); err != nil {
		t.Fatal(err)
	}
	if err := b.Tasks.Create(ctx, newTask("A5", "", time.Minute)); !errors.Is(err, mcpstore.ErrTooManyTasks) {
		t.Errorf("a fifth task kept: %v, want ErrTooManyTasks", err)
	}
}

// TestTaskExpiry: a task is not found once its TTL has passed.
func TestTaskExpiry(t *testing.T) {
	b, mr := backend(t)
	ctx := context.Background()
	mustCreate(t, b.Tasks, newTask("T1", "", time.Minute))
	if _, err := b.Tasks.Get(ctx, "", "T1"); err != nil {
		t.Fatal(err)
	}
	mr.FastForward(2 * time.Minute)
	if _, err := b.Tasks.Get(ctx, "", "T1"); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("get after the TTL: %v, want ErrTaskNotFound", err)
	}
	if err := b.Tasks.Renew(ctx, "T1", "r1", time.Now()); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("renew after the TTL: %v, want ErrTaskNotFound", err)
	}
}

// TestTaskList: an owner's tasks come in creation order, a page at a
// time, skipping expired ones; an unknown cursor is refused.
func TestTaskList(t *testing.T) {
	b, mr := backend(t)
	ctx := context.Background()
	for i := range 7 {
		ttl := time.Hour
		if i == 2 {
			ttl = time.Minute
		}
		mustCreate(t, b.Tasks, newTask(fmt.Sprint("T", i), "sess-a", ttl))
	}
	mustCreate(t, b.Tasks, newTask("B0", "sess-b", time.Hour))
	mr.FastForward(2 * time.Minute) // T2 expires
	var ids []string
	after, pages := "", 0
	for {
		page, next, err := b.Tasks.List(ctx, "sess-a", after, 2)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, task := range page {
			ids = append(ids, task.ID)
		}
		if next == "" {
			break
		}
		after = next
	}
	if fmt.Sprint(ids) != "[T0 T1 T3 T4 T5 T6]" || pages != 3 {
		t.Errorf("listed %v in %d pages, want [T0 T1 T3 T4 T5 T6] in 3", ids, pages)
	}
	all, next, err := b.Tasks.List(ctx, "sess-a", "", 0)
	if err != nil || len(all) != 6 || next != "" {
		t.Errorf("unlimited list: %d tasks, next %q, %v", len(all), next, err)
	}
	if _, _, err := b.Tasks.List(ctx, "sess-a", "B0", 2); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("another owner's cursor: %v, want ErrTaskNotFound", err)
	}
}

// TestTaskLease: Renew moves the lease of a running task and is refused
// for an ended one; Reap fails only a task whose lease lapsed, for its
// owner, and drops its unread answers.
func TestTaskLease(t *testing.T) {
	b, _ := backend(t)
	ctx := context.Background()
	now := time.Now().UTC()
	mustCreate(t, b.Tasks, newTask("T1", "sess-a", time.Hour))
	until := now.Add(3 * time.Second)
	if err := b.Tasks.Renew(ctx, "T1", "r2", until); err != nil {
		t.Fatal(err)
	}
	got, _ := b.Tasks.Get(ctx, "sess-a", "T1")
	if got.Runner != "r2" || !got.LeaseUntil.Equal(until) {
		t.Errorf("after renew: runner %q lease %v, want r2 %v", got.Runner, got.LeaseUntil, until)
	}
	errObj := []byte(`{"code":-32603,"message":"stopped"}`)
	if got, reaped, err := b.Tasks.Reap(ctx, "sess-a", "T1", now, errObj); err != nil || reaped || got.Status != mcpstore.TaskWorking {
		t.Errorf("reap before the lease ends: %v %v %v, want working", got, reaped, err)
	}
	if _, _, err := b.Tasks.Reap(ctx, "sess-b", "T1", now.Add(time.Minute), errObj); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("reap by another owner: %v, want ErrTaskNotFound", err)
	}
	if err := b.Tasks.PostAnswers(ctx, "T1", map[string][]byte{"k": []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	got, reaped, err := b.Tasks.Reap(ctx, "sess-a", "T1", now.Add(time.Minute), errObj)
	if err != nil || !reaped || got.Status != mcpstore.TaskFailed || string(got.Error) != string(errObj) {
		t.Fatalf("reap after the lease: %+v %v %v, want failed with the error", got, reaped, err)
	}
	if _, reaped, _ := b.Tasks.Reap(ctx, "sess-a", "T1", now.Add(time.Minute), errObj); reaped {
		t.Error("a second reap reports that it failed the task too")
	}
	if box, _ := b.Tasks.TakeAnswers(ctx, "T1"); box != nil {
		t.Errorf("answers of a reaped task: %v, want none", box)
	}
	if err := b.Tasks.Renew(ctx, "T1", "r2", until); !errors.Is(err, mcpstore.ErrTaskTerminal) {
		t.Errorf("renew of a failed task: %v, want ErrTaskTerminal", err)
	}
	if err := b.Tasks.PostAnswers(ctx, "T1", map[string][]byte{"k": []byte(`{}`)}); !errors.Is(err, mcpstore.ErrTaskTerminal) {
		t.Errorf("answers for a failed task: %v, want ErrTaskTerminal", err)
	}
}

// TestTaskAnswers: answers posted on one replica are taken once on
// another, merged by key.
func TestTaskAnswers(t *testing.T) {
	b1, mr := backend(t)
	b2 := open(t, mr)
	ctx := context.Background()
	mustCreate(t, b1.Tasks, newTask("T1", "", time.Hour))
	if err := b2.Tasks.PostAnswers(ctx, "T1", map[string][]byte{"a": []byte(`1`)}); err != nil {
		t.Fatal(err)
	}
	if err := b2.Tasks.PostAnswers(ctx, "T1", map[string][]byte{"b": []byte(`2`)}); err != nil {
		t.Fatal(err)
	}
	box, err := b1.Tasks.TakeAnswers(ctx, "T1")
	if err != nil || fmt.Sprintf("%s", box) != "map[a:1 b:2]" {
		t.Errorf("taken %s %v, want a:1 b:2", box, err)
	}
	if box, _ := b1.Tasks.TakeAnswers(ctx, "T1"); box != nil {
		t.Errorf("taken twice: %s", box)
	}
	if err := b2.Tasks.PostAnswers(ctx, "nope", map[string][]byte{"a": []byte(`1`)}); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("answers for an unknown task: %v, want ErrTaskNotFound", err)
	}
}

// TestTaskLapsed: Lapsed finds the unended tasks whose lease ended, of
// every owner, following renewals and ends, and puts right an index
// entry out of step with its task; of two replicas reaping a lapsed task
// at once, one fails it.
func TestTaskLapsed(t *testing.T) {
	b1, mr := backend(t)
	b2 := open(t, mr)
	ctx := context.Background()
	start := time.Now().UTC()
	for i, owner := range []string{"sess-a", "sess-b", "", "sess-a"} {
		task := newTask(fmt.Sprint("T", i), owner, time.Hour)
		task.LeaseUntil = start.Add(time.Duration(i+1) * time.Second)
		mustCreate(t, b1.Tasks, task)
	}
	ids := func(s *TaskStore, now time.Time) []string {
		t.Helper()
		found, err := s.Lapsed(ctx, now, 10)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, f := range found {
			ids = append(ids, f.ID)
		}
		return ids
	}
	if got := ids(b2.Tasks, start); got != nil {
		t.Errorf("Lapsed at the start = %v, want none", got)
	}
	at := start.Add(3500 * time.Millisecond) // T0, T1, T2 lapsed
	if got := ids(b2.Tasks, at); fmt.Sprint(got) != "[T0 T1 T2]" {
		t.Errorf("Lapsed = %v, want [T0 T1 T2]", got)
	}
	if err := b1.Tasks.Renew(ctx, "T0", "r2", start.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	done := newTask("T1", "sess-b", time.Hour)
	done.Status = mcpstore.TaskCompleted
	if err := b1.Tasks.Update(ctx, done); err != nil {
		t.Fatal(err)
	}
	if got := ids(b2.Tasks, at); fmt.Sprint(got) != "[T2]" {
		t.Errorf("Lapsed after a renewal and an end = %v, want [T2]", got)
	}
	// An index entry behind its task (a renewal whose index write was
	// lost) is raised to the task's lease, not reaped.
	mr.ZAdd(b1.leasesKey(), float64(start.UnixMilli()), "T0")
	if got := ids(b2.Tasks, at); fmt.Sprint(got) != "[T2]" {
		t.Errorf("Lapsed with an entry behind its lease = %v, want [T2]", got)
	}
	if score, _ := mr.ZScore(b1.leasesKey(), "T0"); score != float64(start.Add(time.Minute).UnixMilli()) {
		t.Errorf("entry of T0 at %v, want its lease", score)
	}
	errObj := []byte(`{"code":-32603,"message":"stopped"}`)
	won := make(chan *TaskStore, 2)
	var reapers sync.WaitGroup
	for _, s := range []*TaskStore{b1.Tasks, b2.Tasks} {
		reapers.Go(func() {
			got, reaped, err := s.Reap(ctx, "", "T2", at, errObj)
			if err != nil || got.Status != mcpstore.TaskFailed {
				t.Errorf("reap: %+v %v", got, err)
			}
			if reaped {
				won <- s
			}
		})
	}
	reapers.Wait()
	close(won)
	if n := len(won); n != 1 {
		t.Errorf("%d reapers failed the task, want 1", n)
	}
	if got := ids(b1.Tasks, start.Add(time.Hour)); fmt.Sprint(got) != "[T3 T0]" {
		t.Errorf("Lapsed much later = %v, want [T3 T0]", got)
	}
	if members, _ := mr.ZMembers(b1.leasesKey()); fmt.Sprint(members) != "[T3 T0]" {
		t.Errorf("index of leases %v, want [T3 T0]", members)
	}
}

// TestTaskLapsedCleansGone: an index entry whose task is gone (expired,
// or never written) is removed by the first look.
func TestTaskLapsedCleansGone(t *testing.T) {
	b, mr := backend(t)
	ctx := context.Background()
	now := time.Now().UTC()
	mr.ZAdd(b.leasesKey(), float64(now.Add(-time.Minute).UnixMilli()), "ghost")
	found, err := b.Tasks.Lapsed(ctx, now, 10)
	if err != nil || len(found) != 0 {
		t.Fatalf("Lapsed = %v, %v; want none", found, err)
	}
	if members, _ := mr.ZMembers(b.leasesKey()); len(members) != 0 {
		t.Errorf("index of leases %v, want empty", members)
	}
}

// TestTaskLapsedNoLimit: Lapsed without a limit returns every lapsed
// task, as the memory store does, not a batch of its own size.
func TestTaskLapsedNoLimit(t *testing.T) {
	t.Parallel()
	b, _ := backend(t)
	start := time.Now().UTC()
	const n = 120
	for i := range n { // of owners enough for the bound of each
		task := newTask(fmt.Sprint("T", i), fmt.Sprint("o", i%4), time.Hour)
		task.LeaseUntil = start.Add(time.Second)
		mustCreate(t, b.Tasks, task)
	}
	found, err := b.Tasks.Lapsed(context.Background(), start.Add(time.Minute), 0)
	if err != nil || len(found) != n {
		t.Errorf("Lapsed without a limit: %d tasks, %v; want %d", len(found), err, n)
	}
}
