package mrtr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/mcpgen/mcpgen/internal/authgate"
	"github.com/mcpgen/mcpgen/internal/ctxkey"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Asker asks the questions of one run of a handler on 2026-07-28 for the
// adapters, whose SDKs then send the questions in their own input-required
// results. It makes the same checks, params and keys as the built-in
// server, so that one handler asks alike on every path.
type Asker struct {
	round *Round
	caps  mcprt.ClientCapabilities
	// elicitation and sampling are the server's switches.
	elicitation, sampling bool

	mu sync.Mutex
	// missing is the capability the client lacked for a question.
	missing string
	// bad is the first answer that was not a valid result of its request.
	bad error
}

// NewAsker starts a run with the answers known so far, for a client that
// declared caps on a server whose identity enables elicitation and
// sampling as said.
func NewAsker(answers map[string]json.RawMessage, caps mcprt.ClientCapabilities, elicitation, sampling bool) *Asker {
	return &Asker{round: NewRound(answers), caps: caps, elicitation: elicitation, sampling: sampling}
}

// Elicit asks for input matching schema, as [mcprt.Elicit] does.
func (a *Asker) Elicit(ctx context.Context, message string, schema []byte) (mcprt.ElicitResult, error) {
	p := wire.AppendElicitParams(nil, message, schema)
	raw, err := a.ask(ctx, "elicitation", a.elicitation, a.caps.Elicitation, "elicitation/create", p)
	if err != nil {
		return mcprt.ElicitResult{}, err
	}
	r, err := wire.ParseElicitResult(raw)
	if err != nil {
		return mcprt.ElicitResult{}, a.badAnswer(ctx, "elicitation/create", p, raw)
	}
	return r, nil
}

// ElicitURL asks the client to send its user to url, as [mcprt.ElicitURL]
// does; 2026-07-28 gives no elicitation id.
func (a *Asker) ElicitURL(ctx context.Context, message, url string) (mcprt.ElicitResult, string, error) {
	p := wire.AppendURLElicitation(nil, "", message, url)
	raw, err := a.ask(ctx, "elicitation.url", a.elicitation, a.caps.ElicitationURL, "elicitation/create", p)
	if err != nil {
		return mcprt.ElicitResult{}, "", err
	}
	r, err := wire.ParseElicitResult(raw)
	if err != nil {
		return mcprt.ElicitResult{}, "", a.badAnswer(ctx, "elicitation/create", p, raw)
	}
	return mcprt.ElicitResult{Action: r.Action}, "", nil
}

// Sample asks the client's model, as [mcprt.Sample] does; a request with
// tools needs sampling.tools.
func (a *Asker) Sample(ctx context.Context, req mcprt.SampleRequest) (mcprt.SampleResult, error) {
	if err := wire.CheckSample(&req, wire.Rev20260728); err != nil {
		return mcprt.SampleResult{}, err
	}
	kind, declared := "sampling", a.caps.Sampling
	if wire.UsesTools(&req) {
		kind, declared = "sampling.tools", a.caps.SamplingTools
	}
	p := wire.AppendSampleParams(nil, &req, wire.Rev20260728)
	raw, err := a.ask(ctx, kind, a.sampling, declared, "sampling/createMessage", p)
	if err != nil {
		return mcprt.SampleResult{}, err
	}
	r, err := wire.ParseSampleResult(raw)
	if err != nil {
		return mcprt.SampleResult{}, a.badAnswer(ctx, "sampling/createMessage", p, raw)
	}
	return r, nil
}

// ListRoots asks for the client's roots, as [mcprt.ListRoots] does.
func (a *Asker) ListRoots(ctx context.Context) ([]mcprt.Root, error) {
	p := []byte(`{}`)
	raw, err := a.ask(ctx, "roots", true, a.caps.Roots, "roots/list", p)
	if err != nil {
		return nil, err
	}
	roots, err := wire.ParseRoots(raw)
	if err != nil {
		return nil, a.badAnswer(ctx, "roots/list", p, raw)
	}
	return roots, nil
}

