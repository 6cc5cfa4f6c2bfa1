package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// ServeStdio serves one client over the process's standard input and
// output, as [Server.ServeStream] does.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.ServeStream(ctx, os.Stdin, os.Stdout)
}

// ServeStream serves one client over a stream of newline-delimited
// JSON-RPC messages: it reads r and writes only JSON-RPC messages to w,
// one per line. Requests run concurrently; messages to w are written
// whole, one at a time. A request that arrives while nothing else runs
// and no further input is waiting is answered by the goroutine that read
// it, which saves the hand-offs between goroutines that otherwise make up
// most of a round trip; should it run long, or wait for the client,
// another goroutine goes on reading, so later requests, their
// cancellation and the client's answers are never held up for long.
//
// It returns nil when r ends or ctx is cancelled, after the running
// handlers have finished (on cancellation their contexts are cancelled
// too) and the open subscriptions/listen requests have been answered, or
// the error of reading r or writing w. A read blocked in r is
// left behind when ctx is cancelled; the goroutine doing it ends with the
// next line or the end of r.
func (s *Server) ServeStream(ctx context.Context, r io.Reader, w io.Writer) error {
	s.bus() // what other replicas send this one comes from the start
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := newStream(ctx, s, r, w)
	s.track(c.sess)
	defer s.untrack(c.sess)
	go c.read()
	var err error
	select {
	case <-ctx.Done():
	case err = <-c.ended:
	}
	c.shut()
	s.sessionEnded(c.sess, "closed")
	if err == nil {
		err = c.out.failed()
	}
	return err
}

// inlineBudget is how long a request answered on the reading goroutine
// may keep the input unread before another goroutine takes over reading.
const inlineBudget = 200 * time.Microsecond

// stream is one client of ServeStream. One goroutine at a time reads its
// input: first the one ServeStream starts, then, each time a request
// answered on the reading goroutine outlasts inlineBudget or waits for the
// client, a new one.
type stream struct {
	srv   *Server
	ctx   context.Context
	sess  *session
	out   *lineWriter
	br    *bufio.Reader
	ended chan error // the end of the input: nil at EOF

	// inline is the state of the request answered on the reading
	// goroutine: inlineNone, inlineRunning, or inlineMoved once another
	// goroutine reads. takeOver moves the reading.
	inline atomic.Int32
	timer  *time.Timer

	// jobs hands requests to idle workers; idle counts them (see spawn).
	jobs chan stdioJob
	idle atomic.Int32

	mu      sync.Mutex
	running int  // requests being handled
	closed  bool // no new request is handled
	wg      sync.WaitGroup
}

// The states of stream.inline.
const (
	inlineNone = iota
	inlineRunning
	inlineMoved
)

func newStream(ctx context.Context, s *Server, r io.Reader, w io.Writer) *stream {
	c := &stream{srv: s, ctx: ctx, out: &lineWriter{w: w}, br: bufio.NewReaderSize(r, 64<<10), ended: make(chan error, 1), jobs: make(chan stdioJob)}
	c.sess = newSession(ctx, s, "", TransportStdio, c.out)
	c.sess.awaiting = c.takeOver
	c.timer = time.AfterFunc(time.Hour, c.takeOver)
	c.timer.Stop()
	return c
}

// read reads and handles lines until the input ends, or until reading
// moves to another goroutine.
func (c *stream) read() {
	for {
		line, err := c.br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 && !c.handleLine(line) {
			return
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			c.ended <- err
			return
		}
	}
}

// handleLine handles one line, a message or a batch, and reports whether
// the calling goroutine goes on reading. Requests run on workers, or on
// this goroutine when nothing else is to be done (see request);
// initialize is answered before the next line is read, so that the
// requests following it see the session initialized.
func (c *stream) handleLine(line []byte) bool {
	others, ok := c.begin()
	if !ok {
		return false
	}
	items, isBatch, perr := splitBatch(line)
	if perr != nil {
		c.out.send(appendError(nil, nil, perr))
		c.end()
		return true
	}
	if isBatch {
		c.spawn(stdioJob{batch: items, isBatch: true})
		return true
	}
	var m message // on the stack unless the request goes to a worker
	id, rerr := parseInto(line, &m)
	switch {
	case rerr != nil:
		c.out.send(appendError(nil, id, rerr))
	case m.isRequest() && m.method != "initialize":
		return c.request(&m, others)
	default:
		c.srv.reply(c.out, c.srv.handle(c.ctx, c.sess, &m, c.out))
	}
	c.end()
	return true
}

