package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"github.com/mcpgen/mcpgen/internal/authgate"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// This file runs tool calls as tasks, for tools annotated task=optional or
// task=required on a server whose identity enables tasks, in the two
// designs the revisions have:
//
//   - 2025-11-25: the client asks for a task with the call's task param;
//     the call returns the task at once and the handler runs in the
//     background. tasks/get, tasks/result (which waits for the end),
//     tasks/list and tasks/cancel follow it; a question the handler asks
//     goes to the client as a request tagged with the task, and the task
//     is input_required until the answer comes.
//   - 2026-07-28, the io.modelcontextprotocol/tasks extension: the server
//     decides. A call from a client that declares the extension runs as
//     usual for up to Server.TaskGrace (questions asked in that time are
//     asked with input-required results); a call still running then
//     becomes a task and goes on in the background. Its questions become
//     the task's inputRequests, answered with tasks/update.
//
// The handler is the same in every case: tasks/cancel cancels its ctx,
// mcprt.Progress sets the task's status message, and it may ask the
// client as anywhere else.

// TasksExtension is the identifier of the tasks extension of 2026-07-28.
const TasksExtension = wire.TasksExtension

// Defaults of the task settings of [Server].
const (
	DefaultTaskTTL          = time.Hour
	DefaultTaskPollInterval = 500 * time.Millisecond
	DefaultTaskGrace        = 250 * time.Millisecond
)

// taskRun is the part of a task that lives in the process running it:
// its goroutine's cancellation, the questions it waits on, and who waits
// for its end.
type taskRun struct {
	srv      *Server
	id       string
	owner    string
	rev      wire.Revision
	sess     *session // 2025-11-25: the session it belongs to
	cancel   context.CancelFunc
	done     chan struct{} // closed when the run has stored its end
	detached atomic.Bool   // the call is a task now (2026-07-28: it became one)

	mu       sync.Mutex
	open     map[string]*openQuestion // 2026-07-28: questions by key, made by the first
	answered map[string]bool          // keys answered, never used again
	asking   int                      // 2025-11-25: requests to the client awaiting answers
	waiting  sender                   // 2025-11-25: a tasks/result stream
	queued   [][]byte                 // messages no stream could take yet

	// endMu guards the hand-over of a 2026-07-28 call's outcome: the
	// handler's goroutine leaves it in outcome while the call runs
	// inline, and stores the end itself once owned (the call is a task).
	endMu      sync.Mutex
	outcome    outcome
	hasOutcome bool
	owned      bool
	// renewal renews the lease of the task on a shared store.
	renewal *time.Timer

	// statusMu orders the writes of the task's status, so that the last
	// one stored reflects the last change of the questions.
	statusMu sync.Mutex
	// stored is the task as the run last stored it, under statusMu. Only
	// the run changes a task that has not ended, and the store refuses to
	// change one that has (a cancel, a reap), so the run writes from its
	// own copy rather than reading the store first.
	stored mcpstore.Task
}

// openQuestion is a question of a 2026-07-28 task awaiting tasks/update.
type openQuestion struct {
	method string
	params []byte
	answer chan json.RawMessage
}

// taskStore returns the server's task store, set on first use, with the
// bus subscribed.
func (s *Server) taskStore() mcpstore.TaskStore {
	s.tasksOnce.Do(s.initTasks)
	s.bus() // subscribed before any task runs, for what other replicas send it
	return s.Tasks
}

// initTasks sets the task store, a MemoryTaskStore of the server's own
// when none is set, and the table of runs.
func (s *Server) initTasks() {
	if s.Tasks == nil {
		s.ownTasks = mcpstore.NewMemoryTaskStore()
		s.Tasks = s.ownTasks
	}
	s.runs = map[string]*taskRun{}
}

func durationOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// taskOwner is whom a request's tasks belong to: its session on
// 2025-11-25, and with authorization its principal too; on 2026-07-28 the
// principal, or everyone who knows the id without authorization (no
// session, and no identity of the client to bind them to).
func taskOwner(x *exchange) string {
	p := authgate.Digest(authgate.Principal(x.token))
	if x.sess != nil && !x.rev.Stateless() {
		if p == "" {
			return x.sess.taskOwner
		}
		return x.sess.taskOwner + "." + p
	}
	return p
}

// newTask stores a new working task for a call of tool. ttl is the
// client's wish on 2025-11-25 (0: none), bounded by the server's.
func (s *Server) newTask(ctx context.Context, x *exchange, tool string, ttl time.Duration) (*mcpstore.Task, *rpcError) {
	t := s.taskFor(x, tool, ttl)
	s.lease(t)
	if rerr := s.createTask(ctx, t); rerr != nil {
		return nil, rerr
	}
	return t, nil
}

