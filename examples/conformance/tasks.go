package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// The tools of the suite's tasks scenarios (the io.modelcontextprotocol/tasks
// extension of 2026-07-28). Whether a call becomes a task is the server's
// choice: a call of a task-capable tool that is still running after a
// moment becomes one.

// GreetInput is who to greet.
type GreetInput struct {
	Name string `json:"name"` // Name of the person to greet
}

// Greet greets someone, at once: it never runs as a task.
//
//mcp:tool name=greet readonly
func Greet(in GreetInput) string { return "Hello, " + in.Name + "!" }

// ComputeInput is how long to compute, and what to call it.
type ComputeInput struct {
	Seconds int    `json:"seconds" mcp:"min=0,max=600"` // How long the computation takes
	Label   string `json:"label,omitempty"`             // A name for the computation
}

// SlowCompute computes for a while; it may run as a task, and is cancelled
// with it.
//
//mcp:tool name=slow_compute task=optional
func SlowCompute(ctx context.Context, in ComputeInput) (string, error) {
	for i := range in.Seconds {
		_ = mcprt.Progress(ctx, float64(i), float64(in.Seconds), fmt.Sprintf("second %d of %d", i+1, in.Seconds))
		if err := sleep(ctx, time.Second); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("computed %q in %d seconds", in.Label, in.Seconds), nil
}

// FailingJob works for a second, then fails as a tool does; it runs only
// as a task.
//
//mcp:tool name=failing_job task=required
func FailingJob(ctx context.Context) (string, error) {
	if err := sleep(ctx, time.Second); err != nil {
		return "", err
	}
	return "", errors.New("the job failed: the input was rejected")
}

// ProtocolErrorJob works for a moment, then fails inside the server: a
// panic, which fails its task with an internal error.
//
//mcp:tool name=protocol_error_job task=optional
func ProtocolErrorJob(ctx context.Context) (string, error) {
	if err := sleep(ctx, 500*time.Millisecond); err != nil {
		return "", err
	}
	panic("the job's worker crashed")
}

// DeleteInput is the file to delete.
type DeleteInput struct {
	Filename string `json:"filename"` // File to delete
}

// ConfirmDelete looks the file up, then asks the user to confirm.
//
//mcp:tool name=confirm_delete destructive task=optional
func ConfirmDelete(ctx context.Context, in DeleteInput) (string, error) {
	if err := sleep(ctx, 500*time.Millisecond); err != nil {
		return "", err
	}
	res, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "confirm"), "Delete "+in.Filename+"?",
		[]byte(`{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}`))
	if err != nil {
		return "", err
	}
	if res.Action != mcprt.ActionAccept {
		return "kept " + in.Filename, nil
	}
	return "deleted " + in.Filename, nil
}

// MultiInput works for a moment, then asks two questions at once.
//
//mcp:tool name=multi_input task=optional
func MultiInput(ctx context.Context) (string, error) {
	if err := sleep(ctx, 500*time.Millisecond); err != nil {
		return "", err
	}
	var wg sync.WaitGroup
	var a, b mcprt.ElicitResult
	var errs [2]error
	schema := []byte(`{"type":"object","properties":{"name":{"type":"string"},"confirm":{"type":"boolean"}}}`)
	wg.Go(func() { a, errs[0] = mcprt.Elicit(mcprt.WithInputKey(ctx, "first"), "First answer?", schema) })
	wg.Go(func() { b, errs[1] = mcprt.Elicit(mcprt.WithInputKey(ctx, "second"), "Second answer?", schema) })
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return "", err
	}
	return "answers: " + a.Action + ", " + b.Action, nil
}

// TestToolWithTask asks the user's name before it starts, then runs as a
// task.
//
//mcp:tool name=test_tool_with_task task=required
func TestToolWithTask(ctx context.Context) (string, error) {
	res, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "user_name"), "What is your name?", nameSchema)
	if err != nil {
		return "", err
	}
	return "Hello, " + field(res, "name") + ", from a task", nil
}
