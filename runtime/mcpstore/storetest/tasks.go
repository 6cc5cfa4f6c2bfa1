package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// TaskStore checks a shared task store against the contracts of
// [mcpstore.TaskStore] and [mcpstore.SharedTaskStore], one subtest per
// clause:
//
//   - created task is found with every field
//   - tasks are found only by their owner
//   - unknown task is not found
//   - terminal status is final
//   - racing terminal updates leave one
//   - update writes only what a run changes
//   - list pages in creation order
//   - expired task is not found
//   - owner bound counts unended tasks
//   - racing creates keep the owner bound
//   - kept bound counts ended tasks
//   - task created ended takes no running place
//   - expired tasks free their places
//   - renew moves the lease of an unended task
//   - reap fails only a lapsed lease
//   - lapsed lease is reaped once
//   - lapsed finds unended tasks whose lease ended
//   - lapsed returns up to limit
//   - answers are taken once
//
// The bounds are the store's own when it has a method Limits()
// [mcpstore.TaskLimits], as a store embedding TaskLimits does, and the
// defaults otherwise. They must allow 8 unended tasks per owner, and 2
// more kept: the clauses about bounds fill them, the others stay below.
func TaskStore(t *testing.T, newStore func(t *testing.T) mcpstore.SharedTaskStore) {
	t.Helper()
	run(t, newStore, []clause[mcpstore.SharedTaskStore]{
		{"created task is found with every field", createdTaskIsFound},
		{"tasks are found only by their owner", tasksFoundByOwner},
		{"unknown task is not found", unknownTaskNotFound},
		{"terminal status is final", terminalIsFinal},
		{"racing terminal updates leave one", racingTerminalUpdates},
		{"update writes only what a run changes", updateWritesRunFields},
		{"list pages in creation order", listPages},
		{"expired task is not found", expiredTaskNotFound},
		{"owner bound counts unended tasks", ownerBound},
		{"racing creates keep the owner bound", racingCreates},
		{"kept bound counts ended tasks", keptBound},
		{"task created ended takes no running place", createdEnded},
		{"expired tasks free their places", expiredFreePlaces},
		{"renew moves the lease of an unended task", renewMovesLease},
		{"reap fails only a lapsed lease", reapOnlyLapsed},
		{"lapsed lease is reaped once", reapedOnce},
		{"lapsed finds unended tasks whose lease ended", lapsedFinds},
		{"lapsed returns up to limit", lapsedLimit},
		{"answers are taken once", answersTakenOnce},
	})
}

type taskEnv = env[mcpstore.SharedTaskStore]

// errObj is the error object the suite reaps tasks with.
var errObj = []byte(`{"code":-32603,"message":"stopped"}`)

// newTask returns a working task of owner created now, kept an hour, with a
// lease of a minute.
func newTask(e *taskEnv, id, owner string) *mcpstore.Task {
	now := e.now()
	return &mcpstore.Task{ID: id, Owner: owner, Tool: "slow", Status: mcpstore.TaskWorking,
		CreatedAt: now, UpdatedAt: now, TTL: time.Hour, PollInterval: time.Second,
		Runner: "r1", LeaseUntil: now.Add(time.Minute)}
}

// limits returns the bounds of the store.
func limits(t *testing.T, e *taskEnv) mcpstore.TaskLimits {
	t.Helper()
	lim := mcpstore.TaskLimits{}.Limits()
	if l, ok := e.s.(interface{ Limits() mcpstore.TaskLimits }); ok {
		lim = l.Limits()
	}
	if lim.MaxPerOwner < 8 || lim.MaxKept < lim.MaxPerOwner+2 {
		t.Fatalf("the store's bounds %+v are too low for the suite: it needs MaxPerOwner 8 or more, MaxKept 2 more", lim)
	}
	return lim
}

func create(t *testing.T, s mcpstore.TaskStore, task *mcpstore.Task) {
	t.Helper()
	if err := s.Create(context.Background(), task); err != nil {
		t.Fatalf("Create(%s): %v", task.ID, err)
	}
}

