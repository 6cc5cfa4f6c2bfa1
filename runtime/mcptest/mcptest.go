package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// DefaultRevision is the protocol revision a [Client] speaks without
// [Revision]: the newest revision with sessions.
const DefaultRevision = "2025-11-25"

// Option configures the server and the client [New] makes.
type Option func(*config)

type config struct {
	tools     []mcprt.Tool
	prompts   []mcprt.Prompt
	resources []mcprt.Resource
	skills    []mcprt.Skill
	id        *mcprt.Identity
	rev       string
	groups    []mcprt.Group
	search    *mcpserver.ToolSearch
}

// Tools adds tools to the server, as generated MCPTools functions return
// them.
func Tools(tools ...mcprt.Tool) Option {
	return func(c *config) { c.tools = append(c.tools, tools...) }
}

// Prompts adds prompts to the server.
func Prompts(prompts ...mcprt.Prompt) Option {
	return func(c *config) { c.prompts = append(c.prompts, prompts...) }
}

// Resources adds resources and resource templates to the server.
func Resources(resources ...mcprt.Resource) Option {
	return func(c *config) { c.resources = append(c.resources, resources...) }
}

// Identity makes the server describe itself with id, as a program's
// server does. Without it the server enables every optional feature but
// tasks (see the package documentation).
func Identity(id mcprt.Identity) Option {
	return func(c *config) { c.id = &id }
}

// Revision makes the client speak the protocol revision rev ("2025-06-18")
// instead of [DefaultRevision].
func Revision(rev string) Option {
	return func(c *config) { c.rev = rev }
}

// Revisions returns every revision the server speaks, newest first, for
// tests that run once per revision.
func Revisions() []string {
	revs := make([]string, len(wire.Revisions))
	for i, r := range wire.Revisions {
		revs[i] = string(r)
	}
	return revs
}

// Client is a client connected to a server running in the test's process.
// Its methods fail the test when a protocol step fails; they may be called
// from several goroutines.
type Client struct {
	t    testing.TB
	srv  *mcpserver.Server
	conn *mcpserver.Conn
	rev  wire.Revision
	id   mcprt.Identity
	ctx  context.Context
	stop context.CancelFunc
	log  *testLog

	nextID  atomicID
	startMu sync.Mutex
	started bool

	mu       sync.Mutex
	onElicit func(ctx context.Context, message string, requestedSchema []byte) (mcprt.ElicitResult, error)
	onSample func(ctx context.Context, req mcprt.SampleRequest) (mcprt.SampleResult, error)
	onRoots  func(ctx context.Context) ([]mcprt.Root, error)
	caps     map[string]bool // the capabilities declared so far
	notes    []Notification
	taken    map[string]int           // per method, how many Await returned
	changed  chan struct{}            // closed and replaced when a notification comes
	acks     map[string]chan struct{} // listens awaiting their acknowledgement, by id
	closed   bool
	wg       sync.WaitGroup // the listens' requests
}

