package mcpgo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file runs tools annotated task=optional or task=required as the
// tasks of 2025-11-25 that mcp-go makes of a tools/call carrying the task
// param: the tool is added as an ordinary tool whose descriptor has
// execution.taskSupport, which mcp-go's hybrid mode runs in the background
// and follows with tasks/get, tasks/result, tasks/list and tasks/cancel.
//
// mcp-go v1.2.1 starts the handler with a context derived from the
// request's, which HandleMessage cancels as soon as it has answered the
// call with the task: left as it is, every handler that watches its ctx
// would stop at once. The handler runs instead on a context detached from
// the request (its values kept) that tasks/cancel, the end of the session
// and the task's ttl end. mcp-go tells no one which task a handler runs
// for, so the hooks NewServer installs join the two: a handler and the
// answer to its call share the request's *server.RequestProtocolInfo,
// which mcp-go makes afresh for every message.

// taskRuns are the task calls running on one server, by the request that
// started them until its task's id is known, then by that id.
type taskRuns struct {
	hooked bool // the hooks that cancel runs are installed

	mu     sync.Mutex
	tools  map[string]bool // the adapter's tools with task support
	byCall map[*server.RequestProtocolInfo]*taskRun
	byID   map[string]*taskRun
}

// taskRun is one tool call running as a task. The handler (started) and
// the hook that sees the call answered with the task (created) both join
// it, in either order.
type taskRun struct {
	id        string
	session   string
	cancel    context.CancelFunc // nil until the handler starts
	joined    int
	cancelled bool // cancel as soon as the handler starts
	ended     bool
}

// hook adds to h the hooks that let tasks/cancel and the end of a session
// reach the handlers' contexts.
func (rs *taskRuns) hook(h *server.Hooks) {
	rs.hooked = true
	h.AddAfterCallTool(func(ctx context.Context, _ any, req *mcp.CallToolRequest, res any) {
		if ct, ok := res.(*mcp.CreateTaskResult); ok {
			rs.created(ctx, req.Params.Name, ct.Task.TaskId)
		}
	})
	h.AddAfterCancelTask(func(_ context.Context, _ any, req *mcp.CancelTaskRequest, _ *mcp.CancelTaskResult) {
		rs.cancel(func(r *taskRun) bool { return r.id == req.Params.TaskId })
	})
	h.AddOnUnregisterSession(func(_ context.Context, ss server.ClientSession) {
		id := ss.SessionID()
		rs.cancel(func(r *taskRun) bool { return r.session == id })
	})
}

// joinLocked returns the run of the call whose request carried key; the
// second of its two parties to join takes it out of byCall. rs.mu is held.
func (rs *taskRuns) joinLocked(key *server.RequestProtocolInfo) *taskRun {
	r := rs.byCall[key]
	if r == nil {
		r = new(taskRun)
		if rs.byCall == nil {
			rs.byCall = map[*server.RequestProtocolInfo]*taskRun{}
		}
		rs.byCall[key] = r
	}
	if r.joined++; r.joined == 2 {
		delete(rs.byCall, key)
	}
	return r
}

// added records that tool is one of the adapter's with task support, whose
// tasks have runs: a task of a tool added to mcp-go by other means has no
// handler here to join its run.
func (rs *taskRuns) added(tool string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.tools == nil {
		rs.tools = map[string]bool{}
	}
	rs.tools[tool] = true
}

// created records that the call of tool in ctx was answered with task id,
// so that tasks/cancel of id finds its run.
func (rs *taskRuns) created(ctx context.Context, tool, id string) {
	key := server.RequestProtocolInfoFromContext(ctx)
	if key == nil {
		return
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if !rs.tools[tool] {
		return
	}
	r := rs.joinLocked(key)
	r.session = sessionID(ctx)
	if r.ended {
		return
	}
	r.id = id
	if rs.byID == nil {
		rs.byID = map[string]*taskRun{}
	}
	rs.byID[id] = r
}

// started records that the handler of the call of ctx runs until cancel;
// nil when the run cannot be found again (no hooks, or no request info).
func (rs *taskRuns) started(ctx context.Context, cancel context.CancelFunc) *taskRun {
	key := server.RequestProtocolInfoFromContext(ctx)
	if !rs.hooked || key == nil {
		return nil
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.joinLocked(key)
	r.cancel = cancel
	if r.cancelled {
		cancel()
	}
	return r
}

// ended forgets r, whose handler has returned.
func (rs *taskRuns) ended(r *taskRun) {
	if r == nil {
		return
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r.ended = true
	if r.id != "" {
		delete(rs.byID, r.id)
	}
}

// cancel cancels the runs that match, now or when their handlers start.
func (rs *taskRuns) cancel(match func(*taskRun) bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, r := range rs.byID {
		if match(r) {
			r.cancelled = true
			if r.cancel != nil {
				r.cancel()
			}
		}
	}
}

// sessionID is the ID of the session of ctx; empty when there is none.
func sessionID(ctx context.Context) string {
	if ss := server.ClientSessionFromContext(ctx); ss != nil {
		return ss.SessionID()
	}
	return ""
}

// runsAsTask reports whether mcp-go runs req as a task: it asked for one
// and the tool was added with task support.
func runsAsTask(published bool, req *mcp.CallToolRequest) bool {
	return published && req.Params.Task != nil
}

// runTask runs t's handler as the task of req, on a context of its own
// (see the top of this file). A handler that panicked fails the task, as
// on the built-in server; any result, isError or not, completes it. Its
// structured content matches the output schema of revision listed, the
// one the client was listed.
func (rs *taskRuns) runTask(ctx context.Context, req *mcp.CallToolRequest, t *mcprt.Tool, args []byte, listed wire.Revision, mask bool, log *slog.Logger) (*mcp.CallToolResult, error) {
	runCtx, cancel := taskContext(ctx, req.Params.Task)
	defer cancel()
	run := rs.started(ctx, cancel)
	defer rs.ended(run)
	res, panicked := wire.CallToolChecked(runCtx, log, t, args)
	if panicked != nil {
		err := fmt.Errorf("internal error: tool %s panicked: %v", strconv.Quote(t.Name), panicked)
		if mask {
			err = errors.New(wire.Mask(ctx, log, "tool", t.Name, err))
		}
		return nil, err
	}
	if mask {
		res = wire.MaskTool(ctx, log, t.Name, res, nil)
	}
	return result(res, revision(runCtx), listed), nil
}

// taskContext is the context of a task's handler: ctx's values without
// its cancellation, ending at the task's ttl when the client set one, as
// mcp-go forgets the task then.
func taskContext(ctx context.Context, p *mcp.TaskParams) (context.Context, context.CancelFunc) {
	ctx = context.WithoutCancel(ctx)
	if p.TTL != nil && *p.TTL > 0 {
		return context.WithTimeout(ctx, time.Duration(*p.TTL)*time.Millisecond)
	}
	return context.WithCancel(ctx)
}
