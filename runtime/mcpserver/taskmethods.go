package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// taskCall decides whether a tools/call of e runs as a task, and if so
// answers it; handled is false for a call that runs as usual.
func (s *Server) taskCall(ctx context.Context, x *exchange, e *toolEntry, args []byte) (result []byte, rerr *rpcError, handled bool) {
	support := e.val.TaskSupport
	capable := s.id.EnableTasks && (support == mcprt.TaskOptional || support == mcprt.TaskRequired)
	asked := x.meta.task != nil && !isNull(x.meta.task)
	switch {
	case x.rev == wire.Rev20251125 && s.id.EnableTasks:
		switch {
		case asked && capable:
			result, rerr = s.startTask(ctx, x, e, args)
			return result, rerr, true
		case asked:
			return nil, errorf(codeMethodNotFound, "tool "+strconv.Quote(e.val.Name)+" does not run as a task"), true
		case capable && support == mcprt.TaskRequired:
			return nil, errorf(codeMethodNotFound, "tool "+strconv.Quote(e.val.Name)+" runs only as a task: call it with the task param"), true
		}
	case x.rev.Stateless() && capable:
		if !x.caps.tasks {
			if support == mcprt.TaskRequired {
				return nil, missingTasksExtension(), true
			}
			return nil, nil, false
		}
		result, rerr = s.maybeTask(ctx, x, e, args)
		return result, rerr, true
	}
	return nil, nil, false
}

// missingTasksExtension is the error for a client that must declare the
// tasks extension for what it asks.
func missingTasksExtension() *rpcError {
	return &rpcError{code: codeMissingCapability, message: "Missing required client capability: the " + TasksExtension + " extension",
		data: []byte(`{"requiredCapabilities":{"extensions":{"` + TasksExtension + `":{}}}}`)}
}

// startTask runs a 2025-11-25 call as the task its client asked for: the
// task is stored, its handler started, and the call answered with it.
func (s *Server) startTask(ctx context.Context, x *exchange, e *toolEntry, args []byte) ([]byte, *rpcError) {
	var p struct {
		TTL *int64 `json:"ttl"`
	}
	if json.Unmarshal(x.meta.task, &p) != nil {
		return nil, errorf(codeInvalidParams, "invalid params: task must be an object")
	}
	var ttl time.Duration
	if p.TTL != nil && *p.TTL > 0 {
		ttl = time.Duration(*p.TTL) * time.Millisecond
	}
	t, rerr := s.newTask(ctx, x, e.val.Name, ttl)
	if rerr != nil {
		return nil, rerr
	}
	run := s.newRun(x)
	runCtx := s.runContext(ctx, run, t)
	s.register(run, t)
	c := taskCaller(x, run)
	args = append([]byte(nil), args...) // the request's buffer does not outlive it
	go func() { run.finish(context.Background(), runTool(runCtx, c, &e.val.Tool, args)) }()
	return append(append([]byte(`{"task":`), appendTask(nil, t, x.rev)...), '}'), nil
}

// runContext is the context of a task's handler: the request's values,
// cancelled by tasks/cancel, by the end of the session and by the task's
// expiry, but not by the end of the request that started it.
func (s *Server) runContext(ctx context.Context, run *taskRun, t *mcpstore.Task) context.Context {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if t.TTL > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithDeadline(ctx, t.CreatedAt.Add(t.TTL))
		prev := cancel
		cancel = func() { stop(); prev() }
	}
	if run.sess != nil {
		after := context.AfterFunc(run.sess.ctx, cancel)
		prev := cancel
		cancel = func() { after(); prev() }
	}
	run.cancel = cancel
	return ctx
}

