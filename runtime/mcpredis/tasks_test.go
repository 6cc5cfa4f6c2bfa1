package mcpredis

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/internal/redistest"
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

// openBudget opens mr as open does, with a retry budget of its own, for
// tests of an outage that do not test the budget.
func openBudget(t *testing.T, mr *miniredis.Miniredis, budget time.Duration) *Backend {
	t.Helper()
	opt, err := rueidis.ParseURL("redis://" + mr.Addr() + "/0?client_cache=0")
	if err != nil {
		t.Fatal(err)
	}
	opt.Dialer.Timeout, opt.ConnWriteTimeout = DefaultDialTimeout, DefaultWriteTimeout
	b, err := openOptions(context.Background(), opt, budget)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
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

// TestTaskLapsedCleansGone: an index entry whose task is gone (expired,
// or never written) is removed by the first look.
func TestTaskLapsedCleansGone(t *testing.T) {
	t.Parallel()
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

// TestTaskLapsedIndex: Lapsed puts right the index of leases, which lives
// beside the tasks' slots: an entry behind its task's lease (a renewal
// whose index write was lost) is raised to it, not reaped, and the entry
// of a task that ended is gone.
func TestTaskLapsedIndex(t *testing.T) {
	t.Parallel()
	b, mr := backend(t)
	ctx := context.Background()
	start := time.Now().UTC()
	for i := range 2 {
		task := newTask(fmt.Sprint("T", i), "", time.Hour)
		task.LeaseUntil = start.Add(time.Duration(i+1) * time.Second)
		mustCreate(t, b.Tasks, task)
	}
	if err := b.Tasks.Renew(ctx, "T0", "r2", start.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	done := newTask("T1", "", time.Hour)
	done.Status = mcpstore.TaskCompleted
	if err := b.Tasks.Update(ctx, done); err != nil {
		t.Fatal(err)
	}
	mr.ZAdd(b.leasesKey(), float64(start.UnixMilli()), "T0")
	if found, err := b.Tasks.Lapsed(ctx, start.Add(3*time.Second), 10); err != nil || len(found) != 0 {
		t.Errorf("Lapsed with an entry behind its lease = %v, %v; want none", found, err)
	}
	if score, _ := mr.ZScore(b.leasesKey(), "T0"); score != float64(start.Add(time.Minute).UnixMilli()) {
		t.Errorf("entry of T0 at %v, want its lease", score)
	}
	if members, _ := mr.ZMembers(b.leasesKey()); fmt.Sprint(members) != "[T0]" {
		t.Errorf("index of leases %v, want [T0]", members)
	}
}

// TestWaitReplicas: on a Redis Cluster whose replica of a task's primary
// is paused, ending the task with WaitReplicas waits WaitTimeout for the
// replica, and without it does not; the task ends either way.
func TestWaitReplicas(t *testing.T) {
	t.Parallel()
	c := redistest.StartCluster(t)
	b, err := Open(context.Background(), c.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	ctx := context.Background()
	const timeout = time.Second
	b.Tasks.WaitTimeout = timeout
	// Tasks of one slot, so that one replica's pause holds back both.
	ids := []string{"w{1}", "n{1}"}
	for _, id := range ids {
		if err := b.Tasks.Create(ctx, newTask(id, "o", time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	resume := c.PauseReplica(b.taskKey(ids[0]))
	defer resume()
	for i, id := range ids {
		b.Tasks.WaitReplicas = 1 - i // the first waits, the second does not
		task, err := b.Tasks.Get(ctx, "o", id)
		if err != nil {
			t.Fatal(err)
		}
		task.Status = mcpstore.TaskCompleted
		start := time.Now()
		if err := b.Tasks.Update(ctx, task); err != nil {
			t.Fatalf("ending %s: %v", id, err)
		}
		took := time.Since(start)
		switch {
		case b.Tasks.WaitReplicas == 1 && took < timeout:
			t.Errorf("an end waiting for the paused replica returned after %v, want its timeout of %v", took, timeout)
		case b.Tasks.WaitReplicas == 0 && took >= timeout:
			t.Errorf("an end without WaitReplicas took %v", took)
		}
		if got, err := b.Tasks.Get(ctx, "o", id); err != nil || got.Status != mcpstore.TaskCompleted {
			t.Errorf("task %s after its end: %v, %v", id, got, err)
		}
	}
	// A task created ended is an end too.
	b.Tasks.WaitReplicas = 1
	ended := newTask("w{1}e", "o", time.Minute) // the key's hash tag that of w{1}
	ended.Status, ended.Runner, ended.LeaseUntil = mcpstore.TaskCompleted, "", time.Time{}
	start := time.Now()
	if err := b.Tasks.Create(ctx, ended); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < timeout {
		t.Errorf("creating an ended task while the replica is paused returned after %v, want its timeout of %v", took, timeout)
	}
}

// TestTaskLifeTrips: on one Redis server, a task with a lease is created
// in one round trip and ended in one, its indexes in step: the lease is
// indexed from the create, and the end takes it out of the index of
// leases and of its owner's tasks not ended.
func TestTaskLifeTrips(t *testing.T) {
	t.Parallel()
	mr := miniredis.RunT(t)
	// miniredis answers CLUSTER SLOTS, which makes a client of it a
	// cluster client unless told otherwise.
	client, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{mr.Addr()}, DisableCache: true, ForceSingleClient: true})
	if err != nil {
		t.Fatal(err)
	}
	counted := &redistest.Trips{Client: client}
	b := New(counted)
	t.Cleanup(func() { b.Close() })
	ctx := context.Background()
	warm := newTask("T0", "a", time.Hour) // the scripts loaded, as after their first use
	mustCreate(t, b.Tasks, warm)
	warm.Status = mcpstore.TaskCompleted
	if err := b.Tasks.Update(ctx, warm); err != nil {
		t.Fatal(err)
	}
	task := newTask("T1", "a", time.Hour)
	trips := func(what string, want int64, f func() error) {
		t.Helper()
		before := counted.Count()
		if err := f(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := counted.Count() - before; got != want {
			t.Errorf("%s took %d round trips, want %d", what, got, want)
		}
	}
	trips("Create", 1, func() error { return b.Tasks.Create(ctx, task) })
	if score, err := mr.ZScore(b.leasesKey(), "T1"); err != nil || score != float64(task.LeaseUntil.UnixMilli()) {
		t.Errorf("index of leases holds T1 at %v (%v), want its lease", score, err)
	}
	if ok, _ := mr.ZMembers(b.ownerKey("a", "r")); fmt.Sprint(ok) != "[T1]" {
		t.Errorf("a's tasks not ended %v, want [T1]", ok)
	}
	task.Status, task.Result = mcpstore.TaskCompleted, []byte(`{"content":[]}`)
	trips("Update to completed", 1, func() error { return b.Tasks.Update(ctx, task) })
	if members, _ := mr.ZMembers(b.leasesKey()); len(members) != 0 {
		t.Errorf("index of leases %v after the end, want empty", members)
	}
	if mr.Exists(b.ownerKey("a", "r")) {
		members, _ := mr.ZMembers(b.ownerKey("a", "r"))
		t.Errorf("a's tasks not ended %v after the end, want none", members)
	}
}

// TestTaskEndedCache: a replica answers reads of ended tasks it created,
// ended or read before from memory, for their owner and within their TTL
// only, up to EndedCache of them; a task that has not ended is read from
// Redis every time.
func TestTaskEndedCache(t *testing.T) {
	t.Parallel()
	mr := miniredis.RunT(t)
	client, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{mr.Addr()}, DisableCache: true, ForceSingleClient: true})
	if err != nil {
		t.Fatal(err)
	}
	counted := &redistest.Trips{Client: client}
	b := New(counted)
	t.Cleanup(func() { b.Close() })
	now := time.Now().UTC()
	b.Tasks.now = func() time.Time { return now }
	b.Tasks.EndedCache = 2
	ctx := context.Background()
	reads := func(what, owner, id string, want int64, found bool) {
		t.Helper()
		before := counted.Count()
		_, err := b.Tasks.Get(ctx, owner, id)
		if got := counted.Count() - before; got != want || (err == nil) != found {
			t.Errorf("%s: Get took %d round trips, err %v; want %d, found %v", what, got, err, want, found)
		}
	}
	ended := func(id string) *mcpstore.Task {
		task := newTask(id, "a", time.Hour)
		task.Status, task.Result, task.Runner, task.LeaseUntil = mcpstore.TaskCompleted, []byte(`{"content":[]}`), "", time.Time{}
		return task
	}
	mustCreate(t, b.Tasks, ended("E1"))
	reads("an ended task created here", "a", "E1", 0, true)
	reads("an ended task created here, for another owner", "b", "E1", 0, false)
	working := newTask("W1", "a", time.Hour)
	mustCreate(t, b.Tasks, working)
	reads("a working task", "a", "W1", 1, true)
	reads("a working task again", "a", "W1", 1, true)
	working.Status = mcpstore.TaskCompleted
	if err := b.Tasks.Update(ctx, working); err != nil {
		t.Fatal(err)
	}
	reads("a task ended here", "a", "W1", 0, true)
	other := newTask("W2", "a", time.Hour)
	mustCreate(t, b.Tasks, other)
	// Ended by an update that names only what a run changes: what it
	// keeps as stored is kept so in memory too.
	if err := b.Tasks.Update(ctx, &mcpstore.Task{ID: "W2", Status: mcpstore.TaskCancelled, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	before := counted.Count()
	got, err := b.Tasks.Get(ctx, "a", "W2")
	if counted.Count() != before || err != nil || got.Status != mcpstore.TaskCancelled || !got.CreatedAt.Equal(other.CreatedAt) ||
		got.TTL != time.Hour || got.Runner != "r1" || !got.LeaseUntil.Equal(other.LeaseUntil) {
		t.Errorf("a task ended by a bare update, read from memory: %+v, %v; want it cancelled, its owner, creation, TTL, runner and lease as created", got, err)
	}
	mustCreate(t, b.Tasks, ended("E2")) // E1 is forgotten
	reads("an ended task no longer kept", "a", "E1", 1, true)
	now = now.Add(2 * time.Hour)
	reads("an expired ended task", "a", "E2", 0, false)
	now = time.Now().UTC()
	b.Tasks.EndedCache = -1
	mustCreate(t, b.Tasks, ended("E3"))
	reads("an ended task, with no cache", "a", "E3", 1, true)
	reads("an ended task, with no cache, again", "a", "E3", 1, true)
}

// TestOwnerIndexExpiry: an owner's index lives at least as long as its
// longest-lived task, its expiry rounded up to a minute, so that tasks
// created within that minute leave it as it is; the index of unended
// tasks made again gets the same expiry, and an unlimited task keeps
// the index.
func TestOwnerIndexExpiry(t *testing.T) {
	t.Parallel()
	b, mr := backend(t)
	start := time.Now().UTC().Truncate(time.Millisecond)
	mr.SetTime(start)
	keys := []string{b.ownerKey("a", "i"), b.ownerKey("a", "e"), b.ownerKey("a", "n"), b.ownerKey("a", "r")}
	ttls := func() []time.Duration {
		var d []time.Duration
		for _, k := range keys {
			d = append(d, mr.TTL(k))
		}
		return d
	}
	first := newTask("T1", "a", time.Hour)
	first.CreatedAt = start.Truncate(time.Minute).Add(10 * time.Second) // its end well within a minute
	mustCreate(t, b.Tasks, first)
	got := ttls()
	end := first.CreatedAt.Add(time.Hour).UnixMilli() + 1 + 1000
	want := time.Duration((end+59999)/60000*60000-start.UnixMilli()) * time.Millisecond
	for i, d := range got {
		if d != want {
			t.Errorf("%s expires in %v, want %v: the task's end and a second, rounded up to a minute", keys[i], d, want)
		}
	}
	second := newTask("T2", "a", time.Hour)
	second.CreatedAt = first.CreatedAt.Add(time.Millisecond)
	mustCreate(t, b.Tasks, second)
	if after := ttls(); fmt.Sprint(after) != fmt.Sprint(got) {
		t.Errorf("after a task ending within the minute, expiries %v, want %v unchanged", after, got)
	}
	for _, task := range []*mcpstore.Task{first, second} {
		task.Status = mcpstore.TaskCompleted
		if err := b.Tasks.Update(context.Background(), task); err != nil {
			t.Fatal(err)
		}
	}
	if mr.Exists(keys[3]) {
		t.Fatalf("%s holds tasks after every task ended", keys[3])
	}
	mustCreate(t, b.Tasks, newTask("T3", "a", time.Hour))
	if d := mr.TTL(keys[3]); d != want {
		t.Errorf("%s made again expires in %v, want %v as the index", keys[3], d, want)
	}
	mustCreate(t, b.Tasks, newTask("T4", "a", 0))
	for _, k := range keys {
		if d := mr.TTL(k); d != 0 {
			t.Errorf("%s expires in %v with an unlimited task, want never", k, d)
		}
	}
}

// TestTaskHashLeavesOutEmpty: a task's hash holds the fields that are
// set, not those empty or zero, which a read takes as such.
func TestTaskHashLeavesOutEmpty(t *testing.T) {
	t.Parallel()
	b, mr := backend(t)
	task := newTask("T1", "", time.Hour)
	task.Status, task.Result, task.Runner, task.LeaseUntil = mcpstore.TaskCompleted, []byte(`{"content":[]}`), "", time.Time{}
	mustCreate(t, b.Tasks, task)
	keys, err := mr.HKeys(b.taskKey("T1"))
	slices.Sort(keys)
	if want := []string{fCreated, fOwner, fPoll, fResult, fStatus, fTool, fTTL, fUpdated}; err != nil || !slices.Equal(keys, want) {
		t.Errorf("the hash of an ended task holds %v (%v), want %v", keys, err, want)
	}
	got, err := b.Tasks.Get(context.Background(), "", "T1")
	if err != nil || got.StatusMessage != "" || got.Error != nil || got.InputRequests != nil || got.Runner != "" || !got.LeaseUntil.IsZero() {
		t.Errorf("read back: %+v, %v; want the fields left out empty", got, err)
	}
}