// New starts a server with what opts name, connects a client to it and
// closes both when the test ends. The session starts with the first
// request.
func New(t testing.TB, opts ...Option) *Client {
	t.Helper()
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	id := mcprt.Identity{
		Name: "mcptest", Version: "0",
		EnableLogging: true, EnableCompletions: true, EnableElicitation: true, EnableSampling: true,
		EnableToolNotifications: true, EnablePromptNotifications: true,
		EnableResourceNotifications: true, EnableResourceSubscriptions: true,
	}
	if cfg.id != nil {
		id = *cfg.id
	}
	rev := wire.Revision(DefaultRevision)
	if cfg.rev != "" {
		rev = wire.Revision(cfg.rev)
	}
	if !rev.Supported() {
		t.Fatalf("mcptest: revision %q is not one the server speaks: %s", cfg.rev, strings.Join(Revisions(), ", "))
	}
	srv := mcpserver.New(id, cfg.tools...)
	tl := &testLog{t: t}
	srv.Logger = slog.New(slog.NewTextHandler(tl, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if len(cfg.prompts) > 0 {
		srv.AddPrompts(cfg.prompts...)
	}
	if len(cfg.resources) > 0 {
		srv.AddResources(cfg.resources...)
	}
	if len(cfg.skills) > 0 {
		if err := srv.AddSkills(cfg.skills...); err != nil {
			t.Fatalf("mcptest: %v", err)
		}
	}
	srv.Groups, srv.ToolSearch = cfg.groups, cfg.search
	ctx, stop := context.WithCancel(context.Background())
	c := &Client{
		t: t, srv: srv, rev: rev, id: id, ctx: ctx, stop: stop, log: tl,
		caps: map[string]bool{}, taken: map[string]int{}, changed: make(chan struct{}),
		acks: map[string]chan struct{}{},
	}
	c.conn = srv.Connect(ctx, c.receive)
	t.Cleanup(c.close)
	return c
}

// Server returns the server the client talks to, so that a test can
// change what it serves (Add, RemoveTools, ResourceUpdated, ...). A change
// made before the first request is not notified: no session listens yet.
func (c *Client) Server() *mcpserver.Server { return c.srv }

// Revision returns the protocol revision the client speaks.
func (c *Client) Revision() string { return string(c.rev) }

// close ends the connection when the test ends: the listens are
// answered, then the server's log is cut off from the test.
func (c *Client) close() {
	c.mu.Lock()
	c.closed = true
	close(c.changed)
	c.mu.Unlock()
	c.conn.Close()
	c.wg.Wait()
	c.stop()
	c.log.end()
}

// testLog writes the server's log lines to the test's log while it runs.
type testLog struct {
	mu    sync.Mutex
	t     testing.TB
	ended bool
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.ended {
		l.t.Logf("mcpserver: %s", strings.TrimSuffix(string(p), "\n"))
	}
	return len(p), nil
}

func (l *testLog) end() {
	l.mu.Lock()
	l.ended = true
	l.mu.Unlock()
}

// atomicID hands out the ids of the client's requests.
type atomicID struct {
	mu sync.Mutex
	n  int64
}

func (a *atomicID) next() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	return a.n
}

// Error is a JSON-RPC error the server answered a request with.
type Error struct {
	Code    int
	Message string
	Data    json.RawMessage // nil when the server sent none
}

func (e *Error) Error() string {
	s := "JSON-RPC error " + strconv.Itoa(e.Code) + ": " + e.Message
	if len(e.Data) > 0 {
		s += " (data " + string(e.Data) + ")"
	}
	return s
}

// response is a JSON-RPC message as the client reads it.
type response struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// maxRounds bounds the input-required rounds of one 2026-07-28 request:
// a handler that asks more questions, one after the other, than any test
// needs most likely asks a new one on every run.
const maxRounds = 64

// Request sends a request of method with params (a map, a struct or raw
// JSON; nil for none) and returns its result, or the *Error the server
// answered. The client adds what the revision needs (the _meta of
// 2026-07-28, a progress token) and answers input-required results, as
// every method of the client does. Only params that do not encode, or a
// session that does not start, fail the test.
func (c *Client) Request(method string, params any) (json.RawMessage, error) {
	c.t.Helper()
	raw := c.encode("params", params)
	c.start()
	res, err := c.request(method, raw)
	if _, ok := err.(*Error); err != nil && !ok {
		err = fmt.Errorf("mcptest: %s: %w", method, err)
	}
	return res, err
}

// call is Request for the client's own methods: an error fails the test,
// saying what was asked.
func (c *Client) call(what, method string, params json.RawMessage) json.RawMessage {
	c.t.Helper()
	c.start()
	return c.do(what, method, params)
}

// do is call without starting the session, for the steps that start it.
func (c *Client) do(what, method string, params json.RawMessage) json.RawMessage {
	c.t.Helper()
	res, err := c.request(method, params)
	if err != nil {
		c.t.Fatalf("mcptest: %s: %v", what, err)
	}
	return res
}

// request sends one request and, on 2026-07-28, the retries that answer
// its questions. Errors other than an *Error name no method: callers say
// what was asked.
func (c *Client) request(method string, params json.RawMessage) (json.RawMessage, error) {
	fields, err := objectFields(params)
	if err != nil {
		return nil, fmt.Errorf("params: %v", err)
	}
	for round := 0; ; round++ {
		id := c.nextID.next()
		msg := c.message(id, method, fields)
		var r response
		if err := json.Unmarshal(c.conn.Handle(c.ctx, msg), &r); err != nil {
			return nil, fmt.Errorf("the server's answer is not JSON-RPC: %v", err)
		}
		if r.Error != nil {
			return nil, &Error{Code: r.Error.Code, Message: r.Error.Message, Data: r.Error.Data}
		}
		var kind struct {
			ResultType    string                     `json:"resultType"`
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  json.RawMessage            `json:"requestState"`
		}
		if err := json.Unmarshal(r.Result, &kind); err != nil || kind.ResultType != "input_required" {
			return r.Result, nil
		}
		if round == maxRounds {
			return nil, fmt.Errorf("the server still asked for input after %d rounds", maxRounds)
		}
		answers, err := c.answerAll(kind.InputRequests)
		if err != nil {
			return nil, err
		}
		fields["inputResponses"] = answers
		if kind.RequestState != nil {
			fields["requestState"] = kind.RequestState
		} else {
			delete(fields, "requestState")
		}
	}
}

// message writes a request with params fields, adding the _meta the
// revision needs.
func (c *Client) message(id int64, method string, fields map[string]json.RawMessage) []byte {
	meta := map[string]any{}
	if old, ok := fields["_meta"]; ok {
		_ = json.Unmarshal(old, &meta) // checked to be an object by objectFields' caller
	}
	if method == "tools/call" || method == "prompts/get" || method == "resources/read" {
		if _, ok := meta["progressToken"]; !ok {
			meta["progressToken"] = "mcptest-" + strconv.FormatInt(id, 10)
		}
	}
	if c.rev.Stateless() {
		meta["io.modelcontextprotocol/protocolVersion"] = string(c.rev)
		meta["io.modelcontextprotocol/clientCapabilities"] = c.capabilities()
		meta["io.modelcontextprotocol/clientInfo"] = clientInfo
		if c.id.EnableLogging {
			meta["io.modelcontextprotocol/logLevel"] = "debug"
		}
	}
	p := make(map[string]json.RawMessage, len(fields)+1)
	for k, v := range fields {
		p[k] = v
	}
	if len(meta) > 0 {
		p["_meta"], _ = json.Marshal(meta) // strings, maps and raw JSON: cannot fail
	}
	msg, _ := json.Marshal(struct {
		JSONRPC string                     `json:"jsonrpc"`
		ID      int64                      `json:"id"`
		Method  string                     `json:"method"`
		Params  map[string]json.RawMessage `json:"params"`
	}{"2.0", id, method, p})
	return msg
}

var clientInfo = map[string]string{"name": "mcptest", "version": "0"}

// capabilities returns the client capabilities the handlers set declare.
func (c *Client) capabilities() map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	caps := map[string]any{}
	for k := range c.caps {
		caps[k] = map[string]any{}
	}
	return caps
}

