package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// The tools and the prompt of the suite's 2026-07-28 scenarios: questions
// asked through input-required results, a capability the client must
// declare, and changes of the tool and prompt lists.

// server is the running server, which the list-changing tools change.
var server *mcpserver.Server

// TestMissingCapability needs the client's model, which the client must
// declare it lends.
//
//mcp:tool name=test_missing_capability
func TestMissingCapability(ctx context.Context) (string, error) {
	res, err := mcprt.Sample(ctx, mcprt.SampleRequest{MaxTokens: 10,
		Messages: []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("Say yes.")}}})
	if err != nil {
		return "", err
	}
	return res.Content.Text, nil
}

// TestStreamingElicitation asks the user a question while it runs.
//
//mcp:tool name=test_streaming_elicitation
func TestStreamingElicitation(ctx context.Context) (string, error) {
	res, err := mcprt.Elicit(ctx, "Continue?", []byte(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`))
	if err != nil {
		return "", err
	}
	return "answered " + res.Action, nil
}

// TestLoggingTool logs a message, which reaches only clients that asked
// for log messages.
//
//mcp:tool name=test_logging_tool
func TestLoggingTool(ctx context.Context) (string, error) {
	if err := mcprt.Log(ctx, mcprt.LevelInfo, "conformance", "a log message"); err != nil {
		return "", err
	}
	return "logged", nil
}

// TestTriggerToolChange adds a tool and takes it away again, so that the
// tool list changes twice.
//
//mcp:tool name=test_trigger_tool_change
func TestTriggerToolChange() string {
	server.AddTools(mcprt.Tool{Name: "transient_tool", Description: "Exists for a moment.",
		InputSchema: []byte(`{"type":"object"}`), Handler: func(context.Context, []byte) mcprt.Result { return mcprt.TextResult("") }})
	server.RemoveTools("transient_tool")
	return "the tool list changed"
}

// TestTriggerPromptChange adds a prompt and takes it away again.
//
//mcp:tool name=test_trigger_prompt_change
func TestTriggerPromptChange() string {
	server.AddPrompts(mcprt.Prompt{Name: "transient_prompt", Description: "Exists for a moment.",
		Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) { return mcprt.PromptResult{}, nil }})
	server.RemovePrompts("transient_prompt")
	return "the prompt list changed"
}

// nameSchema asks for a name.
var nameSchema = []byte(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)

// TestInputRequiredElicitation asks the user's name.
//
//mcp:tool name=test_input_required_result_elicitation
func TestInputRequiredElicitation(ctx context.Context) (string, error) {
	res, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "user_name"), "What is your name?", nameSchema)
	if err != nil {
		return "", err
	}
	return "Hello, " + field(res, "name") + "!", nil
}

// field reads one string of an elicitation's content.
func field(res mcprt.ElicitResult, name string) string {
	var m map[string]any
	if err := json.Unmarshal(res.Content, &m); err != nil {
		return ""
	}
	s, _ := m[name].(string)
	return s
}

// TestInputRequiredSampling asks the client's model a question.
//
//mcp:tool name=test_input_required_result_sampling
func TestInputRequiredSampling(ctx context.Context) (string, error) {
	res, err := mcprt.Sample(mcprt.WithInputKey(ctx, "capital_question"), mcprt.SampleRequest{MaxTokens: 50,
		Messages: []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("What is the capital of France?")}}})
	if err != nil {
		return "", err
	}
	return "The model said: " + res.Content.Text, nil
}

// TestInputRequiredListRoots asks the client for its roots.
//
//mcp:tool name=test_input_required_result_list_roots
func TestInputRequiredListRoots(ctx context.Context) (string, error) {
	roots, err := mcprt.ListRoots(mcprt.WithInputKey(ctx, "client_roots"))
	if err != nil {
		return "", err
	}
	var uris []string
	for _, r := range roots {
		uris = append(uris, r.URI)
	}
	return "Roots: " + strings.Join(uris, ", "), nil
}

// TestInputRequiredRequestState asks for a confirmation, carried between
// rounds in the request state.
//
//mcp:tool name=test_input_required_result_request_state
func TestInputRequiredRequestState(ctx context.Context) (string, error) {
	res, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "confirm"), "Confirm?", []byte(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`))
	if err != nil {
		return "", err
	}
	return "state-ok: " + res.Action, nil
}