func get(t *testing.T, s mcpstore.TaskStore, owner, id string) *mcpstore.Task {
	t.Helper()
	got, err := s.Get(context.Background(), owner, id)
	if err != nil {
		t.Fatalf("Get(%q, %s): %v", owner, id, err)
	}
	return got
}

// end updates task id of owner to status, failing t unless it ends.
func end(t *testing.T, s mcpstore.TaskStore, id string, status mcpstore.TaskStatus) {
	t.Helper()
	if err := s.Update(context.Background(), &mcpstore.Task{ID: id, Status: status, UpdatedAt: time.Now().UTC()}); err != nil {
		t.Fatalf("Update(%s, %s): %v", id, status, err)
	}
}

// same reports the fields in which got differs from want.
func same(got, want *mcpstore.Task) []string {
	var diff []string
	check := func(name string, ok bool, g, w any) {
		if !ok {
			diff = append(diff, fmt.Sprintf("%s %v, want %v", name, g, w))
		}
	}
	check("ID", got.ID == want.ID, got.ID, want.ID)
	check("Owner", got.Owner == want.Owner, got.Owner, want.Owner)
	check("Tool", got.Tool == want.Tool, got.Tool, want.Tool)
	check("Status", got.Status == want.Status, got.Status, want.Status)
	check("StatusMessage", got.StatusMessage == want.StatusMessage, got.StatusMessage, want.StatusMessage)
	check("CreatedAt", got.CreatedAt.Equal(want.CreatedAt), got.CreatedAt, want.CreatedAt)
	check("UpdatedAt", got.UpdatedAt.Equal(want.UpdatedAt), got.UpdatedAt, want.UpdatedAt)
	check("TTL", got.TTL == want.TTL, got.TTL, want.TTL)
	check("PollInterval", got.PollInterval == want.PollInterval, got.PollInterval, want.PollInterval)
	check("Result", bytes.Equal(got.Result, want.Result), string(got.Result), string(want.Result))
	check("Error", bytes.Equal(got.Error, want.Error), string(got.Error), string(want.Error))
	check("InputRequests", bytes.Equal(got.InputRequests, want.InputRequests), string(got.InputRequests), string(want.InputRequests))
	check("Runner", got.Runner == want.Runner, got.Runner, want.Runner)
	check("LeaseUntil", got.LeaseUntil.Equal(want.LeaseUntil), got.LeaseUntil, want.LeaseUntil)
	return diff
}

func ids(tasks []*mcpstore.Task) []string {
	var ids []string
	for _, t := range tasks {
		ids = append(ids, t.ID)
	}
	return ids
}

// createdTaskIsFound: Create returns once a Get on any replica finds
// the task, with every field as given; a task of 2026-07-28 clients
// without authorization has the owner "".
func createdTaskIsFound(t *testing.T, e *taskEnv) {
	want := newTask(e, "T1", "a")
	want.StatusMessage, want.InputRequests = "asking", []byte(`{"k":{"method":"elicitation/create"}}`)
	want.Result, want.Error = []byte(`{"content":[]}`), []byte(`{"code":1,"message":"m"}`)
	create(t, e.s, want)
	if diff := same(get(t, e.r, "a", "T1"), want); diff != nil {
		t.Errorf("the task as found on a replica differs: %v", diff)
	}
	anon := newTask(e, "T2", "")
	create(t, e.s, anon)
	if diff := same(get(t, e.r, "", "T2"), anon); diff != nil {
		t.Errorf("the task of owner \"\" differs: %v", diff)
	}
}

// tasksFoundByOwner: Get, List and a List cursor find a task only for
// its owner.
func tasksFoundByOwner(t *testing.T, e *taskEnv) {
	ctx := context.Background()
	create(t, e.s, newTask(e, "A1", "a"))
	create(t, e.s, newTask(e, "B1", "b"))
	if _, err := e.s.Get(ctx, "b", "A1"); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("Get of a's task by b: %v, want ErrTaskNotFound", err)
	}
	if _, err := e.s.Get(ctx, "", "A1"); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("Get of a's task by owner \"\": %v, want ErrTaskNotFound", err)
	}
	if page, _, err := e.s.List(ctx, "b", "", 0); err != nil || !slices.Equal(ids(page), []string{"B1"}) {
		t.Errorf("List of b = %v, %v; want [B1]", ids(page), err)
	}
	if _, _, err := e.s.List(ctx, "b", "A1", 10); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("List of b after a's task: %v, want ErrTaskNotFound", err)
	}
}

