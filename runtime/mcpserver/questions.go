package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/mcpgen/mcpgen/internal/authgate"
	"sync"

	"github.com/mcpgen/mcpgen/internal/ctxkey"
	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file lets handlers ask the client questions on revision 2026-07-28,
// where a request cannot wait for an answer (multi round-trip requests).
// A handler asks as on every revision, with mcprt.Elicit and the like; a
// question the client has not answered ends the run with an
// input-required result that lists every question asked without an
// answer, and carries the answers given so far in a request state sealed
// with the server's key. The client's retry runs the handler again from
// the start with the answers.

// questions is what one run of a handler asked: the round of questions,
// and what went wrong that changes the answer to the request.
type questions struct {
	round *mrtr.Round
	mu    sync.Mutex
	// missing is the capability the client lacked for a question, which
	// makes a failed run a MissingRequiredClientCapability error.
	missing string
	// bad is the first answer that was not a valid result of its request.
	bad error
	// failed says the run failed with the error of a question it could
	// not ask (one matching mcprt.ErrNotSupported): a handler that falls
	// back and fails otherwise is answered with its own failure.
	failed bool
}

// asksClient reports whether a 2026-07-28 request of method may be
// answered with an input-required result.
func asksClient(method string) bool {
	return method == "tools/call" || method == "prompts/get" || method == "resources/read"
}

// rounds serves a request whose handler may ask questions: it sets up the
// answers of the earlier rounds, serves the request, and answers with the
// questions that are still open, if any.
func (s *Server) rounds(ctx context.Context, x *exchange, m *message) ([]byte, *rpcError) {
	answers, rerr := s.earlierAnswers(&x.meta, m, x.token)
	if rerr != nil {
		return nil, rerr
	}
	x.q = &questions{round: mrtr.NewRound(answers)}
	result, rerr := s.serve(ctx, x, m)
	q := x.q
	q.mu.Lock()
	defer q.mu.Unlock()
	switch pending := q.round.Pending(); {
	case q.bad != nil:
		return nil, errorf(codeInvalidParams, "invalid params: "+q.bad.Error())
	case len(pending) > 0:
		return s.inputRequired(m.method, requestName(m), authgate.Digest(authgate.Principal(x.token)), q.round.Used(), pending), nil
	case q.missing != "" && q.failed:
		return nil, missingCapability(q.missing)
	}
	return result, rerr
}

// requestName is what a request of a 2026-07-28 round is about: its
// tool or prompt name, or its resource URI.
func requestName(m *message) string {
	raw := m.meta.toolName
	if m.method == "resources/read" {
		raw = m.meta.uri
	}
	name, _ := stringValue(orEmpty(raw))
	return name
}

// earlierAnswers opens the request state of a retry of m and adds the
// answers it sends now. A state this server did not seal for this request
// of the token's principal is refused; inputResponses must be an object.
// Without either, the answers are none (a nil map).
func (s *Server) earlierAnswers(meta *requestMeta, m *message, tok *mcprt.TokenInfo) (map[string]json.RawMessage, *rpcError) {
	var answers map[string]json.RawMessage
	if st := meta.requestState; st != nil && !isNull(st) {
		token, ok := stringValue(st)
		if !ok {
			return nil, errorf(codeInvalidParams, "invalid params: requestState must be a string")
		}
		state, err := s.sealer().Open(token, m.method, requestName(m), authgate.Digest(authgate.Principal(tok)), s.clock())
		if err != nil {
			return nil, errorf(codeInvalidParams, "invalid params: requestState is not one this server issued for this request, or it expired")
		}
		answers = make(map[string]json.RawMessage, len(state.Answers))
		for k, v := range state.Answers {
			answers[k] = v
		}
	}
	if in := meta.inputResponses; in != nil && !isNull(in) {
		if answers == nil {
			answers = map[string]json.RawMessage{}
		}
		ok, _ := jsonx.Members(in, func(_, key, val []byte) {
			answers[string(key)] = json.RawMessage(val)
		})
		if !ok {
			return nil, errorf(codeInvalidParams, "invalid params: inputResponses must be an object")
		}
	}
	return answers, nil
}

