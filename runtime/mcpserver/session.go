package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// sender writes one complete JSON-RPC message to the client.
type sender interface {
	send(msg []byte) error
}

// errClosed is returned by round trips to a client that has gone away.
var errClosed = errors.New("the client connection is closed")

// session is the state the legacy revisions keep between requests: the
// negotiated revision, the client's capabilities and log level, the
// resources it subscribed to, the requests in flight (for cancellation) and the server's own requests
// awaiting an answer. A stdio connection is one session; over HTTP, each
// Mcp-Session-Id names one. 2026-07-28 requests on stdio use the
// connection's session only for cancellation.
type session struct {
	srv *Server
	id  string // Mcp-Session-Id; empty on stdio
	// transport and started describe the session to interceptors.
	transport Transport
	started   time.Time
	// taskOwner names the session as the owner of its tasks.
	taskOwner string
	// owner is the token that initialized the session, nil without
	// authorization; only its principal may use the session.
	owner *mcprt.TokenInfo
	done  chan struct{}
	ctx   context.Context
	stop  context.CancelFunc

	mu      sync.Mutex
	rev     wire.Revision // empty before initialize
	caps    clientCaps
	level   mcprt.LogLevel      // empty: no log messages
	subs    map[string]struct{} // URIs of resources/subscribe
	elicits map[string]struct{} // ids of URL elicitations not yet complete
	// inflight holds the requests in flight by id (see requestKey): the
	// ids of up to seven bytes, as most are, in short, the others in long,
	// made on first use.
	inflight struct {
		short map[uint64]*inflight
		long  map[string]*inflight
	}
	pending map[int64]chan *message
	nextID  int64
	closed  bool
	told    bool       // its end was told to the OnSessionEnd functions
	stream  sender     // where messages outside a request go; nil: dropped
	get     *sseStream // the open GET stream, if any
	rawCaps []byte     // the client's capabilities as it sent them
	rawInfo []byte     // the client's clientInfo as it sent it
	touched time.Time  // when the session was last touched in Server.Sessions
	// nextStream numbers the session's POST streams in the event log.
	nextStream int64
	busy       int       // HTTP requests being served, GET streams included
	lastUsed   time.Time // when an HTTP request last ended or began
	// awaiting, when set, is called before a round trip waits for the
	// client's answer: on stdio the answer is read only if some goroutine
	// other than the waiting handler reads.
	awaiting func()
	// bound lists the HTTP requests whose context ends with the session
	// (see bind); watching says the session's end is watched for them,
	// and unbound that it has ended them.
	bound    *inflight
	watching bool
	unbound  bool
}

// enter and leave bracket an HTTP request of the session.
func (ss *session) enter(now time.Time) {
	ss.mu.Lock()
	ss.busy++
	ss.lastUsed = now
	ss.mu.Unlock()
}

func (ss *session) leave(now time.Time) {
	ss.mu.Lock()
	ss.busy--
	ss.lastUsed = now
	ss.mu.Unlock()
}

// idleAt reports whether the session serves nothing at now and has
// served nothing for longer than timeout.
func (ss *session) idleAt(now time.Time, timeout time.Duration) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.busy == 0 && now.Sub(ss.lastUsed) > timeout
}

// requestKey keys a request in flight by its id's JSON text: an id of up
// to seven bytes is packed with its length into short, without a copy of
// its own; a longer one is long.
type requestKey struct {
	short uint64
	long  string
}

func keyOf(id []byte) requestKey {
	if len(id) > 7 {
		return requestKey{long: string(id)}
	}
	k := uint64(len(id)) << 56
	for i, c := range id {
		k |= uint64(c) << (8 * i)
	}
	return requestKey{short: k}
}

// lookup returns the request in flight with key k; ss.mu is held.
func (ss *session) lookup(k requestKey) *inflight {
	if k.long != "" {
		return ss.inflight.long[k.long]
	}
	return ss.inflight.short[k.short]
}

// enterInflight and leaveInflight add and remove f; ss.mu is held.
func (ss *session) enterInflight(f *inflight) {
	if f.key.long == "" {
		ss.inflight.short[f.key.short] = f
		return
	}
	if ss.inflight.long == nil {
		ss.inflight.long = make(map[string]*inflight)
	}
	ss.inflight.long[f.key.long] = f
}

