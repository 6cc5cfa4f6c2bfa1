package mcpstore

import (
	"container/heap"
	"container/list"
	"context"
	"errors"
	"sync"
	"time"
)

// TaskStatus is where a task is in its life.
type TaskStatus string

// The task statuses. Completed, failed and cancelled are terminal: a task
// in one of them changes no more.
const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
)

// Terminal reports whether s is a status a task never leaves.
func (s TaskStatus) Terminal() bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled
}

// Task is the state of one task as a [TaskStore] keeps it: everything a
// client may ask of it, and nothing that lives only in the process that
// runs it (its goroutine, the questions it waits on).
type Task struct {
	ID            string
	Owner         string // who may see it: a session, or "" for 2026-07-28 clients
	Tool          string
	Status        TaskStatus
	StatusMessage string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	TTL           time.Duration // how long it is kept after its creation; 0: unlimited
	PollInterval  time.Duration
	// Result is the call's result as JSON, once completed (on 2025-11-25,
	// also when failed with a tool error); Error is the JSON-RPC error
	// object of a task failed by a protocol error.
	Result, Error []byte
	// InputRequests are the open questions of a 2026-07-28 task in
	// input_required, a JSON object of key to request.
	InputRequests []byte
	// Runner is the ReplicaID of the server running the task, and
	// LeaseUntil when its lease ends unless renewed (see
	// [SharedTaskStore]); zero when no lease is kept.
	Runner     string
	LeaseUntil time.Time
}

// expired reports whether t has outlived its TTL at now.
func (t *Task) expired(now time.Time) bool {
	return t.TTL > 0 && now.Sub(t.CreatedAt) > t.TTL
}

// TaskStore keeps the tasks of a server. The default, [NewMemoryTaskStore],
// keeps them in memory. A deployment of several replicas behind one
// endpoint can share a store instead, which must provide:
//
//   - Create returns only when a Get on any replica finds the task, so
//     that a client may ask for it at once, with every field as given;
//   - Update never changes a task whose stored status is terminal (it
//     returns [ErrTaskTerminal]), atomically, so that a cancellation and
//     a completion racing on two replicas leave one terminal status;
//     it writes what a run changes, and keeps the owner, creation time,
//     TTL, runner and lease as stored;
//   - Get and List find a task only for its owner, and no expired task;
//     a call about a task it does not hold fails with [ErrTaskNotFound];
//   - List pages an owner's tasks in creation order;
//   - Create refuses, with [ErrTooManyTasks], a task beyond its
//     [TaskLimits], atomically, however many replicas create at once;
//     a task created in a terminal status (a call that ended before it
//     became a task) counts among those kept, not those not ended, and
//     keeps no lease;
//   - ids it is given are unguessable (the server makes them from 128
//     random bits), so they may be its keys.
//
// The goroutine running a task lives in the process that created it. For
// answers, cancels and a replica's death to reach a task whose handler
// runs elsewhere, a shared store also implements [SharedTaskStore].
//
// The suite [github.com/mcpgen/mcpgen/runtime/mcpstore/storetest.TaskStore]
// checks each clause of this contract and of SharedTaskStore's, but
// for the cost of Lapsed, which BenchmarkMemoryTaskStore measures.
type TaskStore interface {
	Create(ctx context.Context, t *Task) error
	Get(ctx context.Context, owner, id string) (*Task, error)
	Update(ctx context.Context, t *Task) error
	// List returns up to limit tasks (all when limit <= 0) of owner
	// created after the task after ("" for the first page) in creation
	// order, and the id to pass as after for the next page ("" when there
	// is none).
	List(ctx context.Context, owner, after string, limit int) ([]*Task, string, error)
}