// taskFor is a new working task for a call of tool, not stored yet.
func (s *Server) taskFor(x *exchange, tool string, ttl time.Duration) *mcpstore.Task {
	max := durationOr(s.TaskTTL, DefaultTaskTTL)
	if ttl <= 0 || ttl > max {
		ttl = max
	}
	now := s.clock().UTC()
	return &mcpstore.Task{ID: rand.Text(), Owner: taskOwner(x), Tool: tool, Status: mcpstore.TaskWorking,
		CreatedAt: now, UpdatedAt: now, TTL: ttl, PollInterval: durationOr(s.TaskPollInterval, DefaultTaskPollInterval)}
}

// createTask stores the new task t.
func (s *Server) createTask(ctx context.Context, t *mcpstore.Task) *rpcError {
	switch err := s.taskStore().Create(ctx, t); {
	case errors.Is(err, mcpstore.ErrTooManyTasks):
		return errorf(codeInternalError, "internal error: too many tasks; wait for some to end")
	case err != nil:
		return s.storeError("storing the task", err)
	}
	return nil
}

// newRun is the run of a call of revision rev that may become a task.
func (s *Server) newRun(x *exchange) *taskRun {
	return &taskRun{srv: s, rev: x.rev, sess: x.sess, done: make(chan struct{})}
}

// register makes run the run of task t, which tasks/* requests find.
func (s *Server) register(run *taskRun, t *mcpstore.Task) {
	run.id, run.owner = t.ID, t.Owner
	run.statusMu.Lock()
	run.stored = *t
	run.statusMu.Unlock()
	s.runsMu.Lock()
	s.runs[t.ID] = run
	s.runsMu.Unlock()
	run.detached.Store(true)
	s.keepLease(run)
}

// running returns the run of task id in this process, or nil.
func (s *Server) running(id string) *taskRun {
	s.runsMu.Lock()
	defer s.runsMu.Unlock()
	return s.runs[id]
}

// outcome is how a tool call run as a task ended.
type outcome struct {
	res      mcprt.Result
	panicked any
	missing  string // a capability the client lacked, when the call failed for it
}

// finish stores the end of a task's run and releases it. A task cancelled
// meanwhile stays cancelled.
func (r *taskRun) finish(ctx context.Context, o outcome) {
	s := r.srv
	defer func() {
		r.cancel()
		if r.renewal != nil {
			r.renewal.Stop()
		}
		s.runsMu.Lock()
		delete(s.runs, r.id)
		s.runsMu.Unlock()
		close(r.done)
	}()
	r.statusMu.Lock()
	defer r.statusMu.Unlock()
	t := r.copy() // if it was cancelled or expired meanwhile, the store refuses the end
	s.endTask(ctx, t, o, r.rev)
	r.store(ctx, t)
}

// endTask sets what t, a task of revision rev, holds once its call ended
// as o: its terminal status, and its result or error.
func (s *Server) endTask(ctx context.Context, t *mcpstore.Task, o outcome, rev wire.Revision) {
	// The last progress message described the run, not its end: a
	// completed task has none, a failed one says how it failed.
	t.Status, t.StatusMessage, t.InputRequests = mcpstore.TaskCompleted, "", nil
	switch {
	case o.panicked != nil:
		t.Status, t.StatusMessage = mcpstore.TaskFailed, panickedMessage
		msg := "internal error: tool " + strconv.Quote(t.Tool) + " panicked: " + jsonx.Quote(toString(o.panicked))
		if s.MaskErrors {
			msg = wire.Mask(ctx, s.logger(), "tool", t.Tool, errors.New(msg))
		}
		t.Error = appendErrorObject(nil, errorf(codeInternalError, msg))
	case o.missing != "" && o.res.IsError && mrtr.CouldNotAsk(o.res.Err):
		t.Status, t.StatusMessage, t.Error = mcpstore.TaskFailed, missingMessage, appendErrorObject(nil, missingCapability(o.missing))
	default:
		if s.MaskErrors {
			o.res = wire.MaskTool(ctx, s.logger(), t.Tool, o.res, nil)
		}
		t.Result = wire.AppendResult(nil, &o.res, rev)
		if o.res.IsError && !rev.Stateless() {
			// 2025-11-25: a tool error fails the task.
			t.Status, t.StatusMessage = mcpstore.TaskFailed, toolErrorMessage
		}
	}
}

// The status messages of a failed task, which replace the run's last
// progress message.
const (
	panickedMessage  = "The tool failed with an internal error."
	missingMessage   = "The client lacks a capability the tool needs."
	toolErrorMessage = "The tool reported an error; tasks/result holds it."
)