// maybeTask serves a 2026-07-28 call of a task-capable tool from a client
// that declared the tasks extension: it runs as usual for up to
// Server.TaskGrace, then becomes a task if it has not ended. A call of a
// task=required tool always becomes one, ended or not.
func (s *Server) maybeTask(ctx context.Context, x *exchange, e *toolEntry, args []byte) ([]byte, *rpcError) {
	run := s.newRun(x)
	run.sess = nil // 2026-07-28 has no session
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c := taskCaller(x, run)
	c.out = x.out
	args = append([]byte(nil), args...)
	ended := make(chan struct{})
	go func() {
		// The handler's goroutine stores the end itself once the call
		// is a task; until then the call takes the outcome.
		o := runTool(runCtx, c, &e.val.Tool, args)
		run.endMu.Lock()
		if run.owned {
			run.endMu.Unlock()
			run.finish(context.Background(), o)
			return
		}
		run.outcome, run.hasOutcome = o, true
		run.endMu.Unlock()
		close(ended)
	}()
	timer := time.NewTimer(durationOr(s.TaskGrace, DefaultTaskGrace))
	defer timer.Stop()
	requestDone := ctx.Done()
	for {
		select {
		case <-requestDone:
			cancel() // until it is a task, the call ends with its request
			requestDone = nil
		case <-ended:
			cancel()
			o := run.outcome
			if x.q.round != nil && len(x.q.round.Pending()) > 0 || e.val.TaskSupport != mcprt.TaskRequired {
				return s.inlineResult(ctx, x, e, o)
			}
			return s.endedTask(ctx, x, e, o)
		case <-timer.C:
			return s.taskOf(ctx, x, e, run, cancel)
		}
	}
}

// inlineResult answers a call that ended before it became a task, as
// callTool would: masked when the server masks errors.
func (s *Server) inlineResult(ctx context.Context, x *exchange, e *toolEntry, o outcome) ([]byte, *rpcError) {
	if o.res.IsError {
		x.failedAsking(o.res.Err)
	}
	if s.MaskErrors {
		o.res = wire.MaskTool(ctx, s.logger(), e.val.Name, o.res, o.panicked)
	}
	x.scratch = getBuffer()
	*x.scratch = wire.AppendResult((*x.scratch)[:0], &o.res, x.rev)
	return x.withResultType(*x.scratch), nil
}

// endedTask answers with a task a 2026-07-28 call of a task=required tool
// that ended before it became one. The task is stored ended at once: no
// run, lease or end to write follows. The answer shows it as created,
// working, as a task that ended right after its answer would be; the
// client's first tasks/get finds its end.
func (s *Server) endedTask(ctx context.Context, x *exchange, e *toolEntry, o outcome) ([]byte, *rpcError) {
	t := s.taskFor(x, e.val.Name, 0)
	created := *t
	s.endTask(ctx, t, o, x.rev)
	if rerr := s.createTask(ctx, t); rerr != nil {
		return nil, rerr
	}
	return taskCreated(&created, x.rev), nil
}

// taskOf makes a 2026-07-28 call a task: the task is stored before the
// call is answered with it, and the handler's goroutine stores its end,
// or, when the handler ended meanwhile, a goroutine of its own.
func (s *Server) taskOf(ctx context.Context, x *exchange, e *toolEntry, run *taskRun, cancel context.CancelFunc) ([]byte, *rpcError) {
	t, rerr := s.newTask(ctx, x, e.val.Name, 0)
	if rerr != nil {
		cancel()
		return nil, rerr
	}
	expire := time.AfterFunc(t.TTL, cancel) // a task's handler ends with its task
	run.cancel = func() { expire.Stop(); cancel() }
	s.register(run, t)
	run.endMu.Lock()
	o, ended := run.outcome, run.hasOutcome
	run.owned = !ended
	run.endMu.Unlock()
	if ended {
		go run.finish(context.Background(), o)
	}
	return taskCreated(t, x.rev), nil
}

