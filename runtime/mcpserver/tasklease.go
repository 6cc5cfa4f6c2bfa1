package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// This file makes tasks safe on several replicas sharing a
// SharedTaskStore: the runner's lease, answers and cancels that reach it
// from other replicas, waits for the end on any replica, and the failure
// of a task whose runner died, found by every replica's reaper.

// DefaultTaskLease is the lease period of tasks when Server.TaskLease is
// zero.
const DefaultTaskLease = 2 * time.Second

func (s *Server) taskLease() time.Duration { return durationOr(s.TaskLease, DefaultTaskLease) }

// shared returns the task store as a SharedTaskStore, or nil.
func (s *Server) shared() mcpstore.SharedTaskStore {
	st, _ := s.taskStore().(mcpstore.SharedTaskStore)
	return st
}

// errRunnerStopped is the error of a task whose runner stopped renewing
// its lease.
var errRunnerStopped = errorf(codeInternalError, "internal error: the server running this task stopped")

// lease marks a new task as run by this replica, with a lease of two
// periods, when the store keeps leases.
func (s *Server) lease(t *mcpstore.Task) {
	if s.shared() != nil {
		t.Runner, t.LeaseUntil = s.replicaID(), t.CreatedAt.Add(2*s.taskLease())
	}
}

// keepLease renews the lease of run's task every TaskLease until the run
// ends, and hands the run what other replicas left for it: posted
// answers, and a cancel (the task found terminal). A timer does it, not
// a goroutine of the run's own.
func (s *Server) keepLease(run *taskRun) {
	store := s.shared()
	if store == nil {
		return
	}
	period := s.taskLease()
	run.renewal = time.AfterFunc(time.Hour, func() {
		select {
		case <-run.done:
			return
		default:
		}
		ctx := context.Background()
		err := store.Renew(ctx, run.id, s.replicaID(), s.clock().UTC().Add(2*period))
		switch {
		case errors.Is(err, mcpstore.ErrTaskTerminal), errors.Is(err, mcpstore.ErrTaskNotFound):
			run.cancel() // cancelled elsewhere, reaped, or expired
			return
		case err != nil:
			s.logger().Error("mcp task lease: renewing failed", "task", run.id, "err", err)
		}
		s.takeAnswers(ctx, run)
		run.renewal.Reset(period)
	})
	run.renewal.Reset(period)
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

// taskChanged acts on a change of task id made on any replica: whoever
// waits here for it looks again, and when another replica made it, the
// run here, if any, takes its answers and ends if the task did. A change
// this replica made, its run has had already (it ended the task itself,
// or took the answer or cancel directly), so it costs no reads.
func (s *Server) taskChanged(id string, elsewhere bool) {
	s.changedMu.Lock()
	if ch := s.changed[id]; ch != nil {
		close(ch)
		delete(s.changed, id)
	}
	s.changedMu.Unlock()
	if !elsewhere {
		return
	}
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
func (s *Server) loadTask(ctx context.Context, owner, id string) (*mcpstore.Task, error) {
	t, err := s.taskStore().Get(ctx, owner, id)
	if err != nil {
		return nil, err
	}
	return s.reapIfLapsed(ctx, t)
}

// reapIfLapsed fails t, read from the store, when its runner's lease has
// lapsed, and returns it as stored afterwards.
func (s *Server) reapIfLapsed(ctx context.Context, t *mcpstore.Task) (*mcpstore.Task, error) {
	if t.Status.Terminal() || t.LeaseUntil.IsZero() || !t.LeaseUntil.Before(s.clock()) {
		return t, nil
	}
	store := s.shared()
	if store == nil {
		return t, nil
	}
	return s.reap(ctx, store, t)
}

// reap fails task t, whose lease was seen lapsed, and returns it as
// stored afterwards. The replica whose Reap failed it, and only that one,
// tells the others (BusTaskChanged) and the session that created it
// (notifications/tasks/status), as its runner would have.
func (s *Server) reap(ctx context.Context, store mcpstore.SharedTaskStore, t *mcpstore.Task) (*mcpstore.Task, error) {
	reaped, ok, err := store.Reap(ctx, t.Owner, t.ID, s.clock().UTC(), appendErrorObject(nil, errRunnerStopped))
	if err != nil {
		return nil, err
	}
	if ok {
		if run := s.running(t.ID); run != nil {
			run.cancel() // its renewals came too late: it ran here all along
		}
		s.publish(ctx, mcpstore.BusEvent{Kind: mcpstore.BusTaskChanged, ID: t.ID})
		s.taskStatus(ctx, reaped)
	}
	return reaped, nil
}

// taskStatus sends notifications/tasks/status of t, changed by this
// replica but run by another, to the 2025-11-25 session owning it,
// whichever replica holds that session's stream. A 2026-07-28 task has
// no session to tell.
func (s *Server) taskStatus(ctx context.Context, t *mcpstore.Task) {
	if t.Owner == "" {
		return
	}
	msg := appendNotification(nil, "notifications/tasks/status", appendTask(nil, t, wire.Rev20251125))
	s.taskStatusHere(t.Owner, msg)
	s.publish(ctx, mcpstore.BusEvent{Kind: mcpstore.BusTaskStatus, ID: t.ID, Owner: t.Owner, Data: msg})
}

// taskStatusHere sends msg to this replica's 2025-11-25 sessions whose
// tasks belong to owner; a session copy without a stream drops it, as the
// runner's does, so only the replica holding the stream sends it.
func (s *Server) taskStatusHere(owner string, msg []byte) {
	for _, sess := range s.liveSessions() {
		if sess.revision() == wire.Rev20251125 && ownsTasks(sess.taskOwner, owner) {
			sess.notify(msg)
		}
	}
}

// ownsTasks reports whether the tasks of owner are those of the session
// of task owner session: its own, or with authorization its own and its
// principal's (see taskOwner).
func ownsTasks(session, owner string) bool {
	return session != "" && (owner == session || strings.HasPrefix(owner, session+".") && len(owner) > len(session)+1)
}

// reapBatch is how many lapsed tasks the reaper asks the store for at
// once, and reapRounds how many batches it fails per look.
const (
	reapBatch  = 100
	reapRounds = 10
)

// startReaper starts the reaper of a shared task store once: every
// TaskLease or so (jittered, so that replicas started together do not
// look together), it fails the tasks whose lease lapsed, so that a task
// whose replica died ends even when nobody asks for it. It runs only for
// a store set on the server that is a SharedTaskStore, never for the
// store the server made for itself (one process: nobody else renews or
// reaps), and not once the server is closed.
func (s *Server) startReaper() {
	s.tasksOnce.Do(s.initTasks)
	store, ok := s.Tasks.(mcpstore.SharedTaskStore)
	if !ok || s.Tasks == s.ownTasks {
		return
	}
	s.reaperMu.Lock()
	defer s.reaperMu.Unlock()
	if s.reaperStop != nil || s.closed {
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.reaperStop = func() { stop(); <-done }
	go func() {
		defer close(done)
		timer := time.NewTimer(s.reapWait())
		defer timer.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
			s.reapLapsed(ctx, store)
			timer.Reset(s.reapWait())
		}
	}()
}

// reapWait is how long the reaper waits before its next look: between a
// half and a whole TaskLease, so that a lapsed lease (two periods after
// its last renewal) is failed within three.
func (s *Server) reapWait() time.Duration {
	lease := s.taskLease()
	return lease/2 + rand.N(lease/2+1)
}

// stopReaper stops the reaper, if it runs, and waits for it to end; the
// server starts none afterwards.
func (s *Server) stopReaper() {
	s.reaperMu.Lock()
	stop := s.reaperStop
	s.reaperStop, s.closed = nil, true
	s.reaperMu.Unlock()
	if stop != nil {
		stop()
	}
}

// reapLapsed fails the tasks of store whose lease has lapsed now.
func (s *Server) reapLapsed(ctx context.Context, store mcpstore.SharedTaskStore) {
	for range reapRounds {
		lapsed, err := store.Lapsed(ctx, s.clock().UTC(), reapBatch)
		if err != nil {
			if ctx.Err() == nil {
				s.logger().Error("mcp task reaper: finding lapsed leases failed", "err", err)
			}
			return
		}
		for _, t := range lapsed {
			if _, err := s.reap(ctx, store, t); err != nil && !errors.Is(err, mcpstore.ErrTaskNotFound) && ctx.Err() == nil {
				s.logger().Error("mcp task reaper: failing a task failed", "task", t.ID, "err", err)
			}
		}
		if len(lapsed) < reapBatch {
			return
		}
	}
}

// relay is a tasks/result served here for a task run on another replica:
// its stream, and the messages sent on it, each sent once.
type relay struct {
	mu   sync.Mutex
	out  sender
	sent map[string]bool
}

// relayTo makes out the stream of the messages of task id, run on another
// replica, until the returned function is called, and asks the runner for
// those it holds.
func (s *Server) relayTo(ctx context.Context, id string, out sender) func() {
	if s.bus() == nil {
		return func() {}
	}
	rl := &relay{out: out, sent: map[string]bool{}}
	s.relayMu.Lock()
	if s.relays == nil {
		s.relays = map[string]map[*relay]struct{}{}
	}
	if s.relays[id] == nil {
		s.relays[id] = map[*relay]struct{}{}
	}
	s.relays[id][rl] = struct{}{}
	s.relayMu.Unlock()
	s.publish(ctx, mcpstore.BusEvent{Kind: mcpstore.BusTaskWaiting, ID: id})
	return func() {
		s.relayMu.Lock()
		delete(s.relays[id], rl)
		if len(s.relays[id]) == 0 {
			delete(s.relays, id)
		}
		s.relayMu.Unlock()
	}
}

// relayHere sends msg, a message of task id's handler, to the
// tasks/result streams waiting here for the task.
func (s *Server) relayHere(id string, msg []byte) {
	s.relayMu.Lock()
	var to []*relay
	for rl := range s.relays[id] {
		to = append(to, rl)
	}
	s.relayMu.Unlock()
	for _, rl := range to {
		rl.mu.Lock()
		if !rl.sent[string(msg)] {
			rl.sent[string(msg)] = true
			_ = rl.out.send(msg)
		}
		rl.mu.Unlock()
	}
}

// awaitEnd waits until task t, run by another replica, ends: it looks
// again at every change the bus reports and at least every TaskLease.
func (s *Server) awaitEnd(ctx context.Context, t *mcpstore.Task) (*mcpstore.Task, error) {
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