// ask returns the answer to a question, or [mcprt.ErrInputRequired] when
// the client has not given one yet. kind is the capability it needs.
func (a *Asker) ask(ctx context.Context, kind string, enabled, declared bool, method string, params []byte) (json.RawMessage, error) {
	switch {
	case !enabled:
		return nil, wire.NotEnabled(kind)
	case !declared:
		a.mu.Lock()
		if a.missing == "" {
			a.missing = kind
		}
		a.mu.Unlock()
		return nil, wire.NotDeclared(kind)
	}
	answer, ok := a.round.Ask(Question{Key: keyOf(ctx, method, params), Method: method, Params: params})
	if !ok {
		return nil, mcprt.ErrInputRequired
	}
	return answer, nil
}

// keyOf is the key of a question: the one the handler named with
// [mcprt.WithInputKey], or [KeyOf].
func keyOf(ctx context.Context, method string, params []byte) string {
	if key := ctxkey.InputKey(ctx); key != "" {
		return key
	}
	return KeyOf(method, params)
}

// badAnswer records that the client's answer is not a valid result of its
// question, and returns the error the handler sees.
func (a *Asker) badAnswer(ctx context.Context, method string, params, raw []byte) error {
	err := fmt.Errorf("inputResponses[%q] is not a %s result: %s", keyOf(ctx, method, params), method, raw)
	a.mu.Lock()
	if a.bad == nil {
		a.bad = err
	}
	a.mu.Unlock()
	return err
}

// RequirePages asks again for the pages of a handler's
// [mcprt.URLElicitationRequired] error, answered or not, since the
// handler found itself still unsatisfied. It reports false when err names
// no page, or when the server does not enable elicitation or the client
// did not declare URL elicitation: the failure then stays a failed result.
func (a *Asker) RequirePages(err error) bool {
	pages := wire.URLElicitations(err)
	if len(pages) == 0 || !a.elicitation {
		return false
	}
	if !a.caps.ElicitationURL {
		a.mu.Lock()
		if a.missing == "" {
			a.missing = "elicitation.url"
		}
		a.mu.Unlock()
		return false
	}
	for _, u := range pages {
		p := wire.AppendURLElicitation(nil, "", u.Message, u.URL)
		a.round.Require(Question{Key: KeyOf("elicitation/create", p), Method: "elicitation/create", Params: p})
	}
	return true
}

// Outcome is how a run ended: the questions still open, the answers its
// questions used, the capability the client lacked for a question, and
// the first answer that was no valid result.
type Outcome struct {
	Pending []Question
	Used    map[string]json.RawMessage
	Missing string
	Bad     error
}

// Outcome returns how the run ended, once the handler has returned.
func (a *Asker) Outcome() Outcome {
	a.mu.Lock()
	defer a.mu.Unlock()
	return Outcome{Pending: a.round.Pending(), Used: a.round.Used(), Missing: a.missing, Bad: a.bad}
}

// Principal is the digest of whom the verified token of ctx names, ""
// without one: a request state is bound to it.
func Principal(ctx context.Context) string {
	t, ok := mcprt.Token(ctx)
	if !ok {
		return ""
	}
	return authgate.Digest(authgate.Principal(&t))
}

// CouldNotAsk reports whether err, a handler's failure on 2026-07-28, is
// that of a question the client could not be asked: one matching
// [mcprt.ErrNotSupported], or a [mcprt.URLElicitationRequired]. Such a
// failure, by a client that did not declare the capability, is answered
// as MissingRequiredClientCapability; a handler that falls back and fails
// otherwise is answered with its own failure.
func CouldNotAsk(err error) bool {
	return errors.Is(err, mcprt.ErrNotSupported) || len(wire.URLElicitations(err)) > 0
}