// SharedTaskStore is what a [TaskStore] shared by several replicas adds,
// so that nothing sent to a task is lost whichever replica receives it.
// The replica running a task holds a lease on it, renewed every
// mcpserver.Server.TaskLease; a task whose lease lapsed is failed by the
// reaper of any replica, which looks for them every TaskLease, or by the
// first replica that reads it before. Answers for its handler wait in
// the store until the runner takes them; a cancel is the stored status
// itself, which the runner sees at its next renewal. (A [Bus] makes both
// arrive at once; the lease makes them arrive within one TaskLease
// without it.)
//
// A shared implementation must provide, each atomically: Renew only of a
// task that is not terminal; Reap only of a task whose lease has lapsed,
// reporting the one call that failed it; answers kept until taken, each
// taken once, and dropped when the task ends. Update leaves Runner and
// LeaseUntil as stored: only Create and Renew write them. Lapsed must
// cost no more than the tasks it returns, however many the store holds,
// since every replica asks it every TaskLease.
type SharedTaskStore interface {
	TaskStore
	// Renew extends the lease replica holds on task id to until. It
	// returns ErrTaskTerminal for a task that has ended (it was cancelled,
	// or reaped) and ErrTaskNotFound for one that is gone.
	Renew(ctx context.Context, id, replica string, until time.Time) error
	// Reap fails owner's task id with the JSON-RPC error object errObj
	// and the status message [ReapedMessage], updated at now, when it is
	// not terminal and its lease ended before now, and returns
	// the task as stored afterwards, reaped or not; reaped is true only
	// for the call that failed it, so that one replica tells the client.
	Reap(ctx context.Context, owner, id string, now time.Time, errObj []byte) (t *Task, reaped bool, err error)
	// Lapsed returns up to limit tasks (all when limit <= 0), of every
	// owner, that are not terminal and whose lease ended before now, for
	// the reaper to fail.
	// A task it returns may have been renewed or have ended since: Reap
	// decides.
	Lapsed(ctx context.Context, now time.Time, limit int) ([]*Task, error)
	// PostAnswers keeps answers (input key to JSON response) for the
	// handler of task id until its runner takes them.
	PostAnswers(ctx context.Context, id string, answers map[string][]byte) error
	// TakeAnswers returns and forgets the answers posted for task id.
	TakeAnswers(ctx context.Context, id string) (map[string][]byte, error)
}

// Errors of a TaskStore.
var (
	ErrTaskNotFound = errors.New("task not found")
	ErrTaskTerminal = errors.New("the task has ended")
	ErrTooManyTasks = errors.New("too many tasks")
)

// The default bounds of a task store (see [TaskLimits]), and of the
// memory store's tasks of all owners together.
const (
	DefaultMaxPerOwner = 100
	DefaultMaxKept     = 10000
	DefaultMaxTotal    = 10000
)

// TaskLimits bound the tasks a store keeps of one owner: Create refuses
// more with ErrTooManyTasks. A store embeds them, so that every store
// names and means its bounds alike. (Clients of 2026-07-28 without
// authorization have no identity and share one owner, so for them
// MaxPerOwner bounds the tasks running at once for all together.)
type TaskLimits struct {
	// MaxPerOwner bounds an owner's tasks that have not ended. Zero
	// means DefaultMaxPerOwner.
	MaxPerOwner int
	// MaxKept bounds an owner's tasks kept, ended ones included until
	// their TTL passes. Zero means DefaultMaxKept.
	MaxKept int
}

// Limits returns l with each field that is not positive set to its
// default: the bounds a store applies.
func (l TaskLimits) Limits() TaskLimits {
	return TaskLimits{MaxPerOwner: orDefault(l.MaxPerOwner, DefaultMaxPerOwner), MaxKept: orDefault(l.MaxKept, DefaultMaxKept)}
}

// MemoryTaskStore is the default [TaskStore]: tasks in memory, bounded per
// owner and in total, removed once their TTL has passed. Every operation
// but List and Lapsed costs the same however many tasks it holds (a heap
// operation at most): expiry is a heap ordered by end of life, leases a
// heap ordered by their end, and each owner's tasks a list in creation
// order.
type MemoryTaskStore struct {
	// TaskLimits bound each owner's tasks.
	TaskLimits
	// MaxTotal bounds the tasks kept of all owners together, ended ones
	// included until their TTL passes; Create refuses more with
	// ErrTooManyTasks. Zero means DefaultMaxTotal.
	MaxTotal int

	mu      sync.Mutex
	byID    map[string]*memTask
	answers map[string]map[string][]byte // posted for tasks by id
	owners  map[string]*list.List        // of *memTask, in creation order
	running map[string]int               // per owner, the tasks not ended
	ending  taskHeap                     // the tasks with a TTL, soonest end first
	leases  taskHeap                     // the unended tasks with a lease, soonest end first
	now     func() time.Time
	initial sync.Once
}

// memTask is a stored task with its places in the owner's list and in
// the heaps of ends and of leases.
type memTask struct {
	Task
	elem *list.Element
	at   [2]int // index in the heap of ends [byEnd] and of leases [byLease], or -1
}

// NewMemoryTaskStore returns an empty in-memory store.
func NewMemoryTaskStore() *MemoryTaskStore { return &MemoryTaskStore{} }

func (m *MemoryTaskStore) init() {
	m.initial.Do(func() {
		m.byID = map[string]*memTask{}
		m.owners = map[string]*list.List{}
		m.running = map[string]int{}
		m.ending.kind, m.leases.kind = byEnd, byLease
		if m.now == nil {
			m.now = time.Now
		}
	})
}