// unknownTaskNotFound: every call about a task the store does not hold
// fails with ErrTaskNotFound.
func unknownTaskNotFound(t *testing.T, e *taskEnv) {
	ctx := context.Background()
	create(t, e.s, newTask(e, "T1", "a"))
	_, getErr := e.s.Get(ctx, "a", "nope")
	_, _, listErr := e.s.List(ctx, "a", "nope", 10)
	_, _, reapErr := e.s.Reap(ctx, "a", "nope", e.now().Add(time.Hour), errObj)
	for call, err := range map[string]error{
		"Get":         getErr,
		"List after":  listErr,
		"Update":      e.s.Update(ctx, &mcpstore.Task{ID: "nope", Status: mcpstore.TaskCompleted}),
		"Renew":       e.s.Renew(ctx, "nope", "r1", e.now().Add(time.Minute)),
		"Reap":        reapErr,
		"PostAnswers": e.s.PostAnswers(ctx, "nope", map[string][]byte{"k": []byte(`{}`)}),
	} {
		if !errors.Is(err, mcpstore.ErrTaskNotFound) {
			t.Errorf("%s of an unknown task: %v, want ErrTaskNotFound", call, err)
		}
	}
}

// terminalIsFinal: once a task has a terminal status, Update refuses
// every change with ErrTaskTerminal and the task stays as it ended.
func terminalIsFinal(t *testing.T, e *taskEnv) {
	ctx := context.Background()
	task := newTask(e, "T1", "a")
	create(t, e.s, task)
	task.Status = mcpstore.TaskInputRequired
	if err := e.s.Update(ctx, task); err != nil {
		t.Fatalf("Update to input_required: %v", err)
	}
	task.Status, task.Result = mcpstore.TaskCompleted, []byte(`{"content":[]}`)
	if err := e.s.Update(ctx, task); err != nil {
		t.Fatalf("Update to completed: %v", err)
	}
	for _, st := range []mcpstore.TaskStatus{mcpstore.TaskCancelled, mcpstore.TaskFailed, mcpstore.TaskWorking} {
		late := *task
		late.Status, late.Result = st, nil
		if err := e.s.Update(ctx, &late); !errors.Is(err, mcpstore.ErrTaskTerminal) {
			t.Errorf("Update of a completed task to %s: %v, want ErrTaskTerminal", st, err)
		}
	}
	if got := get(t, e.r, "a", "T1"); got.Status != mcpstore.TaskCompleted || string(got.Result) != `{"content":[]}` {
		t.Errorf("stored %s %s, want completed with its result", got.Status, got.Result)
	}
}

// racingTerminalUpdates: of a completion and a cancel racing on two
// replicas, exactly one is stored and the other refused.
func racingTerminalUpdates(t *testing.T, e *taskEnv) {
	ctx := context.Background()
	for i := range 20 {
		id, owner := fmt.Sprint("T", i), fmt.Sprint("race", i)
		create(t, e.s, newTask(e, id, owner))
		start := make(chan struct{})
		won := make(chan mcpstore.TaskStatus, 2)
		var racers sync.WaitGroup
		for _, side := range []struct {
			s  mcpstore.TaskStore
			st mcpstore.TaskStatus
		}{{e.s, mcpstore.TaskCompleted}, {e.r, mcpstore.TaskCancelled}} {
			racers.Go(func() {
				<-start
				switch err := side.s.Update(ctx, &mcpstore.Task{ID: id, Status: side.st}); {
				case err == nil:
					won <- side.st
				case !errors.Is(err, mcpstore.ErrTaskTerminal):
					t.Errorf("racing Update to %s: %v, want nil or ErrTaskTerminal", side.st, err)
				}
			})
		}
		close(start)
		racers.Wait()
		close(won)
		var winners []mcpstore.TaskStatus
		for st := range won {
			winners = append(winners, st)
		}
		if got := get(t, e.s, owner, id); len(winners) != 1 || got.Status != winners[0] {
			t.Fatalf("round %d: updates %v succeeded, %s stored; want exactly one, stored", i, winners, got.Status)
		}
	}
}

