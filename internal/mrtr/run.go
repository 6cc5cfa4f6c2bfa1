package mrtr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Run is one run of a handler on 2026-07-28 in an adapter: what it asks,
// and the request it serves, to which the request state is bound.
type Run struct {
	Ask                     *Asker
	sealer                  *Sealer
	method, name, principal string
}

// StartRun starts the run of a handler for the request of method about
// name, with the answers of the earlier rounds (state) and those of the
// retry (responses, in the SDK's type). A response that is no JSON value,
// or a state s did not seal for this request, fails it: the adapter
// answers invalid params, "invalid params: " and the error's text.
func StartRun[V any](ctx context.Context, s *Sealer, method, name, state string, responses map[string]V, caps mcprt.ClientCapabilities, elicitation, sampling bool) (*Run, error) {
	raw := make(map[string]json.RawMessage, len(responses))
	for k, v := range responses {
		js, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("inputResponses[%q]: %v", k, err)
		}
		raw[k] = js
	}
	principal := Principal(ctx)
	answers, err := s.Answers(state, raw, method, name, principal, time.Now())
	if err != nil {
		return nil, errors.New(BadStateText)
	}
	return &Run{Ask: NewAsker(answers, caps, elicitation, sampling), sealer: s,
		method: method, name: name, principal: principal}, nil
}

// Next returns the questions the run asked without an answer, with the
// request state its retry must carry; none when every question had one.
func (r *Run) Next(o Outcome) ([]Question, string) {
	if len(o.Pending) == 0 {
		return nil, ""
	}
	return o.Pending, r.sealer.Issue(r.method, r.name, r.principal, o.Used, time.Now())
}