// tasks serves the tasks/* methods: those of 2025-11-25 on its sessions,
// those of the extension on 2026-07-28 for clients that declare it.
func (s *Server) tasks(ctx context.Context, x *exchange, m *message) ([]byte, *rpcError) {
	if !s.id.EnableTasks {
		return nil, methodNotFound(m.method)
	}
	if x.rev.Stateless() {
		switch m.method {
		case "tasks/get", "tasks/update", "tasks/cancel":
		default:
			return nil, methodNotFound(m.method)
		}
		if !x.caps.tasks {
			return nil, missingTasksExtension()
		}
	} else if x.rev != wire.Rev20251125 || m.method == "tasks/update" {
		return nil, methodNotFound(m.method)
	}
	if m.method == "tasks/list" {
		return s.listTasks(ctx, x)
	}
	id, ok := stringValue(orEmpty(x.meta.taskID))
	if !ok || id == "" {
		return nil, errorf(codeInvalidParams, "invalid params: taskId is missing")
	}
	t, err := s.loadTask(ctx, taskOwner(x), id)
	if errors.Is(err, mcpstore.ErrTaskNotFound) {
		return nil, errorf(codeInvalidParams, "invalid params: no task "+strconv.Quote(id))
	}
	if err != nil {
		// A store that cannot answer says nothing of the task: the
		// client may ask again, where "no task" would end its polling.
		return nil, s.storeError("reading the task", err)
	}
	switch m.method {
	case "tasks/get":
		return s.getTask(x, t), nil
	case "tasks/result":
		return s.taskResult(ctx, x, t)
	case "tasks/update":
		return s.updateTask(ctx, x, t)
	}
	return s.cancelTask(ctx, x, t)
}

// getTask answers tasks/get: the task, and on 2026-07-28 what it holds for
// its status (questions, result or error).
func (s *Server) getTask(x *exchange, t *mcpstore.Task) []byte {
	out := make([]byte, 0, taskAnswerSize+len(t.InputRequests)+len(t.Result)+len(t.Error))
	if !x.rev.Stateless() {
		return appendTask(out, t, x.rev)
	}
	out = append(appendTaskMembers(out, t, x.rev), `,"resultType":"complete"`...)
	switch {
	case t.Status == mcpstore.TaskInputRequired && t.InputRequests != nil:
		out = append(append(out, `,"inputRequests":`...), t.InputRequests...)
	case t.Status == mcpstore.TaskCompleted && t.Result != nil:
		out = appendComplete(append(out, `,"result":`...), t.Result)
	case t.Status == mcpstore.TaskFailed && t.Error != nil:
		out = append(append(out, `,"error":`...), t.Error...)
	}
	return append(out, '}')
}