// request handles a request, begun while others were being handled, and
// reports whether the calling goroutine goes on reading. When no other
// request runs and no more input is buffered, the request is answered
// here: the client most likely waits for this answer before it sends
// anything else. The timer, or a round trip to the client, moves the
// reading elsewhere meanwhile.
func (c *stream) request(m *message, others int) bool {
	if others > 0 || c.br.Buffered() > 0 {
		job := stdioJob{m: new(message)}
		*job.m = *m
		c.spawn(job)
		return true
	}
	c.inline.Store(inlineRunning)
	c.timer.Reset(inlineBudget)
	c.answer(m)
	c.timer.Stop()
	reading := c.inline.CompareAndSwap(inlineRunning, inlineNone)
	c.end()
	return reading
}

// takeOver starts a goroutine that goes on reading, if the request
// answered on the reading goroutine still runs.
func (c *stream) takeOver() {
	if c.inline.CompareAndSwap(inlineRunning, inlineMoved) {
		go c.read()
	}
}

// maxIdleWorkers is how many workers of a stream may wait for requests.
const maxIdleWorkers = 128

// spawn answers a begun request concurrently, on an idle worker if one
// waits, else on a new one. Workers are kept because a handler's stack is
// deep: a new goroutine for each request spends more time growing its
// stack than the reference tool spends decoding its arguments.
func (c *stream) spawn(job stdioJob) {
	select {
	case c.jobs <- job:
	default:
		go c.work(job)
	}
}

// stdioJob is a begun request, or a batch, for a worker to answer. It is
// passed by value: a closure each would cost a request two allocations.
type stdioJob struct {
	m       *message
	batch   []json.RawMessage
	isBatch bool
}

// run answers job and ends it.
func (c *stream) run(job stdioJob) {
	defer c.end()
	if job.isBatch {
		c.srv.reply(c.out, c.srv.handleBatch(c.ctx, c.sess, job.batch, c.out))
		return
	}
	c.answer(job.m)
}

// answer handles the request m and writes its response, made in a pooled
// buffer: the writer copies it.
func (c *stream) answer(m *message) {
	buf := getBuffer()
	resp := c.srv.handleIn(c.ctx, nil, c.sess, m, c.out, (*buf)[:0])
	c.srv.reply(c.out, resp)
	putResponse(buf, resp)
}

// work runs job, then the jobs spawn hands it, until the stream ends or
// enough other workers are idle.
func (c *stream) work(job stdioJob) {
	for {
		c.run(job)
		if c.idle.Add(1) > maxIdleWorkers {
			c.idle.Add(-1)
			return
		}
		select {
		case job = <-c.jobs:
			c.idle.Add(-1)
		case <-c.ctx.Done():
			c.idle.Add(-1)
			return
		}
	}
}

// begin counts a message being handled, unless the stream is shut; it
// returns how many others are being handled.
func (c *stream) begin() (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, false
	}
	c.running++
	c.wg.Add(1)
	return c.running - 1, true
}

func (c *stream) end() {
	c.mu.Lock()
	c.running--
	c.mu.Unlock()
	c.wg.Done()
}

// shut refuses new messages, fails the round trips awaiting the client
// and waits for the running handlers.
func (c *stream) shut() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.sess.close()
	c.wg.Wait()
}

// reply writes a response, if there is one.
func (s *Server) reply(out sender, resp []byte) {
	if resp == nil {
		return
	}
	if err := out.send(resp); err != nil {
		s.logger().Error("mcp: writing a response failed", "err", err)
	}
}