// inputRequired is the result that asks the client the pending questions
// and carries the answers used so far in a sealed request state.
func (s *Server) inputRequired(method, name, principal string, used map[string]json.RawMessage, pending []mrtr.Question) []byte {
	dst := append(make([]byte, 0, 256), `{"resultType":"input_required","inputRequests":{`...)
	for i, q := range pending {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, q.Key)
		dst = jsonx.AppendString(append(dst, `:{"method":`...), q.Method)
		dst = append(append(append(dst, `,"params":`...), q.Params...), '}')
	}
	state := s.sealer().Seal(mrtr.State{Method: method, Name: name, Principal: principal, Issued: s.clock().Unix(), Answers: used})
	dst = jsonx.AppendString(append(dst, `},"requestState":`...), state)
	return append(dst, '}')
}

// missingCapability is the error of a request that needs a client
// capability the client did not declare on it. A dotted kind names a
// member of a capability (elicitation.url), written as nested objects.
func missingCapability(kind string) *rpcError {
	return &rpcError{code: codeMissingCapability, message: wire.MissingCapabilityMessage(kind), data: wire.MissingCapabilityData(kind)}
}

// sealer returns the server's sealer of request states, made on first use
// from Server.StateKey and Server.StateKeys.
func (s *Server) sealer() *mrtr.Sealer {
	s.sealOnce.Do(func() { s.seal = mrtr.NewRing(append([][]byte{s.StateKey}, s.StateKeys...), s.StateMaxAge) })
	return s.seal
}

// askRound asks a question of a 2026-07-28 request: its answer, or
// mcprt.ErrInputRequired when the client has not given one yet. kind is
// the capability the question needs (elicitation, sampling, roots).
func (x *exchangeCore) askRound(ctx context.Context, kind string, enabled, declared bool, method string, params []byte) (json.RawMessage, error) {
	switch {
	case !enabled:
		return nil, wire.NotEnabled(kind)
	case x.q == nil:
		return nil, wire.NotSupported("%s is not available here: on revision %s only tools, prompts and resource reads may ask the client", kind, x.rev)
	case !declared:
		x.q.mu.Lock()
		if x.q.missing == "" {
			x.q.missing = kind
		}
		x.q.mu.Unlock()
		return nil, wire.NotDeclared(kind)
	}
	key := ctxkey.InputKey(ctx)
	if key == "" {
		key = mrtr.KeyOf(method, params)
	}
	if x.task != nil && x.task.detached.Load() {
		return x.task.ask(ctx, key, method, params)
	}
	if x.q.round == nil {
		return nil, wire.NotSupported("%s is not available here: on revision %s only tools, prompts and resource reads may ask the client", kind, x.rev)
	}
	answer, ok := x.q.round.Ask(mrtr.Question{Key: key, Method: method, Params: params})
	if !ok {
		return nil, mcprt.ErrInputRequired
	}
	return answer, nil
}

// badAnswer records that the client's answer under key is not a valid
// result of its question, and returns the error the handler sees.
func (x *exchangeCore) badAnswer(ctx context.Context, method string, params []byte, err error) error {
	key := ctxkey.InputKey(ctx)
	if key == "" {
		key = mrtr.KeyOf(method, params)
	}
	err = fmt.Errorf("inputResponses[%q] is not a %s result: %v", key, method, err)
	x.q.mu.Lock()
	if x.q.bad == nil {
		x.q.bad = err
	}
	x.q.mu.Unlock()
	return err
}

// DefaultStateMaxAge is how long a request state stays valid when
// Server.StateMaxAge is zero.
const DefaultStateMaxAge = mrtr.DefaultMaxAge

// failedAsking records that a 2026-07-28 run failed with err, which makes
// it a MissingRequiredClientCapability error where err is that of a
// question the client did not declare.
func (x *exchangeCore) failedAsking(err error) {
	if x.q == nil {
		return
	}
	x.q.mu.Lock()
	x.q.failed = mrtr.CouldNotAsk(err)
	x.q.mu.Unlock()
}