// updateWritesRunFields: Update writes what a run changes (status and
// its message, result, error, input requests, tool, poll interval,
// update time) and keeps the owner, creation time, TTL, runner and
// lease as stored.
func updateWritesRunFields(t *testing.T, e *taskEnv) {
	orig := newTask(e, "T1", "a")
	create(t, e.s, orig)
	upd := *orig
	upd.Owner, upd.CreatedAt, upd.TTL = "b", orig.CreatedAt.Add(time.Hour), 2*time.Hour
	upd.Runner, upd.LeaseUntil = "elsewhere", time.Time{}
	upd.Status, upd.StatusMessage = mcpstore.TaskInputRequired, "asking"
	upd.UpdatedAt, upd.InputRequests = orig.UpdatedAt.Add(time.Second), []byte(`{"k":{}}`)
	upd.Tool, upd.PollInterval = "other", 5*time.Second
	if err := e.s.Update(context.Background(), &upd); err != nil {
		t.Fatal(err)
	}
	want := upd
	want.Owner, want.CreatedAt, want.TTL, want.Runner, want.LeaseUntil = orig.Owner, orig.CreatedAt, orig.TTL, orig.Runner, orig.LeaseUntil
	if diff := same(get(t, e.r, "a", "T1"), &want); diff != nil {
		t.Errorf("after Update: %v", diff)
	}
}

// listPages: List returns an owner's tasks in creation order, a page at
// a time, with the id of the last as the cursor of the next page, ""
// after the last; a limit of 0 returns them all.
func listPages(t *testing.T, e *taskEnv) {
	ctx := context.Background()
	for i := range 7 {
		create(t, e.s, newTask(e, fmt.Sprint("T", i), "a"))
		if i%3 == 0 {
			create(t, e.s, newTask(e, fmt.Sprint("B", i), "b"))
		}
	}
	var got []string
	after, pages := "", 0
	for {
		page, next, err := e.r.List(ctx, "a", after, 2)
		if err != nil {
			t.Fatalf("List after %q: %v", after, err)
		}
		pages++
		got = append(got, ids(page)...)
		if next == "" || pages > 7 {
			break
		}
		if want := page[len(page)-1].ID; next != want {
			t.Errorf("cursor %q after page %v, want its last id %s", next, ids(page), want)
		}
		after = next
	}
	want := []string{"T0", "T1", "T2", "T3", "T4", "T5", "T6"}
	if !slices.Equal(got, want) || pages != 4 {
		t.Errorf("listed %v in %d pages of 2, want %v in 4", got, pages, want)
	}
	all, next, err := e.s.List(ctx, "a", "", 0)
	if err != nil || !slices.Equal(ids(all), want) || next != "" {
		t.Errorf("List without a limit = %v, next %q, %v; want %v, no next", ids(all), next, err, want)
	}
}

// expiredTaskNotFound: a task whose TTL has passed is not found by Get,
// List or Renew; a task without a TTL is kept.
func expiredTaskNotFound(t *testing.T, e *taskEnv) {
	ctx := context.Background()
	short, forever, long := newTask(e, "short", "a"), newTask(e, "forever", "a"), newTask(e, "long", "a")
	short.TTL, forever.TTL = time.Minute, 0
	for _, task := range []*mcpstore.Task{short, forever, long} {
		create(t, e.s, task)
	}
	e.clock.Advance(2 * time.Minute)
	if _, err := e.r.Get(ctx, "a", "short"); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("Get after the TTL: %v, want ErrTaskNotFound", err)
	}
	if err := e.r.Renew(ctx, "short", "r1", e.now().Add(time.Minute)); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("Renew after the TTL: %v, want ErrTaskNotFound", err)
	}
	if all, _, err := e.r.List(ctx, "a", "", 0); err != nil || !slices.Equal(ids(all), []string{"forever", "long"}) {
		t.Errorf("List after the TTL = %v, %v; want [forever long]", ids(all), err)
	}
	e.clock.Advance(2 * time.Hour)
	get(t, e.r, "a", "forever")
}