// start begins the session with the first request: initialize and the
// log level on the session revisions, a subscriptions/listen for the
// list changes on 2026-07-28.
func (c *Client) start() {
	c.t.Helper()
	c.startMu.Lock()
	defer c.startMu.Unlock()
	if c.started {
		return
	}
	c.started = true
	if c.rev.Stateless() {
		c.listen(nil)
		return
	}
	params, _ := json.Marshal(map[string]any{
		"protocolVersion": string(c.rev),
		"capabilities":    c.capabilities(),
		"clientInfo":      clientInfo,
	})
	res := c.do("initialize", "initialize", params)
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(res, &init); err != nil || init.ProtocolVersion != string(c.rev) {
		c.t.Fatalf("mcptest: initialize answered revision %q, not %s: %s", init.ProtocolVersion, c.rev, res)
	}
	c.conn.Handle(c.ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if c.id.EnableLogging {
		c.do("logging/setLevel debug", "logging/setLevel", json.RawMessage(`{"level":"debug"}`))
	}
}

// listen opens a 2026-07-28 subscriptions/listen for the list changes
// (uris nil) or for the updates of uris, and waits for its
// acknowledgement. The request lasts until the test ends.
func (c *Client) listen(uris []string) {
	c.t.Helper()
	f := map[string]any{"toolsListChanged": true, "promptsListChanged": true, "resourcesListChanged": true}
	if uris != nil {
		f = map[string]any{"resourceSubscriptions": uris}
	}
	params, _ := json.Marshal(map[string]any{"notifications": f})
	fields, _ := objectFields(params)
	n := c.nextID.next()
	id := json.RawMessage(strconv.FormatInt(n, 10))
	acked := make(chan struct{})
	c.mu.Lock()
	c.acks[string(id)] = acked
	c.mu.Unlock()
	msg := c.message(n, "subscriptions/listen", fields)
	answer := make(chan []byte, 1)
	c.wg.Go(func() { answer <- c.conn.Handle(c.ctx, msg) })
	select {
	case <-acked:
	case resp := <-answer:
		c.t.Fatalf("mcptest: subscriptions/listen ended before it was acknowledged: %s", resp)
	}
}

// encode turns v into the JSON of a request's params or arguments: raw
// JSON as it is, nil as nothing, anything else as encoding/json writes it.
func (c *Client) encode(what string, v any) json.RawMessage {
	c.t.Helper()
	var raw []byte
	switch v := v.(type) {
	case nil:
		return nil
	case json.RawMessage:
		raw = v
	case []byte:
		raw = v
	default:
		js, err := json.Marshal(v)
		if err != nil {
			c.t.Fatalf("mcptest: encoding the %s: %v", what, err)
		}
		return js
	}
	if !json.Valid(raw) {
		c.t.Fatalf("mcptest: the %s are not valid JSON: %s", what, raw)
	}
	return raw
}

// objectFields splits a JSON object into its members; nil or null is
// the empty object.
func objectFields(raw json.RawMessage) (map[string]json.RawMessage, error) {
	fields := map[string]json.RawMessage{}
	if len(raw) == 0 || string(raw) == "null" {
		return fields, nil
	}
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("not a JSON object: %s", raw)
	}
	if m, ok := fields["_meta"]; ok {
		var obj map[string]json.RawMessage
		if json.Unmarshal(m, &obj) != nil {
			return nil, fmt.Errorf("_meta is not a JSON object: %s", m)
		}
	}
	return fields, nil
}
