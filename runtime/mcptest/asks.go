package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// OnElicit answers the elicitation requests of handlers with f, which is
// given the message and the requested schema, and declares the
// elicitation capability. An error from f is the client's refusal: on the
// session revisions it answers the request with a JSON-RPC error; on
// 2026-07-28, where an answer cannot be an error, it fails the request.
//
// Handlers are called on the goroutine of the request that asks. Set
// them before the first request; replacing one later is fine.
func (c *Client) OnElicit(f func(ctx context.Context, message string, requestedSchema []byte) (mcprt.ElicitResult, error)) {
	c.t.Helper()
	c.declare("elicitation", "OnElicit")
	c.mu.Lock()
	c.onElicit = f
	c.mu.Unlock()
}

// OnSample answers the sampling requests of handlers with f and declares
// the sampling capability. Errors are as for [Client.OnElicit].
func (c *Client) OnSample(f func(ctx context.Context, req mcprt.SampleRequest) (mcprt.SampleResult, error)) {
	c.t.Helper()
	c.declare("sampling", "OnSample")
	c.mu.Lock()
	c.onSample = f
	c.mu.Unlock()
}

// OnRoots answers the roots requests of handlers with f and declares the
// roots capability. Errors are as for [Client.OnElicit].
func (c *Client) OnRoots(f func(ctx context.Context) ([]mcprt.Root, error)) {
	c.t.Helper()
	c.declare("roots", "OnRoots")
	c.mu.Lock()
	c.onRoots = f
	c.mu.Unlock()
}

// declare adds a capability, which must come before the first request
// unless it is declared already.
func (c *Client) declare(capability, setter string) {
	c.t.Helper()
	c.startMu.Lock()
	started := c.started
	c.startMu.Unlock()
	c.mu.Lock()
	had := c.caps[capability]
	c.caps[capability] = true
	c.mu.Unlock()
	if started && !had {
		c.t.Fatalf("mcptest: %s after the first request: the client's capabilities are fixed when the session starts, so set handlers before any call", setter)
	}
}

// answer runs the test's handler for the server's request method and
// returns the JSON of its result.
func (c *Client) answer(method string, params json.RawMessage) (json.RawMessage, error) {
	ctx := c.t.Context()
	c.mu.Lock()
	onElicit, onSample, onRoots := c.onElicit, c.onSample, c.onRoots
	c.mu.Unlock()
	switch method {
	case "elicitation/create":
		if onElicit == nil {
			return nil, errors.New("the test set no OnElicit handler")
		}
		var p struct {
			Message         string          `json:"message"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, fmt.Errorf("malformed elicitation/create params: %v", err)
		}
		r, err := onElicit(ctx, p.Message, p.RequestedSchema)
		if err != nil {
			return nil, err
		}
		return json.Marshal(struct {
			Action  string          `json:"action"`
			Content json.RawMessage `json:"content,omitempty"`
		}{r.Action, r.Content})
	case "sampling/createMessage":
		if onSample == nil {
			return nil, errors.New("the test set no OnSample handler")
		}
		req, err := parseSampleRequest(params)
		if err != nil {
			return nil, err
		}
		r, err := onSample(ctx, req)
		if err != nil {
			return nil, err
		}
		return c.appendSampleResult(&r), nil
	case "roots/list":
		if onRoots == nil {
			return nil, errors.New("the test set no OnRoots handler")
		}
		roots, err := onRoots(ctx)
		if err != nil {
			return nil, err
		}
		type root struct {
			URI  string `json:"uri"`
			Name string `json:"name,omitempty"`
		}
		list := make([]root, len(roots))
		for i, r := range roots {
			list[i] = root{r.URI, r.Name}
		}
		return json.Marshal(map[string]any{"roots": list})
	}
	return nil, fmt.Errorf("the client does not serve %s", method)
}

// answerAll answers the input requests of a 2026-07-28 input-required
// result; a handler's error fails the request, since inputResponses
// carry results only.
func (c *Client) answerAll(requests map[string]json.RawMessage) (json.RawMessage, error) {
	answers := make(map[string]json.RawMessage, len(requests))
	for key, raw := range requests {
		var q struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(raw, &q); err != nil {
			return nil, fmt.Errorf("malformed input request %q: %s", key, raw)
		}
		a, err := c.answer(q.Method, q.Params)
		if err != nil {
			return nil, fmt.Errorf("answering input request %q (%s): %v", key, q.Method, err)
		}
		answers[key] = a
	}
	return json.Marshal(answers)
}

// receive takes what the server sends outside a response: its requests,
// answered at once, and notifications.
func (c *Client) receive(msg []byte) error {
	var m response
	if err := json.Unmarshal(msg, &m); err != nil {
		c.t.Errorf("mcptest: the server sent a message that is not JSON: %s", msg)
		return nil
	}
	switch {
	case m.Method != "" && m.ID != nil:
		c.conn.Handle(c.ctx, c.reply(m.ID, m.Method, m.Params))
	case m.Method == "notifications/subscriptions/acknowledged":
		var p struct {
			Meta struct {
				ID json.RawMessage `json:"io.modelcontextprotocol/subscriptionId"`
			} `json:"_meta"`
		}
		_ = json.Unmarshal(m.Params, &p)
		c.mu.Lock()
		if ch, ok := c.acks[string(p.Meta.ID)]; ok {
			delete(c.acks, string(p.Meta.ID))
			close(ch)
		}
		c.mu.Unlock()
	case m.Method != "":
		c.mu.Lock()
		if !c.closed {
			c.notes = append(c.notes, Notification{Method: m.Method, Params: m.Params})
			close(c.changed)
			c.changed = make(chan struct{})
		}
		c.mu.Unlock()
	}
	return nil
}

// reply is the client's response to the server's request id.
func (c *Client) reply(id json.RawMessage, method string, params json.RawMessage) []byte {
	result, err := c.answer(method, params)
	dst := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	if err != nil {
		dst = append(dst, `,"error":{"code":-32603,"message":`...)
		return append(jsonx.AppendString(dst, err.Error()), `}}`...)
	}
	return append(append(append(dst, `,"result":`...), result...), '}')
}

// parseSampleRequest reads the params of sampling/createMessage.
func parseSampleRequest(params json.RawMessage) (mcprt.SampleRequest, error) {
	var p struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		MaxTokens        int             `json:"maxTokens"`
		SystemPrompt     string          `json:"systemPrompt"`
		ModelPreferences json.RawMessage `json:"modelPreferences"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return mcprt.SampleRequest{}, fmt.Errorf("malformed sampling/createMessage params: %v", err)
	}
	req := mcprt.SampleRequest{MaxTokens: p.MaxTokens, SystemPrompt: p.SystemPrompt, ModelPreferences: p.ModelPreferences}
	for _, m := range p.Messages {
		content, err := parseContent(m.Content)
		if err != nil {
			return mcprt.SampleRequest{}, err
		}
		req.Messages = append(req.Messages, mcprt.SampleMessage{Role: m.Role, Content: content})
	}
	return req, nil
}

