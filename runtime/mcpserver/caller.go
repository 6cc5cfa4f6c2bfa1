package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

var (
	_ mcprt.Caller = (*exchange)(nil)
	_ mcprt.Caller = (*exchangeCore)(nil)
)

// Progress implements [mcprt.Caller]: a notifications/progress for the
// request's progress token, if it had one.
func (x *exchangeCore) Progress(ctx context.Context, progress, total float64, message string) error {
	if run := x.task; run != nil && run.detached.Load() {
		// A task's progress is its status message; 2026-07-28 sends no
		// notifications for tasks.
		if message != "" {
			run.publish(ctx, &message)
		}
		if x.rev.Stateless() {
			return nil
		}
	}
	if x.hm.progressToken == nil {
		return nil
	}
	if err := wire.CheckProgress(progress, total); err != nil {
		return err
	}
	p := append(make([]byte, 0, 96), `{"progressToken":`...)
	p = append(p, x.hm.progressToken...)
	p = strconv.AppendFloat(append(p, `,"progress":`...), progress, 'g', -1, 64)
	if total > 0 {
		p = strconv.AppendFloat(append(p, `,"total":`...), total, 'g', -1, 64)
	}
	if message != "" {
		p = jsonx.AppendString(append(p, `,"message":`...), message)
	}
	return x.out.send(appendNotification(nil, "notifications/progress", append(p, '}')))
}

// Log implements [mcprt.Caller]: a notifications/message when logging is
// enabled and level is at or above the level the client asked for.
func (x *exchangeCore) Log(ctx context.Context, level mcprt.LogLevel, logger string, data any) error {
	if err := wire.CheckLevel(level); err != nil {
		return err
	}
	min := x.hm.logLevel
	if !x.rev.Stateless() && x.sess != nil {
		min = x.sess.logLevel()
	}
	if x.rev.Stateless() && x.task != nil && x.task.detached.Load() {
		return nil // 2026-07-28 sends no log messages for tasks
	}
	if !x.srv.id.EnableLogging || !wire.ValidLevel(min) || wire.LevelRank(level) < wire.LevelRank(min) {
		return nil
	}
	js, err := wire.LogData(data)
	if err != nil {
		return err
	}
	p := jsonx.AppendString(append(make([]byte, 0, 64+len(js)), `{"level":`...), string(level))
	if logger != "" {
		p = jsonx.AppendString(append(p, `,"logger":`...), logger)
	}
	p = append(append(p, `,"data":`...), js...)
	return x.out.send(appendNotification(nil, "notifications/message", append(p, '}')))
}

// Elicit implements [mcprt.Caller] with an elicitation/create request.
func (x *exchangeCore) Elicit(ctx context.Context, message string, requestedSchema []byte) (mcprt.ElicitResult, error) {
	p := wire.AppendElicitParams(make([]byte, 0, 64+len(requestedSchema)), message, requestedSchema)
	q := question{"elicitation", x.srv.id.EnableElicitation, x.caps.elicitation, wire.Rev20250618, "elicitation/create", p}
	raw, err := x.ask(ctx, q)
	if err != nil {
		return mcprt.ElicitResult{}, err
	}
	r, err := wire.ParseElicitResult(raw)
	if err != nil {
		return mcprt.ElicitResult{}, x.malformed(ctx, q, raw)
	}
	return r, nil
}

// ElicitURL implements [mcprt.Caller] with an elicitation/create request in
// URL mode. On a session the elicitation gets an id, which
// [Server.ElicitationComplete] takes; 2026-07-28 has none.
func (x *exchangeCore) ElicitURL(ctx context.Context, message, url string) (mcprt.ElicitResult, string, error) {
	id := ""
	if !x.rev.Stateless() {
		id = mcprt.NewElicitationID()
	}
	q := question{"elicitation.url", x.srv.id.EnableElicitation, x.caps.elicitationURL, wire.Rev20251125, "elicitation/create", wire.AppendURLElicitation(nil, id, message, url)}
	if !x.rev.Stateless() && x.canAsk(q.kind, q.enabled, q.declared, q.since) == nil {
		x.sess.expectCompletion(id)
	}
	raw, err := x.ask(ctx, q)
	if err != nil {
		return mcprt.ElicitResult{}, id, err
	}
	r, err := wire.ParseElicitResult(raw)
	if err != nil {
		return mcprt.ElicitResult{}, id, x.malformed(ctx, q, raw)
	}
	return mcprt.ElicitResult{Action: r.Action}, id, nil
}

// Sample implements [mcprt.Caller] with a sampling/createMessage request.
// A request with tools needs the client's sampling.tools capability.
func (x *exchangeCore) Sample(ctx context.Context, req mcprt.SampleRequest) (mcprt.SampleResult, error) {
	if err := wire.CheckSample(&req, x.rev); err != nil {
		return mcprt.SampleResult{}, err
	}
	q := question{"sampling", x.srv.id.EnableSampling, x.caps.sampling, wire.Rev20241105, "sampling/createMessage", wire.AppendSampleParams(nil, &req, x.rev)}
	if wire.UsesTools(&req) {
		q.kind, q.declared, q.since = "sampling.tools", x.caps.samplingTools, wire.Rev20251125
	}
	raw, err := x.ask(ctx, q)
	if err != nil {
		return mcprt.SampleResult{}, err
	}
	r, err := wire.ParseSampleResult(raw)
	if err != nil {
		return mcprt.SampleResult{}, x.malformed(ctx, q, raw)
	}
	return r, nil
}