func (ss *session) leaveInflight(f *inflight) {
	if ss.lookup(f.key) != f {
		return
	}
	if f.key.long == "" {
		delete(ss.inflight.short, f.key.short)
	} else {
		delete(ss.inflight.long, f.key.long)
	}
}

// inflight is a request being handled.
type inflight struct {
	ss  *session
	key requestKey
	// ctx is the request's context, made when it is first needed.
	ctx       lazyCancel
	cancelled bool
	// owned says the context is the HTTP request's own, which its
	// handler ends (see bind): finish leaves it to that.
	owned bool
	// prev and next link the requests bound to the session.
	prev, next *inflight
	// caller is where a tool call's Caller is kept, in the same
	// allocation (see Server.callerContext).
	caller exchangeCore
}

func newSession(parent context.Context, srv *Server, id string, transport Transport, stream sender) *session {
	ctx, stop := context.WithCancel(parent)
	ss := &session{
		srv: srv, id: id, ctx: ctx, stop: stop, stream: stream, taskOwner: rand.Text(),
		transport: transport, started: srv.clock(),
		done:    make(chan struct{}),
		pending: make(map[int64]chan *message),
	}
	ss.inflight.short = make(map[uint64]*inflight)
	return ss
}

func (ss *session) revision() wire.Revision {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.rev
}

func (ss *session) logLevel() mcprt.LogLevel {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.level
}

// notify sends msg on the session's stream, if it has one.
func (ss *session) notify(msg []byte) {
	ss.mu.Lock()
	out := ss.stream
	ss.mu.Unlock()
	if out != nil {
		if err := out.send(msg); err != nil {
			ss.srv.logger().Debug("mcp notification dropped", "err", err)
		}
	}
}

// ending reports whether the session's end is yet to be told, and from
// now on it is not.
func (ss *session) ending() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	first := !ss.told
	ss.told = true
	return first
}

// close fails the round trips that await an answer and refuses new ones.
// Handlers still running finish; their own context is not cancelled.
func (ss *session) close() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if !ss.closed {
		ss.closed = true
		close(ss.done)
	}
}

// start registers a request in flight and returns its context. The
// request's finish reports whether the client cancelled it (then no
// response is sent) and releases it.
//
// own, when not nil, is the request's own context, bound to the session
// by bind, which ctx derives from: its cancel is the request's, and no
// context is made.
func (ss *session) start(ctx context.Context, id json.RawMessage, own *inflight) (context.Context, *inflight) {
	f := own
	if f == nil {
		f = &inflight{ss: ss}
		f.ctx.parent = ctx
		ctx = &f.ctx
	}
	f.key = keyOf(id)
	ss.mu.Lock()
	ss.enterInflight(f)
	ss.mu.Unlock()
	return ctx, f
}

// finish releases the request and reports whether it was cancelled. The
// context ends now, unless it is the HTTP request's own.
func (f *inflight) finish() bool {
	ss := f.ss
	ss.mu.Lock()
	ss.leaveInflight(f)
	c := f.cancelled
	ss.mu.Unlock()
	if !f.owned {
		f.ctx.stop()
	}
	return c
}

// bind makes a context of its own for an HTTP request of the session,
// derived from parent, that ends with the request or the session, with
// the record f, which unbindOne ends. One watch of the session's end
// serves all its requests, where a watch each would cost a request
// three allocations.
func (ss *session) bind(parent context.Context, f *inflight) context.Context {
	f.ss, f.owned, f.ctx.parent = ss, true, parent // f.ctx.detached is the caller's
	ss.mu.Lock()
	ended := ss.unbound
	if !ended {
		f.next = ss.bound
		if f.next != nil {
			f.next.prev = f
		}
		ss.bound = f
		if !ss.watching {
			ss.watching = true
			context.AfterFunc(ss.ctx, ss.unbind)
		}
	}
	ss.mu.Unlock()
	if ended {
		f.ctx.stop()
	}
	return &f.ctx
}

// unbindOne ends the bound request f and forgets it.
func (ss *session) unbindOne(f *inflight) {
	ss.mu.Lock()
	if f.prev != nil {
		f.prev.next = f.next
	} else if ss.bound == f {
		ss.bound = f.next
	}
	if f.next != nil {
		f.next.prev = f.prev
	}
	f.prev, f.next = nil, nil
	ss.mu.Unlock()
	f.ctx.stop()
}