// TestInputRequiredMultipleInputs asks the user, the model and the client
// at once, in one round.
//
//mcp:tool name=test_input_required_result_multiple_inputs
func TestInputRequiredMultipleInputs(ctx context.Context) (string, error) {
	var wg sync.WaitGroup
	var name mcprt.ElicitResult
	var answer mcprt.SampleResult
	var roots []mcprt.Root
	var errs [3]error
	wg.Go(func() {
		name, errs[0] = mcprt.Elicit(mcprt.WithInputKey(ctx, "user_name"), "What is your name?", nameSchema)
	})
	wg.Go(func() {
		answer, errs[1] = mcprt.Sample(mcprt.WithInputKey(ctx, "greeting"), mcprt.SampleRequest{MaxTokens: 20,
			Messages: []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("Say hello.")}}})
	})
	wg.Go(func() { roots, errs[2] = mcprt.ListRoots(mcprt.WithInputKey(ctx, "client_roots")) })
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return "", err
	}
	return field(name, "name") + " / " + answer.Content.Text + " / " + strings.Repeat("root ", len(roots)), nil
}

// TestInputRequiredMultiRound asks two questions, one round each.
//
//mcp:tool name=test_input_required_result_multi_round
func TestInputRequiredMultiRound(ctx context.Context) (string, error) {
	first, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "user_name"), "What is your name?", nameSchema)
	if err != nil {
		return "", err
	}
	second, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "favorite_color"), "What is your favorite color?",
		[]byte(`{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`))
	if err != nil {
		return "", err
	}
	return field(first, "name") + " likes " + field(second, "color"), nil
}

// TestInputRequiredTamperedState asks a question whose request state a
// client cannot alter.
//
//mcp:tool name=test_input_required_result_tampered_state
func TestInputRequiredTamperedState(ctx context.Context) (string, error) {
	res, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "confirm"), "Confirm?", []byte(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`))
	if err != nil {
		return "", err
	}
	return "confirmed: " + res.Action, nil
}

// TestInputRequiredCapabilities asks the user, or, where the client cannot
// ask its user, its model.
//
//mcp:tool name=test_input_required_result_capabilities
func TestInputRequiredCapabilities(ctx context.Context) (string, error) {
	res, err := mcprt.Elicit(ctx, "What is your name?", nameSchema)
	if err == nil {
		return "Hello, " + field(res, "name"), nil
	}
	if errors.Is(err, mcprt.ErrInputRequired) {
		return "", err
	}
	answer, err := mcprt.Sample(ctx, mcprt.SampleRequest{MaxTokens: 20,
		Messages: []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("Make up a name.")}}})
	if err != nil {
		return "", err
	}
	return "Hello, " + answer.Content.Text, nil
}

// TestInputRequiredPrompt asks the user which context the prompt uses.
//
//mcp:prompt name=test_input_required_result_prompt title="Prompt that asks for context"
func TestInputRequiredPrompt(ctx context.Context) (string, error) {
	res, err := mcprt.Elicit(mcprt.WithInputKey(ctx, "user_context"), "What context should the prompt use?",
		[]byte(`{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}`))
	if err != nil {
		return "", err
	}
	return "Prompt with context: " + field(res, "context"), nil
}

// HeaderInput is what test_header_param takes: a region, which HTTP
// clients also send in the Mcp-Param-Region header.
type HeaderInput struct {
	Region string `json:"region" mcp:"header=Region"` // Region to run in
}

// TestHeaderParam echoes a region that HTTP clients mirror in a header.
//
//mcp:tool name=test_header_param readonly
func TestHeaderParam(in HeaderInput) string { return "region " + in.Region }