// fill creates n working tasks of owner, failing t unless each fits.
func fill(t *testing.T, e *taskEnv, owner string, n int, ttl time.Duration, ended bool) {
	t.Helper()
	for i := range n {
		task := newTask(e, fmt.Sprint(owner, "-", i), owner)
		task.TTL = ttl
		create(t, e.s, task)
		if ended {
			end(t, e.s, task.ID, mcpstore.TaskCompleted)
		}
	}
}

// refused fails t unless creating a task of owner fails with
// ErrTooManyTasks.
func refused(t *testing.T, e *taskEnv, owner, why string) {
	t.Helper()
	if err := e.r.Create(context.Background(), newTask(e, owner+"-over", owner)); !errors.Is(err, mcpstore.ErrTooManyTasks) {
		t.Errorf("Create %s: %v, want ErrTooManyTasks", why, err)
	}
}

// ownerBound: Create refuses an owner's task beyond MaxPerOwner tasks
// not ended; another owner's is not counted, and a task that ends,
// completed or reaped, gives its place back.
func ownerBound(t *testing.T, e *taskEnv) {
	lim := limits(t, e)
	fill(t, e, "a", lim.MaxPerOwner, time.Hour, false)
	refused(t, e, "a", fmt.Sprintf("beyond %d running tasks", lim.MaxPerOwner))
	create(t, e.s, newTask(e, "b-0", "b"))
	end(t, e.s, "a-0", mcpstore.TaskCompleted)
	create(t, e.r, newTask(e, "a-next", "a"))
	refused(t, e, "a", "once the ended task's place is taken")
	ctx := context.Background()
	if err := e.s.Renew(ctx, "a-1", "r1", e.now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, reaped, err := e.s.Reap(ctx, "a", "a-1", e.now(), errObj); err != nil || !reaped {
		t.Fatalf("Reap of a lapsed task: %v, %v", reaped, err)
	}
	create(t, e.r, newTask(e, "a-after-reap", "a"))
}

// racingCreates: creates racing on two replicas never take more than
// MaxPerOwner places of one owner.
func racingCreates(t *testing.T, e *taskEnv) {
	lim := limits(t, e)
	var racers sync.WaitGroup
	var mu sync.Mutex
	created := 0
	start := make(chan struct{})
	for i := range lim.MaxPerOwner + 8 {
		s := e.s
		if i%2 == 1 {
			s = e.r
		}
		racers.Go(func() {
			<-start
			err := s.Create(context.Background(), newTask(e, fmt.Sprint("T", i), "a"))
			switch {
			case err == nil:
				mu.Lock()
				created++
				mu.Unlock()
			case !errors.Is(err, mcpstore.ErrTooManyTasks):
				t.Errorf("racing Create: %v", err)
			}
		})
	}
	close(start)
	racers.Wait()
	if created != lim.MaxPerOwner {
		t.Errorf("%d racing creates succeeded, want MaxPerOwner, %d", created, lim.MaxPerOwner)
	}
}

// keptBound: Create refuses an owner's task beyond MaxKept tasks kept,
// ended ones included; another owner's is not counted.
func keptBound(t *testing.T, e *taskEnv) {
	lim := limits(t, e)
	fill(t, e, "a", lim.MaxKept, time.Hour, true)
	refused(t, e, "a", fmt.Sprintf("beyond %d tasks kept", lim.MaxKept))
	create(t, e.r, newTask(e, "b-0", "b"))
}

// createdEnded: a task created in a terminal status, as a call that
// ended before it became a task is, counts among the tasks kept only: it
// takes no place of the tasks not ended, its place there is not given
// back twice, and Lapsed never returns it, whatever its lease.
func createdEnded(t *testing.T, e *taskEnv) {
	lim := limits(t, e)
	fill(t, e, "a", lim.MaxPerOwner, time.Hour, false)
	done := newTask(e, "a-done", "a")
	done.Status, done.Result, done.LeaseUntil = mcpstore.TaskCompleted, []byte(`{"content":[]}`), e.now().Add(-time.Second)
	create(t, e.r, done)
	if got := get(t, e.s, "a", "a-done"); got.Status != mcpstore.TaskCompleted || string(got.Result) != `{"content":[]}` {
		t.Errorf("task created completed read as %s with %s", got.Status, got.Result)
	}
	refused(t, e, "a", "beyond the running tasks, the one created ended aside")
	if got := lapsedIDs(t, e.r, e.now(), 0); got != nil {
		t.Errorf("Lapsed = %v, want none: the task created ended has no lease to lapse", got)
	}
	end(t, e.s, "a-0", mcpstore.TaskCompleted)
	create(t, e.r, newTask(e, "a-next", "a"))
	refused(t, e, "a", "once the ended task's place is taken")
	fill(t, e, "b", lim.MaxKept-1, time.Hour, true)
	more := newTask(e, "b-done", "b")
	more.Status = mcpstore.TaskCompleted
	create(t, e.s, more)
	if err := e.r.Create(context.Background(), &mcpstore.Task{ID: "b-over", Owner: "b", Status: mcpstore.TaskCompleted,
		CreatedAt: e.now(), UpdatedAt: e.now(), TTL: time.Hour}); !errors.Is(err, mcpstore.ErrTooManyTasks) {
		t.Errorf("Create of an ended task beyond %d tasks kept: %v, want ErrTooManyTasks", lim.MaxKept, err)
	}
}

// expiredFreePlaces: tasks whose TTL has passed count in neither bound.
func expiredFreePlaces(t *testing.T, e *taskEnv) {
	lim := limits(t, e)
	fill(t, e, "a", lim.MaxPerOwner, time.Minute, false)
	refused(t, e, "a", "beyond the running tasks")
	fill(t, e, "b", lim.MaxKept, time.Minute, true)
	refused(t, e, "b", "beyond the tasks kept")
	e.clock.Advance(2 * time.Minute)
	create(t, e.r, newTask(e, "a-later", "a"))
	create(t, e.r, newTask(e, "b-later", "b"))
}

// renewMovesLease: Renew sets the runner and lease of a task that has
// not ended, as any replica then reads them, and refuses an ended task
// with ErrTaskTerminal, leaving its lease.
func renewMovesLease(t *testing.T, e *taskEnv) {
	ctx := context.Background()
	create(t, e.s, newTask(e, "T1", "a"))
	until := e.now().Add(3 * time.Minute)
	if err := e.r.Renew(ctx, "T1", "r2", until); err != nil {
		t.Fatal(err)
	}
	if got := get(t, e.s, "a", "T1"); got.Runner != "r2" || !got.LeaseUntil.Equal(until) {
		t.Errorf("after Renew: runner %q, lease %v; want r2, %v", got.Runner, got.LeaseUntil, until)
	}
	end(t, e.s, "T1", mcpstore.TaskCancelled)
	if err := e.r.Renew(ctx, "T1", "r3", until.Add(time.Minute)); !errors.Is(err, mcpstore.ErrTaskTerminal) {
		t.Errorf("Renew of a cancelled task: %v, want ErrTaskTerminal", err)
	}
	if got := get(t, e.s, "a", "T1"); got.Runner != "r2" || !got.LeaseUntil.Equal(until) {
		t.Errorf("after a refused Renew: runner %q, lease %v; want r2, %v", got.Runner, got.LeaseUntil, until)
	}
}

// reapOnlyLapsed: Reap fails an unended task whose lease ended before
// now, for its owner, with the error object, ReapedMessage and no input
// requests, and drops its answers; it leaves a task whose lease has not
// ended, one that ended, and one without a lease.
func reapOnlyLapsed(t *testing.T, e *taskEnv) {
	ctx := context.Background()
	task := newTask(e, "T1", "a")
	task.InputRequests = []byte(`{"k":{}}`)
	create(t, e.s, task)
	if got, reaped, err := e.r.Reap(ctx, "a", "T1", task.LeaseUntil.Add(-time.Second), errObj); err != nil || reaped || got.Status != mcpstore.TaskWorking {
		t.Errorf("Reap before the lease ends = %v, %v, %v; want working, not reaped", got, reaped, err)
	}
	lapsed := task.LeaseUntil.Add(time.Second)
	if _, _, err := e.r.Reap(ctx, "b", "T1", lapsed, errObj); !errors.Is(err, mcpstore.ErrTaskNotFound) {
		t.Errorf("Reap by another owner: %v, want ErrTaskNotFound", err)
	}
	if err := e.s.PostAnswers(ctx, "T1", map[string][]byte{"k": []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	got, reaped, err := e.r.Reap(ctx, "a", "T1", lapsed, errObj)
	if err != nil || !reaped {
		t.Fatalf("Reap after the lease = %v, %v; want reaped", reaped, err)
	}
	want := *task
	want.Status, want.StatusMessage, want.Error, want.InputRequests, want.UpdatedAt = mcpstore.TaskFailed, mcpstore.ReapedMessage, errObj, nil, lapsed
	if diff := same(got, &want); diff != nil {
		t.Errorf("the reaped task: %v", diff)
	}
	if diff := same(get(t, e.s, "a", "T1"), &want); diff != nil {
		t.Errorf("the reaped task as stored: %v", diff)
	}
	if box, err := e.s.TakeAnswers(ctx, "T1"); len(box) != 0 || err != nil {
		t.Errorf("answers of a reaped task: %s, %v; want none", box, err)
	}
	done, bare := newTask(e, "T2", "a"), newTask(e, "T3", "a")
	bare.Runner, bare.LeaseUntil = "", time.Time{}
	create(t, e.s, done)
	create(t, e.s, bare)
	end(t, e.s, "T2", mcpstore.TaskCompleted)
	for _, id := range []string{"T2", "T3"} {
		if got, reaped, err := e.r.Reap(ctx, "a", id, lapsed.Add(time.Hour), errObj); err != nil || reaped || got.Status == mcpstore.TaskFailed {
			t.Errorf("Reap of %s = %v, %v, %v; want it left as it was", id, got, reaped, err)
		}
	}
}

// reapedOnce: of replicas reaping one lapsed task at once, one reports
// that it failed it; all find it failed.
func reapedOnce(t *testing.T, e *taskEnv) {
	task := newTask(e, "T1", "a")
	create(t, e.s, task)
	lapsed := task.LeaseUntil.Add(time.Second)
	var reapers sync.WaitGroup
	won := make(chan bool, 4)
	start := make(chan struct{})
	for i := range 4 {
		s := e.s
		if i%2 == 1 {
			s = e.r
		}
		reapers.Go(func() {
			<-start
			got, reaped, err := s.Reap(context.Background(), "a", "T1", lapsed, errObj)
			if err != nil || got.Status != mcpstore.TaskFailed {
				t.Errorf("racing Reap = %v, %v; want failed", got, err)
			}
			won <- reaped
		})
	}
	close(start)
	reapers.Wait()
	close(won)
	n := 0
	for reaped := range won {
		if reaped {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d racing reapers report that they failed the task, want 1", n)
	}
}

func lapsedIDs(t *testing.T, s mcpstore.SharedTaskStore, now time.Time, limit int) []string {
	t.Helper()
	found, err := s.Lapsed(context.Background(), now, limit)
	if err != nil {
		t.Fatal(err)
	}
	got := ids(found)
	slices.Sort(got)
	return got
}

// lapsedFinds: Lapsed returns the tasks of every owner that have not
// ended and whose lease ended before now, following renewals and ends.
func lapsedFinds(t *testing.T, e *taskEnv) {
	ctx := context.Background()
	start := e.now()
	for i, owner := range []string{"a", "b", "", "a", "b", "c"} {
		task := newTask(e, fmt.Sprint("T", i), owner)
		task.LeaseUntil = start.Add(time.Duration(i+1) * time.Second)
		create(t, e.s, task)
	}
	bare := newTask(e, "U", "c")
	bare.Runner, bare.LeaseUntil = "", time.Time{}
	create(t, e.s, bare)
	if got := lapsedIDs(t, e.r, start, 0); got != nil {
		t.Errorf("Lapsed before any lease ends = %v, want none", got)
	}
	at := start.Add(3500 * time.Millisecond)
	if got := lapsedIDs(t, e.r, at, 0); !slices.Equal(got, []string{"T0", "T1", "T2"}) {
		t.Errorf("Lapsed = %v, want [T0 T1 T2]", got)
	}
	if err := e.s.Renew(ctx, "T0", "r2", start.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	end(t, e.s, "T1", mcpstore.TaskCompleted)
	if err := e.s.Update(ctx, &mcpstore.Task{ID: "T2", Status: mcpstore.TaskInputRequired}); err != nil {
		t.Fatal(err)
	}
	if got := lapsedIDs(t, e.r, at, 0); !slices.Equal(got, []string{"T2"}) {
		t.Errorf("Lapsed after a renewal and an end = %v, want [T2]", got)
	}
	if _, reaped, err := e.s.Reap(ctx, "", "T2", at, errObj); err != nil || !reaped {
		t.Fatalf("Reap: %v, %v", reaped, err)
	}
	if got := lapsedIDs(t, e.r, start.Add(2*time.Minute), 0); !slices.Equal(got, []string{"T0", "T3", "T4", "T5"}) {
		t.Errorf("Lapsed after every lease = %v, want [T0 T3 T4 T5]", got)
	}
}

// lapsedLimit: Lapsed returns at most limit tasks, and all of them when
// limit is 0.
func lapsedLimit(t *testing.T, e *taskEnv) {
	start := e.now()
	for i := range 5 {
		task := newTask(e, fmt.Sprint("T", i), fmt.Sprint("o", i))
		task.LeaseUntil = start.Add(time.Second)
		create(t, e.s, task)
	}
	at := start.Add(time.Minute)
	if got := lapsedIDs(t, e.r, at, 2); len(got) != 2 {
		t.Errorf("Lapsed with limit 2 = %v, want 2 tasks", got)
	}
	for _, limit := range []int{0, 10} {
		if got := lapsedIDs(t, e.r, at, limit); len(got) != 5 {
			t.Errorf("Lapsed with limit %d = %v, want the 5", limit, got)
		}
	}
}

// answersTakenOnce: answers posted on any replica wait, merged by key,
// until taken, once; an ended task drops its answers and refuses more
// with ErrTaskTerminal.
func answersTakenOnce(t *testing.T, e *taskEnv) {
	ctx := context.Background()
	create(t, e.s, newTask(e, "T1", "a"))
	for _, box := range []map[string][]byte{{"a": []byte(`1`)}, {"b": []byte(`2`)}} {
		if err := e.r.PostAnswers(ctx, "T1", box); err != nil {
			t.Fatal(err)
		}
	}
	box, err := e.s.TakeAnswers(ctx, "T1")
	if err != nil || len(box) != 2 || string(box["a"]) != "1" || string(box["b"]) != "2" {
		t.Errorf("TakeAnswers = %s, %v; want a:1 b:2", box, err)
	}
	if box, err := e.s.TakeAnswers(ctx, "T1"); len(box) != 0 || err != nil {
		t.Errorf("TakeAnswers again = %s, %v; want none", box, err)
	}
	if err := e.r.PostAnswers(ctx, "T1", map[string][]byte{"c": []byte(`3`)}); err != nil {
		t.Fatal(err)
	}
	end(t, e.s, "T1", mcpstore.TaskCancelled)
	if box, err := e.s.TakeAnswers(ctx, "T1"); len(box) != 0 || err != nil {
		t.Errorf("TakeAnswers of an ended task = %s, %v; want none", box, err)
	}
	if err := e.r.PostAnswers(ctx, "T1", map[string][]byte{"d": []byte(`4`)}); !errors.Is(err, mcpstore.ErrTaskTerminal) {
		t.Errorf("PostAnswers for an ended task: %v, want ErrTaskTerminal", err)
	}
}