func toString(v any) string {
	if err, ok := v.(error); ok {
		return err.Error()
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// copy returns the task as the run last stored it; statusMu is held.
func (r *taskRun) copy() *mcpstore.Task {
	c := r.stored
	return &c
}

// store writes t with a new update time and tells the client of the
// change where the revision does (2025-11-25: notifications/tasks/status).
// statusMu is held.
func (r *taskRun) store(ctx context.Context, t *mcpstore.Task) {
	t.UpdatedAt = r.srv.clock().UTC()
	if err := r.srv.taskStore().Update(ctx, t); err != nil {
		return // ended elsewhere (cancelled, reaped), expired, or the store failed
	}
	r.stored = *t
	if t.Status.Terminal() && !r.rev.Stateless() {
		// For a 2025-11-25 tasks/result waiting on another replica; on
		// 2026-07-28 nobody waits for the end, the client polls it.
		r.srv.publish(ctx, mcpstore.BusEvent{Kind: mcpstore.BusTaskChanged, ID: t.ID})
	}
	if !r.rev.Stateless() && r.sess != nil {
		r.notify(ctx, t, appendNotification(nil, "notifications/tasks/status", appendTask(nil, t, r.rev)))
	}
}

// notify sends msg, a notification about task t, on the stream of the
// run's session here; with shared sessions and no such stream here, the
// replica holding the session's stream sends it.
func (r *taskRun) notify(ctx context.Context, t *mcpstore.Task, msg []byte) {
	r.sess.mu.Lock()
	out := r.sess.stream
	r.sess.mu.Unlock()
	switch {
	case out != nil:
		r.sess.notify(msg)
	case r.srv.Sessions != nil:
		r.srv.publish(ctx, mcpstore.BusEvent{Kind: mcpstore.BusTaskStatus, ID: t.ID, Owner: t.Owner, Data: msg})
	}
}

// publish stores the status the run's questions give the task:
// input_required with its open questions while any is unanswered, else
// working; and its status message, when message is not nil.
func (r *taskRun) publish(ctx context.Context, message *string) {
	r.statusMu.Lock()
	defer r.statusMu.Unlock()
	if r.stored.Status.Terminal() {
		return
	}
	t := r.copy()
	r.mu.Lock()
	t.Status, t.InputRequests = mcpstore.TaskWorking, r.inputRequestsLocked()
	if t.InputRequests != nil || r.asking > 0 {
		t.Status = mcpstore.TaskInputRequired
	}
	r.mu.Unlock()
	if message != nil {
		t.StatusMessage = *message
	}
	r.store(ctx, t)
}

// appendTask writes t as the revision's Task object: ttl and pollInterval
// on 2025-11-25, ttlMs and pollIntervalMs on 2026-07-28.
func appendTask(dst []byte, t *mcpstore.Task, rev wire.Revision) []byte {
	return append(appendTaskMembers(dst, t, rev), '}')
}

// taskAnswerSize is room enough for a task object and the members that
// answers add to it, beside what the task holds.
const taskAnswerSize = 320

// appendTaskMembers writes t as appendTask does, but for the closing
// brace, so that an answer can add members.
func appendTaskMembers(dst []byte, t *mcpstore.Task, rev wire.Revision) []byte {
	ttl, poll := `,"ttl":`, `,"pollInterval":`
	if rev.Stateless() {
		ttl, poll = `,"ttlMs":`, `,"pollIntervalMs":`
	}
	dst = jsonx.AppendString(append(dst, `{"taskId":`...), t.ID)
	dst = jsonx.AppendString(append(dst, `,"status":`...), string(t.Status))
	if t.StatusMessage != "" {
		dst = jsonx.AppendString(append(dst, `,"statusMessage":`...), t.StatusMessage)
	}
	dst = append(dst, `,"createdAt":"`...)
	dst = append(t.CreatedAt.UTC().AppendFormat(dst, time.RFC3339Nano), `","lastUpdatedAt":"`...)
	dst = append(t.UpdatedAt.UTC().AppendFormat(dst, time.RFC3339Nano), '"')
	if t.TTL > 0 {
		dst = strconv.AppendInt(append(dst, ttl...), t.TTL.Milliseconds(), 10)
	} else {
		dst = append(append(dst, ttl...), "null"...)
	}
	return strconv.AppendInt(append(dst, poll...), t.PollInterval.Milliseconds(), 10)
}

// appendComplete appends result, a result object, as markComplete
// returns it: "resultType":"complete" first.
func appendComplete(dst, result []byte) []byte {
	if len(result) < 2 {
		return append(dst, result...)
	}
	dst = append(dst, `{"resultType":"complete"`...)
	if result[1] != '}' {
		dst = append(dst, ',')
	}
	return append(dst, result[1:]...)
}

// taskCreated is the answer to a 2026-07-28 call that became task t.
func taskCreated(t *mcpstore.Task, rev wire.Revision) []byte {
	dst := appendTaskMembers(make([]byte, 0, taskAnswerSize), t, rev)
	return append(dst, `,"resultType":"task"}`...)
}

// withFields inserts JSON members (",key":value...) before the closing
// brace of the object obj.
func withFields(obj []byte, fields ...[]byte) []byte {
	out := append([]byte(nil), obj[:len(obj)-1]...)
	for _, f := range fields {
		out = append(out, f...)
	}
	return append(out, '}')
}

// runTool runs tool's handler as the task run describes and returns how it
// ended. The handler's context is ctx with x as its caller.
func runTool(ctx context.Context, x *exchange, tool *mcprt.Tool, args []byte) outcome {
	res, panicked := wire.CallToolChecked(mcprt.WithCaller(ctx, x), x.srv.logger(), tool, args)
	o := outcome{res: res, panicked: panicked}
	if x.q != nil {
		x.q.mu.Lock()
		o.missing = x.q.missing
		x.q.mu.Unlock()
	}
	return o
}

// taskCaller is the exchange a task's handler runs with: what the call
// carried, the run, and the run as where messages go.
func taskCaller(x *exchange, run *taskRun) *exchange {
	c := new(exchange)
	*c = *x
	c.task, c.out, c.scratch = run, run, nil
	if c.q == nil {
		c.q = &questions{}
	}
	return c
}

// send implements sender for a 2025-11-25 task's handler: messages go to
// a client waiting in tasks/result, else to the session's stream, else
// wait for one of those; with a bus, they also go to a tasks/result that
// may wait on another replica.
func (r *taskRun) send(msg []byte) error {
	if r.sendHere(msg) {
		return nil
	}
	if r.srv.bus() != nil {
		r.srv.publish(context.Background(), mcpstore.BusEvent{Kind: mcpstore.BusTaskMessage, ID: r.id, Data: msg})
	}
	return nil
}

// sendHere sends msg on a stream of this replica, or queues it and
// reports false.
func (r *taskRun) sendHere(msg []byte) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.waiting != nil && r.waiting.send(msg) == nil {
		return true
	}
	if r.sess != nil {
		r.sess.mu.Lock()
		stream := r.sess.stream
		r.sess.mu.Unlock()
		if stream != nil && stream.send(msg) == nil {
			return true
		}
	}
	r.queued = append(r.queued, msg)
	return false
}

// relayQueued publishes the messages no stream has taken yet for a
// tasks/result waiting on another replica, which takes them instead of
// the next one here.
func (r *taskRun) relayQueued() {
	r.mu.Lock()
	queued := r.queued
	r.queued = nil
	r.mu.Unlock()
	for _, m := range queued {
		r.srv.publish(context.Background(), mcpstore.BusEvent{Kind: mcpstore.BusTaskMessage, ID: r.id, Data: m})
	}
}

// wait makes out the stream of r's messages until it returns, sending it
// what no stream has taken yet.
func (r *taskRun) wait(out sender) func() {
	r.mu.Lock()
	r.waiting = out
	for _, m := range r.queued {
		_ = out.send(m)
	}
	r.queued = nil
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		if r.waiting == out {
			r.waiting = nil
		}
		r.mu.Unlock()
	}
}