// unbind ends the bound requests, the session having ended, and any
// bound later.
func (ss *session) unbind() {
	var bound []*inflight
	ss.mu.Lock()
	ss.unbound = true
	for f := ss.bound; f != nil; f = f.next {
		bound = append(bound, f)
	}
	ss.bound = nil
	ss.mu.Unlock()
	for _, f := range bound {
		f.ctx.stop()
	}
}

// cancel cancels the request in flight with id, if any.
func (ss *session) cancel(id json.RawMessage) {
	ss.mu.Lock()
	f := ss.lookup(keyOf(id))
	if f != nil {
		f.cancelled = true
	}
	ss.mu.Unlock()
	if f != nil {
		f.ctx.stop()
	}
}

// expect reserves an id for a request to the client and the channel its
// answer will arrive on.
func (ss *session) expect() (int64, chan *message, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return 0, nil, errClosed
	}
	ss.nextID++
	ch := make(chan *message, 1)
	ss.pending[ss.nextID] = ch
	if ss.awaiting != nil {
		ss.awaiting()
	}
	return ss.nextID, ch, nil
}

func (ss *session) forget(id int64) {
	ss.mu.Lock()
	delete(ss.pending, id)
	ss.mu.Unlock()
}

// requestID is the JSON id of the session's request n to the client: n
// itself, or, where sessions are shared by replicas, a string naming this
// replica too, so that an answer reaching another replica finds its way
// back here.
func (ss *session) requestID(n int64) []byte {
	if ss.srv.Sessions == nil || ss.id == "" {
		return strconv.AppendInt(nil, n, 10)
	}
	return jsonx.AppendString(nil, ss.srv.replicaID()+"."+strconv.FormatInt(n, 10))
}

// deliver hands a client's response to the round trip awaiting it; one
// to a request of another replica goes to it on the bus. Responses to no
// pending request are dropped.
func (ss *session) deliver(m *message) {
	raw := string(m.id)
	if s, ok := stringValue(m.id); ok && ss.srv.Sessions != nil {
		replica, n, _ := strings.Cut(s, ".")
		if replica != ss.srv.replicaID() {
			ss.srv.publish(context.Background(), mcpstore.BusEvent{Kind: mcpstore.BusReply, Target: replica, Session: ss.id, Data: appendReply(m)})
			return
		}
		raw = n
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		ss.srv.logger().Debug("mcp response with an unknown id dropped", "id", string(m.id))
		return
	}
	ss.mu.Lock()
	ch := ss.pending[id]
	delete(ss.pending, id)
	ss.mu.Unlock()
	if ch != nil {
		answer := *m // m may live on the stack of the goroutine reading it
		ch <- &answer
	}
}

// lineWriter writes newline-delimited messages, each whole and in the
// order sent. A message sent while another sender writes is queued, and
// that sender writes the queue too, all of it in one call: answers that
// come while the client is slow to read leave in one system call, and no
// sender waits for another's write.
//
// A queued message is reported sent; if its write fails, the error is
// returned by every later send and by failed.
type lineWriter struct {
	mu      sync.Mutex
	w       interface{ Write([]byte) (int, error) }
	queue   []byte // messages to write, each with its newline
	spare   []byte // the buffer last written, reused for the queue
	writing bool   // a sender is writing the queue
	err     error
}

// maxSpare is the largest buffer a lineWriter keeps for reuse.
const maxSpare = 64 << 10

func (lw *lineWriter) send(msg []byte) error {
	lw.mu.Lock()
	if lw.err == nil {
		lw.queue = append(append(lw.queue, msg...), '\n')
	}
	if lw.err == nil && !lw.writing {
		lw.writing = true
		lw.writeQueue()
		lw.writing = false
	}
	err := lw.err
	lw.mu.Unlock()
	return err
}

// writeQueue writes the queue until it is empty or a write fails. It is
// called with lw.mu held, and releases it while it writes, so that other
// senders queue their messages meanwhile. (No defer: were Write to panic,
// the mutex would be unlocked twice.)
func (lw *lineWriter) writeQueue() {
	for len(lw.queue) > 0 && lw.err == nil {
		buf := lw.queue
		lw.queue = lw.spare[:0]
		lw.mu.Unlock()
		_, err := lw.w.Write(buf)
		lw.mu.Lock()
		lw.err = err
		lw.spare = nil
		if cap(buf) <= maxSpare {
			lw.spare = buf[:0]
		}
	}
}

// failed returns the error of the first write that failed, if any.
func (lw *lineWriter) failed() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.err
}