// Create stores a copy of t.
func (m *MemoryTaskStore) Create(ctx context.Context, t *Task) error {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepLocked()
	lim, maxAll := m.Limits(), orDefault(m.MaxTotal, DefaultMaxTotal)
	own := m.owners[t.Owner]
	ended := t.Status.Terminal()
	if !ended && m.running[t.Owner] >= lim.MaxPerOwner || own != nil && own.Len() >= lim.MaxKept || len(m.byID) >= maxAll {
		return ErrTooManyTasks
	}
	if own == nil {
		own = list.New()
		m.owners[t.Owner] = own
	}
	mt := &memTask{Task: *t, at: [2]int{-1, -1}}
	mt.elem = own.PushBack(mt)
	m.byID[t.ID] = mt
	if t.TTL > 0 {
		heap.Push(&m.ending, mt)
	}
	if !ended {
		m.running[t.Owner]++
	}
	m.leaseLocked(mt)
	return nil
}

// endedLocked counts t, which has just ended or is removed unended, out of
// its owner's running tasks.
func (m *MemoryTaskStore) endedLocked(t *memTask) {
	if m.running[t.Owner]--; m.running[t.Owner] <= 0 {
		delete(m.running, t.Owner)
	}
}

func orDefault(n, d int) int {
	if n > 0 {
		return n
	}
	return d
}

// Get returns a copy of owner's task id.
func (m *MemoryTaskStore) Get(ctx context.Context, owner, id string) (*Task, error) {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepLocked()
	t := m.byID[id]
	if t == nil || t.Owner != owner || t.expired(m.now()) {
		return nil, ErrTaskNotFound
	}
	c := t.Task
	return &c, nil
}

// Update replaces the stored task of t's id, unless that one is terminal.
// Its owner and creation time stay those it was created with.
func (m *MemoryTaskStore) Update(ctx context.Context, t *Task) error {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.byID[t.ID]
	switch {
	case old == nil:
		return ErrTaskNotFound
	case old.Status.Terminal():
		return ErrTaskTerminal
	}
	owner, created, ttl, runner, lease := old.Owner, old.CreatedAt, old.TTL, old.Runner, old.LeaseUntil
	old.Task = *t
	old.Owner, old.CreatedAt, old.TTL, old.Runner, old.LeaseUntil = owner, created, ttl, runner, lease
	if t.Status.Terminal() {
		m.endedLocked(old)
		delete(m.answers, t.ID)
	}
	m.leaseLocked(old)
	return nil
}

// Renew implements [SharedTaskStore].
func (m *MemoryTaskStore) Renew(ctx context.Context, id, replica string, until time.Time) error {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.byID[id]
	switch {
	case t == nil || t.expired(m.now()):
		return ErrTaskNotFound
	case t.Status.Terminal():
		return ErrTaskTerminal
	}
	t.Runner, t.LeaseUntil = replica, until
	m.leaseLocked(t)
	return nil
}

// Reap implements [SharedTaskStore].
func (m *MemoryTaskStore) Reap(ctx context.Context, owner, id string, now time.Time, errObj []byte) (*Task, bool, error) {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.byID[id]
	if t == nil || t.Owner != owner || t.expired(m.now()) {
		return nil, false, ErrTaskNotFound
	}
	reaped := !t.Status.Terminal() && !t.LeaseUntil.IsZero() && t.LeaseUntil.Before(now)
	if reaped {
		t.Status, t.StatusMessage, t.InputRequests = TaskFailed, ReapedMessage, nil
		t.Error, t.UpdatedAt = errObj, now
		delete(m.answers, id)
		m.endedLocked(t)
		m.leaseLocked(t)
	}
	c := t.Task
	return &c, reaped, nil
}

// ReapedMessage is the status message of a task that
// [SharedTaskStore.Reap] failed.
const ReapedMessage = "The server running this task stopped."

// Lapsed implements [SharedTaskStore]. It walks only the top of the heap
// of leases, where the lapsed ones are: a lease that has not lapsed ends
// no sooner than every one below it.
func (m *MemoryTaskStore) Lapsed(ctx context.Context, now time.Time, limit int) ([]*Task, error) {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepLocked()
	var found []*Task
	next := []int{0}
	for len(next) > 0 && (limit <= 0 || len(found) < limit) {
		i := next[len(next)-1]
		next = next[:len(next)-1]
		if i >= len(m.leases.tasks) || !m.leases.tasks[i].LeaseUntil.Before(now) {
			continue
		}
		c := m.leases.tasks[i].Task
		found = append(found, &c)
		next = append(next, 2*i+2, 2*i+1)
	}
	return found, nil
}

