package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// This file sends a handler's question to a 2025-11-25 client as a task,
// where the client declared task support for the question's method
// (tasks.requests.sampling.createMessage, tasks.requests.elicitation.create)
// and the identity enables tasks: the client answers at once with a task,
// the server polls it with tasks/get at the interval the client asks for,
// and fetches the answer with tasks/result once the task is done, so that
// no request stays open while a person or a model takes its time.

// clientTask is a task a client runs for the server: a Task of 2025-11-25.
type clientTask struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage"`
	PollInterval  *int64 `json:"pollInterval"`
}

// DefaultClientPoll is how often a client's task is polled when the
// client suggests no interval.
const DefaultClientPoll = time.Second

// minClientPoll bounds the interval from below, whatever the client says.
const minClientPoll = 10 * time.Millisecond

// asTask reports whether a question of method goes to the client as a task.
func (x *exchangeCore) asTask(method string) bool {
	if !x.rev.HasTasks() || !x.srv.id.EnableTasks {
		return false
	}
	switch method {
	case "sampling/createMessage":
		return x.caps.taskSampling
	case "elicitation/create":
		return x.caps.taskElicitation
	}
	return false
}

// askAsTask sends the request method with params to the client as a task
// and returns the task's result. A client may answer at once instead; that
// answer is returned as it is. When ctx ends first, the client is asked to
// cancel the task.
func (x *exchangeCore) askAsTask(ctx context.Context, method string, params []byte) (json.RawMessage, error) {
	ttl := durationOr(x.srv.TaskTTL, DefaultTaskTTL).Milliseconds()
	raw, err := x.roundTrip(ctx, method, withFields(params, []byte(`,"task":{"ttl":`+strconv.FormatInt(ttl, 10)+`}`)))
	if err != nil {
		return nil, err
	}
	var created struct {
		Task *clientTask `json:"task"`
	}
	if json.Unmarshal(raw, &created) != nil || created.Task == nil || created.Task.TaskID == "" {
		return raw, nil
	}
	t := created.Task
	id := jsonx.AppendString([]byte(`{"taskId":`), t.TaskID)
	id = append(id, '}')
	for t.Status == "working" {
		timer := time.NewTimer(t.poll())
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			go x.roundTrip(context.WithoutCancel(ctx), "tasks/cancel", id) //nolint:errcheck // best effort: the answer is not needed
			return nil, ctx.Err()
		}
		raw, err := x.roundTrip(ctx, "tasks/get", id)
		if err != nil {
			return nil, err
		}
		next := new(clientTask)
		if err := json.Unmarshal(raw, next); err != nil || next.Status == "" {
			return nil, fmt.Errorf("malformed tasks/get result: %s", raw)
		}
		t = next
	}
	switch t.Status {
	case "failed", "cancelled":
		return nil, fmt.Errorf("the client's task for %s %s: %s", method, t.Status, t.StatusMessage)
	}
	// completed, or input_required: tasks/result waits for the end and
	// carries what the client needs meanwhile.
	return x.roundTrip(ctx, "tasks/result", id)
}

// poll is the wait before the task is polled again.
func (t *clientTask) poll() time.Duration {
	if t.PollInterval == nil {
		return DefaultClientPoll
	}
	return max(time.Duration(*t.PollInterval)*time.Millisecond, minClientPoll)
}
