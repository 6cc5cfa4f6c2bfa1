package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// subscriptions/listen is how a 2026-07-28 client receives the
// notifications that legacy sessions get outside any request: list
// changes and resource updates. A listen is a request that lasts: its
// answer is a stream that starts with an acknowledgement, then carries the
// notifications the client asked for, each tagged with the listen's id.

// The notifications a listen may carry.
const (
	toolsListChanged     = "notifications/tools/list_changed"
	promptsListChanged   = "notifications/prompts/list_changed"
	resourcesListChanged = "notifications/resources/list_changed"
	resourceUpdated      = "notifications/resources/updated"
)

// notices says which notifications the server sends. It is the one
// source of both the listChanged and subscribe capabilities published on
// every revision and of what a listen is promised, so the two cannot
// disagree.
type notices struct {
	tools, prompts, resources, updates bool
}

// notices returns what the server sends while c is published: each kind
// where its identity switch is on and, for prompts and resources, the
// capability it belongs to is published.
func (s *Server) notices(c *capabilities) notices {
	return notices{
		tools:     s.id.EnableToolNotifications,
		prompts:   c.prompts && s.id.EnablePromptNotifications,
		resources: c.resources && s.id.EnableResourceNotifications,
		updates:   c.resources && s.id.EnableResourceSubscriptions,
	}
}

// filter is a SubscriptionFilter: what a listen asks for and, cut by
// [filter.honored], what the server promises it, written in the
// acknowledgement with only what is on.
type filter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// honored returns the part of f the server sends under n; the rest is left
// out of the acknowledgement, as the specification asks.
func (f filter) honored(n notices) filter {
	h := filter{
		ToolsListChanged:     f.ToolsListChanged && n.tools,
		PromptsListChanged:   f.PromptsListChanged && n.prompts,
		ResourcesListChanged: f.ResourcesListChanged && n.resources,
	}
	if n.updates {
		h.ResourceSubscriptions = f.ResourceSubscriptions
	}
	return h
}

// listenFilter reads the params of subscriptions/listen, whose
// notifications member is required.
func listenFilter(params []byte) (filter, *rpcError) {
	var p struct {
		Notifications *filter `json:"notifications"`
	}
	if err := unmarshalParams(params, &p); err != nil {
		return filter{}, err
	}
	if p.Notifications == nil {
		return filter{}, errorf(codeInvalidParams, "invalid params: notifications is missing")
	}
	return *p.Notifications, nil
}

// note is a notification waiting to go out on a listen: a list change
// (method alone) or the update of uri.
type note struct {
	method, uri string
}

// listener is one open listen. Changes are queued on it by whoever makes
// them, without waiting; the listen's own request goroutine writes them
// out. A change already queued is not queued again, so a listener that
// cannot keep up holds at most one note per kind and URI, and is told of
// each pending change once, which is all a list_changed or an update
// says.
type listener struct {
	filter filter              // what it was promised
	uris   map[string]struct{} // filter.ResourceSubscriptions
	meta   []byte              // `{"_meta":{"…/subscriptionId":ID}`, unclosed: the start of its params
	wake   chan struct{}       // holds a token while notes are queued
	ended  chan struct{}       // closed when the server ends the subscription

	mu      sync.Mutex
	queue   []note
	queued  map[note]struct{}
	stopped bool // ended is closed
}

// newListener returns the listener of the listen with the JSON-RPC id
// (its subscription id, echoed as sent) promised f.
func newListener(id json.RawMessage, f filter) *listener {
	l := &listener{
		filter: f,
		wake:   make(chan struct{}, 1),
		ended:  make(chan struct{}),
		queued: make(map[note]struct{}),
	}
	if len(f.ResourceSubscriptions) > 0 {
		l.uris = make(map[string]struct{}, len(f.ResourceSubscriptions))
		for _, uri := range f.ResourceSubscriptions {
			l.uris[uri] = struct{}{}
		}
	}
	l.meta = append(append([]byte(`{"_meta":{"io.modelcontextprotocol/subscriptionId":`), id...), '}')
	return l
}

// wants reports whether the listener was promised n.
func (l *listener) wants(n note) bool {
	switch n.method {
	case toolsListChanged:
		return l.filter.ToolsListChanged
	case promptsListChanged:
		return l.filter.PromptsListChanged
	case resourcesListChanged:
		return l.filter.ResourcesListChanged
	case resourceUpdated:
		_, ok := l.uris[n.uri]
		return ok
	}
	return false
}