// ask puts a question of a 2026-07-28 task: the task is input_required
// until tasks/update answers it, or its context ends. Keys answered once
// are never used again.
func (r *taskRun) ask(ctx context.Context, key, method string, params []byte) (json.RawMessage, error) {
	q := &openQuestion{method: method, params: params, answer: make(chan json.RawMessage, 1)}
	r.mu.Lock()
	if r.open == nil {
		r.open, r.answered = map[string]*openQuestion{}, map[string]bool{}
	}
	base := key
	for n := 2; r.answered[key] || r.open[key] != nil; n++ {
		key = base + "_" + strconv.Itoa(n)
	}
	r.open[key] = q
	r.mu.Unlock()
	r.publish(ctx, nil)
	select {
	case a := <-q.answer:
		return a, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// inputRequestsLocked writes the open questions as an InputRequests
// object; r.mu is held.
func (r *taskRun) inputRequestsLocked() []byte {
	if len(r.open) == 0 {
		return nil
	}
	dst := []byte{'{'}
	for key, q := range r.open {
		if len(dst) > 1 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, key)
		dst = jsonx.AppendString(append(dst, `:{"method":`...), q.method)
		dst = append(append(append(dst, `,"params":`...), q.params...), '}')
	}
	return append(dst, '}')
}

// answer delivers the answers of tasks/update to the open questions of
// their keys; others are ignored. The task is working again once no
// question is open.
func (r *taskRun) answer(ctx context.Context, responses map[string]json.RawMessage) {
	r.mu.Lock()
	for key, a := range responses {
		if q := r.open[key]; q != nil {
			q.answer <- a
			delete(r.open, key)
			r.answered[key] = true
		}
	}
	r.mu.Unlock()
	r.publish(ctx, nil)
}
