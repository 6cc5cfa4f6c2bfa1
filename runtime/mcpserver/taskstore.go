package mcpserver

import (
	"context"
	"errors"
	"slices"
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
//     that a client may ask for it at once;
//   - Update never changes a task whose stored status is terminal (it
//     returns [ErrTaskTerminal]), atomically, so that a cancellation and
//     a completion racing on two replicas leave one terminal status;
//   - Get and List find a task only for its owner, and no expired task;
//   - ids it is given are unguessable (the server makes them from 128
//     random bits), so they may be its keys.
//
// The goroutine running a task lives in the process that created it: a
// tasks/cancel served by another replica marks the stored task cancelled,
// and that process notices it the next time it updates the task.
type TaskStore interface {
	Create(ctx context.Context, t *Task) error
	Get(ctx context.Context, owner, id string) (*Task, error)
	Update(ctx context.Context, t *Task) error
	// List returns up to limit tasks of owner created after the task
	// after ("" for the first page) in creation order, and the id to pass
	// as after for the next page ("" when there is none).
	List(ctx context.Context, owner, after string, limit int) ([]*Task, string, error)
}

// Errors of a TaskStore.
var (
	ErrTaskNotFound = errors.New("task not found")
	ErrTaskTerminal = errors.New("the task has ended")
	ErrTooManyTasks = errors.New("too many tasks")
)

// MemoryTaskStore is the default [TaskStore]: tasks in memory, bounded per
// owner and in total, removed once their TTL has passed.
type MemoryTaskStore struct {
	// MaxPerOwner and MaxTotal bound how many tasks are kept; Create
	// refuses more with ErrTooManyTasks. Zero means 100 per owner and
	// 10,000 in total.
	MaxPerOwner, MaxTotal int

	mu      sync.Mutex
	byID    map[string]*Task
	order   []string // ids in creation order
	perOwn  map[string]int
	now     func() time.Time
	swept   time.Time
	minTTL  time.Duration // the shortest TTL seen, for the sweep interval
	initial sync.Once
}

// NewMemoryTaskStore returns an empty in-memory store.
func NewMemoryTaskStore() *MemoryTaskStore { return &MemoryTaskStore{} }

func (m *MemoryTaskStore) init() {
	m.initial.Do(func() {
		m.byID = map[string]*Task{}
		m.perOwn = map[string]int{}
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
	m.sweepLocked(true)
	maxOwn, maxAll := orDefault(m.MaxPerOwner, 100), orDefault(m.MaxTotal, 10000)
	if m.perOwn[t.Owner] >= maxOwn || len(m.byID) >= maxAll {
		return ErrTooManyTasks
	}
	c := *t
	m.byID[t.ID] = &c
	m.order = append(m.order, t.ID)
	m.perOwn[t.Owner]++
	if t.TTL > 0 && (m.minTTL == 0 || t.TTL < m.minTTL) {
		m.minTTL = t.TTL
	}
	return nil
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
	m.sweepLocked(false)
	t := m.byID[id]
	if t == nil || t.Owner != owner || t.expired(m.now()) {
		return nil, ErrTaskNotFound
	}
	c := *t
	return &c, nil
}

// Update replaces the stored task of t's id, unless that one is terminal.
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
	c := *t
	m.byID[t.ID] = &c
	return nil
}

// List returns a page of owner's tasks.
func (m *MemoryTaskStore) List(ctx context.Context, owner, after string, limit int) ([]*Task, string, error) {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepLocked(false)
	start := 0
	if after != "" {
		i := slices.Index(m.order, after)
		if i < 0 {
			return nil, "", ErrTaskNotFound
		}
		start = i + 1
	}
	var page []*Task
	now := m.now()
	for i := start; i < len(m.order); i++ {
		t := m.byID[m.order[i]]
		if t.Owner != owner || t.expired(now) {
			continue
		}
		if limit > 0 && len(page) == limit {
			return page, page[len(page)-1].ID, nil
		}
		c := *t
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

// sweepLocked removes expired tasks: always when forced (a task is about
// to be created), else at most once in an eighth of the shortest TTL, so
// that reads cost nothing extra.
func (m *MemoryTaskStore) sweepLocked(force bool) {
	now := m.now()
	if !force && (m.minTTL == 0 || now.Sub(m.swept) < m.minTTL/8) {
		return
	}
	m.swept = now
	kept := m.order[:0]
	for _, id := range m.order {
		t := m.byID[id]
		if t.expired(now) {
			delete(m.byID, id)
			m.perOwn[t.Owner]--
			if m.perOwn[t.Owner] == 0 {
				delete(m.perOwn, t.Owner)
			}
			continue
		}
		kept = append(kept, id)
	}
	clear(m.order[len(kept):])
	m.order = kept
}