// post queues n, unless it is queued already, and wakes the writer. It
// never blocks on the writer.
func (l *listener) post(n note) {
	l.mu.Lock()
	if _, ok := l.queued[n]; !ok {
		l.queued[n] = struct{}{}
		l.queue = append(l.queue, n)
	}
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// take empties the queue and returns what was in it, in order.
func (l *listener) take() []note {
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.queue
	l.queue = nil
	clear(l.queued)
	return q
}

// end ends the subscription from the server's side.
func (l *listener) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.stopped {
		l.stopped = true
		close(l.ended)
	}
}

// ack is the acknowledgement, the first message of the subscription.
func (l *listener) ack() []byte {
	f, _ := json.Marshal(&l.filter) // cannot fail: bools and strings
	params := append(append([]byte(nil), l.meta...), `,"notifications":`...)
	params = append(append(params, f...), '}')
	return appendNotification(nil, "notifications/subscriptions/acknowledged", params)
}

// frame is the message of n on this subscription.
func (l *listener) frame(n note) []byte {
	params := append(make([]byte, 0, len(l.meta)+len(n.uri)+16), l.meta...)
	if n.method == resourceUpdated {
		params = jsonx.AppendString(append(params, `,"uri":`...), n.uri)
	}
	return appendNotification(nil, n.method, append(params, '}'))
}

// result is the answer of a subscription the server ends gracefully.
func (l *listener) result() []byte {
	res := append([]byte(`{"resultType":"complete",`), l.meta[1:]...)
	return append(res, '}')
}

// flush writes the queued notes to out, and returns the error of the
// first write that failed.
func (l *listener) flush(out sender) error {
	for _, n := range l.take() {
		if err := out.send(l.frame(n)); err != nil {
			return err
		}
	}
	return nil
}

// serve writes the notes queued on l to out until the client cancels the
// listen (ctx), its connection ends (done; nil for none), a write fails or
// the server ends the subscription; in that last case what is still queued
// goes out first.
func (l *listener) serve(ctx context.Context, done <-chan struct{}, out sender) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-done:
			return
		case <-l.ended:
			l.flush(out)
			return
		case <-l.wake:
			if ctx.Err() != nil || l.flush(out) != nil {
				return
			}
		}
	}
}

// listen serves subscriptions/listen: it acknowledges what it will send,
// then sends it until the subscription ends. Ended by the client, the
// request gets no answer that reaches anyone (over HTTP the client closed
// the response; on stdio notifications/cancelled suppresses it); ended by
// the server or by the end of a stdio connection, it is answered with a
// complete result carrying the subscription id.
func (s *Server) listen(ctx context.Context, x *exchange, params []byte) ([]byte, *rpcError) {
	f, rerr := listenFilter(params)
	if rerr != nil {
		return nil, rerr
	}
	l := newListener(x.id, f.honored(s.notices(s.caps.Load())))
	// Registered before the acknowledgement goes out, so no change made
	// after it is missed; the notes queued meanwhile are written after it.
	s.listens.add(l)
	defer s.listens.remove(l)
	if x.out.send(l.ack()) == nil {
		var done <-chan struct{}
		if x.sess != nil {
			done = x.sess.done
		}
		l.serve(ctx, done, x.out)
	}
	return l.result(), nil
}

// listeners is the registry of open listens. It has its own mutex, held
// only to add, remove or visit listeners (posting to one never blocks),
// so a change never waits for a client and the call path of requests never
// takes it.
type listeners struct {
	mu  sync.Mutex
	set map[*listener]struct{}
}

func (ls *listeners) add(l *listener) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.set == nil {
		ls.set = make(map[*listener]struct{})
	}
	ls.set[l] = struct{}{}
}

func (ls *listeners) remove(l *listener) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	delete(ls.set, l)
}

// post queues n on every listener promised it.
func (ls *listeners) post(n note) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for l := range ls.set {
		if l.wants(n) {
			l.post(n)
		}
	}
}

// endAll ends every open subscription from the server's side.
func (ls *listeners) endAll() {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for l := range ls.set {
		l.end()
	}
}