// ListRoots implements [mcprt.Caller] with a roots/list request. Roots are
// the client's to offer: no identity switch gates them.
func (x *exchangeCore) ListRoots(ctx context.Context) ([]mcprt.Root, error) {
	q := question{"roots", true, x.caps.roots, wire.Rev20241105, "roots/list", []byte(`{}`)}
	raw, err := x.ask(ctx, q)
	if err != nil {
		return nil, err
	}
	roots, err := wire.ParseRoots(raw)
	if err != nil {
		return nil, x.malformed(ctx, q, raw)
	}
	return roots, nil
}

// question is one request a handler makes of the client: the capability
// it needs, whether the identity enables it and the client declared it,
// the first revision that has it, and its method and params.
type question struct {
	kind              string
	enabled, declared bool
	since             wire.Revision
	method            string
	params            []byte
}

// ask puts q to the client: as a request on a legacy session, as a
// question of the round on 2026-07-28.
func (x *exchangeCore) ask(ctx context.Context, q question) (json.RawMessage, error) {
	if x.rev.Stateless() {
		return x.askRound(ctx, q.kind, q.enabled, q.declared, q.method, q.params)
	}
	if err := x.canAsk(q.kind, q.enabled, q.declared, q.since); err != nil {
		return nil, err
	}
	if run := x.task; run != nil {
		// A 2025-11-25 task's question is tagged with the task, which is
		// input_required until the answer comes.
		q.params = withFields(q.params, []byte(`,"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+run.id+`"}}`))
		run.mu.Lock()
		run.asking++
		run.mu.Unlock()
		run.publish(ctx, nil)
		defer func() {
			run.mu.Lock()
			run.asking--
			run.mu.Unlock()
			run.publish(context.WithoutCancel(ctx), nil)
		}()
	}
	if x.asTask(q.method) {
		return x.askAsTask(ctx, q.method, q.params)
	}
	return x.roundTrip(ctx, q.method, q.params)
}

// malformed is the error of an answer that is not a result of q's method.
// On 2026-07-28 the answer came in inputResponses, which makes the whole
// request invalid.
func (x *exchangeCore) malformed(ctx context.Context, q question, raw json.RawMessage) error {
	if x.rev.Stateless() && x.q != nil {
		return x.badAnswer(ctx, q.method, q.params, fmt.Errorf("%s", raw))
	}
	return fmt.Errorf("malformed %s result: %s", q.kind, raw)
}

// canAsk checks that a request of the given kind may go to the client: the
// identity enables it, the revision has server-to-client requests of that
// kind, and the client declared the capability.
func (x *exchangeCore) canAsk(kind string, enabled, declared bool, since wire.Revision) error {
	switch {
	case !enabled:
		return wire.NotEnabled(kind)
	case x.rev.Stateless():
		return wire.NotSupported("%s is not available: protocol revision %s has no server-to-client requests", kind, x.rev)
	case x.rev < since:
		return wire.NotSupported("%s needs protocol revision %s or later; the session uses %s", kind, since, x.rev)
	case !declared:
		return wire.NotDeclared(kind)
	case x.sess == nil:
		return wire.NotSupported("%s needs a session", kind)
	}
	return nil
}

// roundTrip sends a request to the client and waits for its answer, the
// end of ctx (then the client is told the request is cancelled) or the end
// of the session.
func (x *exchangeCore) roundTrip(ctx context.Context, method string, params []byte) (json.RawMessage, error) {
	id, ch, err := x.sess.expect()
	if err != nil {
		return nil, err
	}
	defer x.sess.forget(id)
	if err := x.out.send(appendRequest(nil, x.sess.requestID(id), method, params)); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		if m.error != nil {
			var e struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			_ = json.Unmarshal(m.error, &e)
			return nil, fmt.Errorf("the client answered %s with error %d: %s", method, e.Code, e.Message)
		}
		return m.result, nil
	case <-ctx.Done():
		p := strconv.AppendInt([]byte(`{"requestId":`), id, 10)
		p = append(p, `,"reason":"the server no longer needs the answer"}`...)
		_ = x.out.send(appendNotification(nil, "notifications/cancelled", p))
		return nil, ctx.Err()
	case <-x.sess.done:
		return nil, errClosed
	}
}

// Client tells [mcprt.ClientInfo] the client of the call: as it named
// itself and declared its capabilities at initialize, or on 2026-07-28
// in the request's _meta, which has no session.
func (x *exchangeCore) Client() mcprt.Client {
	info, caps, id := []byte(x.hm.clientInfo), []byte(x.hm.clientCaps), ""
	if !x.rev.Stateless() && x.sess != nil {
		x.sess.mu.Lock()
		info, caps, id = x.sess.rawInfo, x.sess.rawCaps, x.sess.id
		x.sess.mu.Unlock()
	}
	c := mcprt.Client{Revision: string(x.rev), SessionID: id, Capabilities: wire.ClientCapabilities(caps)}
	c.Name, c.Version = wire.ClientInfo(info)
	return c
}
