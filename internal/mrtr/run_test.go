package mrtr

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestRun: a run asks a question it has no answer to, and Next gives
// it with a state; the retry with that state and the answer gets the
// answer, and asks nothing more.
func TestRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := NewSealer(nil, 0)
	caps := mcprt.ClientCapabilities{Elicitation: true}
	schema := []byte(`{"type":"object","properties":{"name":{"type":"string"}}}`)

	first, err := StartRun[any](ctx, s, "tools/call", "confirm", "", nil, caps, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Ask.Elicit(ctx, "Your name?", schema); !errors.Is(err, mcprt.ErrInputRequired) {
		t.Fatalf("Elicit without an answer: %v, want ErrInputRequired", err)
	}
	qs, state := first.Next(first.Ask.Outcome())
	if len(qs) != 1 || qs[0].Method != "elicitation/create" || state == "" {
		t.Fatalf("Next = %v, %q; want one elicitation and a state", qs, state)
	}

	answer := map[string]any{"action": "accept", "content": map[string]any{"name": "Alice"}}
	retry, err := StartRun(ctx, s, "tools/call", "confirm", state, map[string]any{qs[0].Key: answer}, caps, true, false)
	if err != nil {
		t.Fatal(err)
	}
	r, err := retry.Ask.Elicit(ctx, "Your name?", schema)
	if err != nil || r.Action != "accept" || string(r.Content) != `{"name":"Alice"}` {
		t.Fatalf("Elicit on the retry = %+v, %v", r, err)
	}
	if qs, state := retry.Next(retry.Ask.Outcome()); len(qs) != 0 || state != "" {
		t.Errorf("Next after every answer = %v, %q; want none", qs, state)
	}

	// The state is bound to its request, and a response must be JSON.
	if _, err := StartRun[any](ctx, s, "tools/call", "other", state, nil, caps, true, false); err == nil || err.Error() != BadStateText {
		t.Errorf("a state for another tool: %v, want %q", err, BadStateText)
	}
	_, err = StartRun(ctx, s, "tools/call", "confirm", "", map[string]any{"k": make(chan int)}, caps, true, false)
	if err == nil || !strings.HasPrefix(err.Error(), `inputResponses["k"]: `) {
		t.Errorf("a response that is no JSON value: %v", err)
	}
}