// leaseLocked keeps t's place in the heap of leases in step with its
// status and lease: there while it has a lease and has not ended.
func (m *MemoryTaskStore) leaseLocked(t *memTask) {
	want := !t.LeaseUntil.IsZero() && !t.Status.Terminal()
	switch {
	case want && t.at[byLease] < 0:
		heap.Push(&m.leases, t)
	case want:
		heap.Fix(&m.leases, t.at[byLease])
	case t.at[byLease] >= 0:
		heap.Remove(&m.leases, t.at[byLease])
	}
}

// PostAnswers implements [SharedTaskStore].
func (m *MemoryTaskStore) PostAnswers(ctx context.Context, id string, answers map[string][]byte) error {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.byID[id]
	switch {
	case t == nil:
		return ErrTaskNotFound
	case t.Status.Terminal():
		return ErrTaskTerminal
	}
	if m.answers == nil {
		m.answers = map[string]map[string][]byte{}
	}
	box := m.answers[id]
	if box == nil {
		box = map[string][]byte{}
		m.answers[id] = box
	}
	for k, v := range answers {
		box[k] = append([]byte(nil), v...)
	}
	return nil
}

// TakeAnswers implements [SharedTaskStore].
func (m *MemoryTaskStore) TakeAnswers(ctx context.Context, id string) (map[string][]byte, error) {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	box := m.answers[id]
	delete(m.answers, id)
	return box, nil
}

// List returns a page of owner's tasks. It walks only owner's tasks.
func (m *MemoryTaskStore) List(ctx context.Context, owner, after string, limit int) ([]*Task, string, error) {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepLocked()
	own := m.owners[owner]
	var e *list.Element
	switch {
	case after != "":
		t := m.byID[after]
		if t == nil || t.Owner != owner {
			return nil, "", ErrTaskNotFound
		}
		e = t.elem.Next()
	case own != nil:
		e = own.Front()
	}
	var page []*Task
	now := m.now()
	for ; e != nil; e = e.Next() {
		t := e.Value.(*memTask)
		if t.expired(now) {
			continue
		}
		if limit > 0 && len(page) == limit {
			return page, page[len(page)-1].ID, nil
		}
		c := t.Task
		page = append(page, &c)
	}
	return page, "", nil
}

// Len reports how many tasks the store holds, expired ones not yet
// removed included.
func (m *MemoryTaskStore) Len() int {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.byID)
}

// sweepLocked removes the tasks whose TTL has passed, soonest first: each
// removal costs a heap pop, and a call with nothing to remove costs a look
// at the heap's top.
func (m *MemoryTaskStore) sweepLocked() {
	now := m.now()
	for len(m.ending.tasks) > 0 && m.ending.tasks[0].expired(now) {
		t := heap.Pop(&m.ending).(*memTask)
		if t.at[byLease] >= 0 {
			heap.Remove(&m.leases, t.at[byLease])
		}
		delete(m.byID, t.ID)
		delete(m.answers, t.ID)
		if !t.Status.Terminal() {
			m.endedLocked(t)
		}
		own := m.owners[t.Owner]
		own.Remove(t.elem)
		if own.Len() == 0 {
			delete(m.owners, t.Owner)
		}
	}
}

// The heaps of a MemoryTaskStore: the tasks by the end of their TTL, and
// the unended tasks with a lease by the end of their lease.
const (
	byEnd = iota
	byLease
)

// taskHeap is one of a store's heaps of tasks (container/heap), in which
// each task keeps its index (memTask.at[kind]), so that it can be fixed or
// removed. The kind is a field rather than a type parameter: a generic
// heap measured 5 to 12% slower on BenchmarkMemoryTaskStore, its order
// called through a dictionary.
type taskHeap struct {
	kind  int
	tasks []*memTask
}

func (h *taskHeap) Len() int { return len(h.tasks) }
func (h *taskHeap) Less(i, j int) bool {
	a, b := h.tasks[i], h.tasks[j]
	if h.kind == byLease {
		return a.LeaseUntil.Before(b.LeaseUntil)
	}
	return a.CreatedAt.Add(a.TTL).Before(b.CreatedAt.Add(b.TTL))
}
func (h *taskHeap) Swap(i, j int) {
	h.tasks[i], h.tasks[j] = h.tasks[j], h.tasks[i]
	h.tasks[i].at[h.kind], h.tasks[j].at[h.kind] = i, j
}
func (h *taskHeap) Push(x any) {
	t := x.(*memTask)
	t.at[h.kind] = len(h.tasks)
	h.tasks = append(h.tasks, t)
}
func (h *taskHeap) Pop() any {
	n := len(h.tasks) - 1
	t := h.tasks[n]
	h.tasks[n] = nil
	t.at[h.kind] = -1
	h.tasks = h.tasks[:n]
	return t
}
