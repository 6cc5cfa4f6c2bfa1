package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// This file makes tasks safe on several replicas sharing a
// SharedTaskStore: the runner's lease, answers and cancels that reach it
// from other replicas, waits for the end on any replica, and the failure
// of a task whose runner died.

// DefaultTaskLease is the lease period of tasks when Server.TaskLease is
// zero.
const DefaultTaskLease = 2 * time.Second

func (s *Server) taskLease() time.Duration { return durationOr(s.TaskLease, DefaultTaskLease) }

// shared returns the task store as a SharedTaskStore, or nil.
func (s *Server) shared() SharedTaskStore {
	st, _ := s.taskStore().(SharedTaskStore)
	return st
}

// errRunnerStopped is the error of a task whose runner stopped renewing
// its lease.
var errRunnerStopped = errorf(codeInternalError, "internal error: the server running this task stopped")

// lease marks a new task as run by this replica, with a lease of two
// periods, when the store keeps leases.
func (s *Server) lease(t *Task) {
	if s.shared() != nil {
		t.Runner, t.LeaseUntil = s.replicaID(), t.CreatedAt.Add(2*s.taskLease())
	}
}

// keepLease renews the lease of run's task every TaskLease until the run
// ends, and hands the run what other replicas left for it: posted
// answers, and a cancel (the task found terminal).
func (s *Server) keepLease(run *taskRun) {
	store := s.shared()
	if store == nil {
		return
	}
	go func() {
		tick := time.NewTicker(s.taskLease())
		defer tick.Stop()
		for {
			select {
			case <-run.done:
				return
			case <-tick.C:
			}
			ctx := context.Background()
			err := store.Renew(ctx, run.id, s.replicaID(), s.clock().UTC().Add(2*s.taskLease()))
			switch {
			case errors.Is(err, ErrTaskTerminal), errors.Is(err, ErrTaskNotFound):
				run.cancel() // cancelled elsewhere, reaped, or expired
				return
			case err != nil:
				s.logger().Error("mcp task lease: renewing failed", "task", run.id, "err", err)
			}
			s.takeAnswers(ctx, run)
		}
	}()
}

// takeAnswers gives run the answers other replicas posted for it.
func (s *Server) takeAnswers(ctx context.Context, run *taskRun) {
	store := s.shared()
	if store == nil {
		return
	}
	box, err := store.TakeAnswers(ctx, run.id)
	if err != nil {
		s.logger().Error("mcp task: taking answers failed", "task", run.id, "err", err)
		return
	}
	if len(box) == 0 {
		return
	}
	responses := make(map[string]json.RawMessage, len(box))
	for k, v := range box {
		responses[k] = v
	}
	run.answer(ctx, responses)
}

// taskChanged acts on a change of task id made on any replica: its run
// here, if any, takes its answers and ends if the task did; whoever waits
// here for it looks again.
func (s *Server) taskChanged(id string) {
	s.changedMu.Lock()
	if ch := s.changed[id]; ch != nil {
		close(ch)
		delete(s.changed, id)
	}
	s.changedMu.Unlock()
	run := s.running(id)
	if run == nil {
		return
	}
	go func() {
		ctx := context.Background()
		s.takeAnswers(ctx, run)
		if t, err := s.taskStore().Get(ctx, run.owner, id); err != nil || t.Status.Terminal() {
			run.cancel()
		}
	}()
}

// whenChanged returns a channel closed at the next change of task id
// that the bus reports; nil (never ready) without a bus.
func (s *Server) whenChanged(id string) <-chan struct{} {
	if s.bus() == nil {
		return nil
	}
	s.changedMu.Lock()
	defer s.changedMu.Unlock()
	if s.changed == nil {
		s.changed = map[string]chan struct{}{}
	}
	ch := s.changed[id]
	if ch == nil {
		ch = make(chan struct{})
		s.changed[id] = ch
	}
	return ch
}

// loadTask returns owner's task id as stored, failing it first when its
// runner's lease has lapsed.
func (s *Server) loadTask(ctx context.Context, owner, id string) (*Task, error) {
	t, err := s.taskStore().Get(ctx, owner, id)
	if err != nil || t.Status.Terminal() || t.LeaseUntil.IsZero() || !t.LeaseUntil.Before(s.clock()) {
		return t, err
	}
	store := s.shared()
	if store == nil {
		return t, nil
	}
	reaped, err := store.Reap(ctx, owner, id, s.clock().UTC(), appendErrorObject(nil, errRunnerStopped))
	if err != nil {
		return nil, err
	}
	if reaped.Status.Terminal() {
		s.publish(ctx, BusEvent{Kind: BusTaskChanged, ID: id})
	}
	return reaped, nil
}

// awaitEnd waits until task t, run by another replica, ends: it looks
// again at every change the bus reports and at least every TaskLease.
func (s *Server) awaitEnd(ctx context.Context, t *Task) (*Task, error) {
	tick := time.NewTicker(min(s.taskLease(), durationOr(s.TaskPollInterval, DefaultTaskPollInterval)))
	defer tick.Stop()
	for !t.Status.Terminal() {
		changed := s.whenChanged(t.ID)
		var err error
		if t, err = s.loadTask(ctx, t.Owner, t.ID); err != nil {
			return nil, err
		}
		if t.Status.Terminal() {
			break
		}
		select {
		case <-changed:
		case <-tick.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return t, nil
}