// appendSampleResult writes a sampling result as the client sends it.
func (c *Client) appendSampleResult(r *mcprt.SampleResult) []byte {
	role := r.Role
	if role == "" {
		role = string(mcprt.RoleAssistant)
	}
	dst := jsonx.AppendString([]byte(`{"role":`), role)
	dst = wire.AppendContent(append(dst, `,"content":`...), &r.Content, c.rev)
	dst = jsonx.AppendString(append(dst, `,"model":`...), r.Model)
	if r.StopReason != "" {
		dst = jsonx.AppendString(append(dst, `,"stopReason":`...), r.StopReason)
	}
	return append(dst, '}')
}

// Notification is a notification the server sent the client.
type Notification struct {
	Method string          // "notifications/progress", ...
	Params json.RawMessage // as sent; nil when there were none
}

// Decode decodes the notification's params into v, as encoding/json does.
func (n Notification) Decode(v any) error {
	if n.Params == nil {
		return fmt.Errorf("mcptest: %s has no params", n.Method)
	}
	return json.Unmarshal(n.Params, v)
}

// Notifications returns the notifications received so far, in the order
// they came: progress, log messages, list changes, resource updates. The
// acknowledgements of the client's own 2026-07-28 subscriptions are not
// among them.
func (c *Client) Notifications() []Notification {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Notification(nil), c.notes...)
}

// Await waits for a notification of method that no earlier Await
// returned, and returns it. Nothing but the notification ends the wait
// while the test runs, so a notification that never comes is reported by
// go test's -timeout, with the goroutine waiting here.
func (c *Client) Await(method string) Notification {
	c.t.Helper()
	for {
		c.mu.Lock()
		seen := 0
		for _, n := range c.notes {
			if n.Method != method {
				continue
			}
			if seen == c.taken[method] {
				c.taken[method]++
				c.mu.Unlock()
				return n
			}
			seen++
		}
		changed, closed := c.changed, c.closed
		c.mu.Unlock()
		if closed {
			c.t.Fatalf("mcptest: awaiting %s after the test ended", method)
		}
		select {
		case <-changed:
		case <-c.t.Context().Done():
			c.t.Fatalf("mcptest: the test ended awaiting %s", method)
		}
	}
}

// Subscribe subscribes to the updates of the resource at uri: with
// resources/subscribe on the session revisions, with a
// subscriptions/listen on 2026-07-28. The updates arrive as
// notifications/resources/updated.
func (c *Client) Subscribe(uri string) {
	c.t.Helper()
	c.start()
	if c.rev.Stateless() {
		c.listen([]string{uri})
		return
	}
	params, _ := json.Marshal(map[string]string{"uri": uri})
	c.call("resources/subscribe "+strconv.Quote(uri), "resources/subscribe", params)
}