// taskResult answers tasks/result (2025-11-25): it waits for the task to
// end, carrying the requests its handler makes meanwhile, then answers what
// the call would have: its result, tagged with the task, or its error.
func (s *Server) taskResult(ctx context.Context, x *exchange, t *mcpstore.Task) ([]byte, *rpcError) {
	if run := s.running(t.ID); run != nil {
		release := run.wait(x.out)
		select {
		case <-run.done:
		case <-ctx.Done():
		}
		release()
		if ctx.Err() != nil {
			return nil, errorf(codeInternalError, "internal error: the request ended before the task")
		}
		var err error
		if t, err = s.taskStore().Get(ctx, taskOwner(x), t.ID); err != nil {
			return nil, errorf(codeInvalidParams, "invalid params: the task expired")
		}
	} else if !t.Status.Terminal() {
		// Another replica runs it: wait for the end it stores, carrying
		// the messages its handler has no other stream for.
		release := s.relayTo(ctx, t.ID, x.out)
		var err error
		t, err = s.awaitEnd(ctx, t)
		release()
		if err != nil {
			if ctx.Err() != nil {
				return nil, errorf(codeInternalError, "internal error: the request ended before the task")
			}
			return nil, errorf(codeInvalidParams, "invalid params: the task expired")
		}
	}
	switch {
	case t.Result != nil:
		return withFields(t.Result, []byte(`,"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+t.ID+`"}}`)), nil
	case t.Error != nil:
		var e struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		_ = json.Unmarshal(t.Error, &e)
		return nil, &rpcError{code: e.Code, message: e.Message, data: e.Data}
	}
	return nil, errorf(codeInternalError, "internal error: the task was cancelled")
}

// updateTask answers tasks/update (2026-07-28): it hands the answers to
// the task's open questions and acknowledges them.
func (s *Server) updateTask(ctx context.Context, x *exchange, t *mcpstore.Task) ([]byte, *rpcError) {
	responses := map[string]json.RawMessage{}
	if in := x.meta.inputResponses; in != nil && !isNull(in) {
		if ok, _ := jsonx.Members(in, func(_, k, v []byte) { responses[string(k)] = json.RawMessage(v) }); !ok {
			return nil, errorf(codeInvalidParams, "invalid params: inputResponses must be an object")
		}
	}
	if run := s.running(t.ID); run != nil {
		run.answer(ctx, responses)
	} else if store := s.shared(); store != nil && len(responses) > 0 && !t.Status.Terminal() {
		// Another replica runs it: the answers wait in the store for it.
		box := make(map[string][]byte, len(responses))
		for k, v := range responses {
			box[k] = v
		}
		switch err := store.PostAnswers(ctx, t.ID, box); {
		case errors.Is(err, mcpstore.ErrTaskTerminal), errors.Is(err, mcpstore.ErrTaskNotFound):
		case err != nil:
			return nil, s.storeError("storing the answers", err)
		default:
			s.publish(ctx, mcpstore.BusEvent{Kind: mcpstore.BusTaskChanged, ID: t.ID})
		}
	}
	return []byte(`{"resultType":"complete"}`), nil
}

// cancelTask answers tasks/cancel: the task is cancelled before the answer
// and its handler's context ends. On 2025-11-25 a task that has ended
// cannot be cancelled (-32602) and the answer is the task; on 2026-07-28
// cancelling is idempotent and the answer empty.
func (s *Server) cancelTask(ctx context.Context, x *exchange, t *mcpstore.Task) ([]byte, *rpcError) {
	if !t.Status.Terminal() {
		run := s.running(t.ID)
		if run != nil {
			run.statusMu.Lock()
		}
		t.Status, t.StatusMessage, t.InputRequests = mcpstore.TaskCancelled, "The task was cancelled by request.", nil
		t.UpdatedAt = s.clock().UTC()
		err := s.taskStore().Update(ctx, t)
		if run != nil {
			run.statusMu.Unlock()
			run.cancel()
			if err == nil && !x.rev.Stateless() && run.sess != nil {
				run.notify(ctx, t, appendNotification(nil, "notifications/tasks/status", appendTask(nil, t, x.rev)))
			}
		}
		if run == nil && err == nil {
			s.publish(ctx, mcpstore.BusEvent{Kind: mcpstore.BusTaskChanged, ID: t.ID}) // for the replica running it
		}
		if errors.Is(err, mcpstore.ErrTaskTerminal) { // it ended meanwhile
			t, _ = s.taskStore().Get(ctx, taskOwner(x), t.ID)
		}
	} else if !x.rev.Stateless() {
		return nil, errorf(codeInvalidParams, "invalid params: task "+strconv.Quote(t.ID)+" has ended ("+string(t.Status)+") and cannot be cancelled")
	}
	if x.rev.Stateless() {
		return []byte(`{"resultType":"complete"}`), nil
	}
	return appendTask(nil, t, x.rev), nil
}

// listTasks answers tasks/list (2025-11-25): the session's tasks, a page at
// a time, those whose runner died failed first.
func (s *Server) listTasks(ctx context.Context, x *exchange) ([]byte, *rpcError) {
	after := ""
	if c := x.meta.cursor; c != nil && !isNull(c) {
		var ok bool
		if after, ok = stringValue(c); !ok || after == "" {
			return nil, errorf(codeInvalidParams, "invalid params: invalid cursor")
		}
	}
	size := s.id.PageSize
	if size <= 0 {
		size = 50
	}
	page, next, err := s.taskStore().List(ctx, taskOwner(x), after, size)
	if err != nil {
		return nil, errorf(codeInvalidParams, "invalid params: invalid cursor")
	}
	dst := []byte(`{"tasks":[`)
	for i, t := range page {
		// A task whose runner died is listed failed, as tasks/get shows it.
		switch reaped, err := s.reapIfLapsed(ctx, t); {
		case err == nil:
			t = reaped
		case !errors.Is(err, mcpstore.ErrTaskNotFound): // else it expired since: listed as it was
			return nil, s.storeError("reading the task", err)
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendTask(dst, t, x.rev)
	}
	dst = append(dst, ']')
	if next != "" {
		dst = append(append(append(dst, `,"nextCursor":"`...), next...), '"')
	}
	return append(dst, '}'), nil
}
