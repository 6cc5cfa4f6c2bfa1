package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/internal/wire"
)

// resumable reports whether rev is one of the revisions whose SSE events
// carry ids and whose streams resume with Last-Event-ID (2025-03-26 to
// 2025-11-25).
func resumable(rev wire.Revision) bool {
	return rev != "" && rev != wire.Rev20241105 && !rev.Stateless()
}

// newPostStream returns the answer to a POST of sess, resumable on the
// revisions that have it.
//
// The stream is numbered now, but its log is made only when the answer
// turns to SSE: most answers are plain JSON and need none.
func (s *Server) newPostStream(w http.ResponseWriter, sess *session) *postStream {
	st := new(postStream)
	s.initPostStream(st, w, sess)
	return st
}

// initPostStream makes st, which is new, what newPostStream returns.
func (s *Server) initPostStream(st *postStream, w http.ResponseWriter, sess *session) {
	st.w = w
	sess.mu.Lock()
	rev := sess.rev
	if resumable(rev) {
		sess.nextStream++
		st.logAs = logAs{srv: s, sess: sess, n: sess.nextStream}
		st.prime = rev == wire.Rev20251125
	}
	sess.mu.Unlock()
}

// logAs is the stream in the event log a resumable POST's answer takes
// once it turns to SSE: the n-th of sess.
type logAs struct {
	srv  *Server
	sess *session
	n    int64 // 0: the answer is not resumable
}

// postStream answers one POST. Messages sent while the request runs switch
// the answer to an SSE stream; without any, the response is plain JSON.
type postStream struct {
	mu   sync.Mutex
	w    http.ResponseWriter
	sse  bool
	done bool
	// log, on the resumable revisions, keeps the events of the stream, so
	// that a client whose connection dropped resumes it; prime sends the
	// priming event of 2025-11-25 first.
	log   *eventStream
	logAs logAs
	prime bool
	gone  bool // the client's connection failed a write
	// id is the request the stream answers, or batch the batch's items,
	// for the will of its hold; hold keeps the stream from waiting forever
	// for an answer should this replica die.
	id    json.RawMessage
	batch []json.RawMessage
	hold  *streamHold
}

var errRequestDone = errors.New("the request has been answered")

func (p *postStream) send(msg []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return errRequestDone
	}
	p.openLocked()
	return p.writeLocked(msg)
}

// openLocked switches the answer to SSE, once; p.mu is held.
func (p *postStream) openLocked() {
	if p.sse {
		return
	}
	p.sse = true
	h := p.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	p.w.WriteHeader(http.StatusOK)
	if p.logAs.n == 0 {
		return
	}
	p.log = &eventStream{srv: p.logAs.srv, sess: p.logAs.sess, name: "p" + strconv.FormatInt(p.logAs.n, 10)}
	p.hold = p.log.hold(p.will)
	if !p.prime {
		return
	}
	id, err := p.log.append(nil)
	p.hold.wait()
	if err == nil {
		p.gone = writePriming(p.w, id) != nil
	}
}

// writeLocked writes msg as an event, first logged where the stream is
// resumable; p.mu is held. A logged event is sent as far as the handler
// is concerned, whether or not the client is still connected.
func (p *postStream) writeLocked(msg []byte) error {
	if p.log == nil {
		return writeEvent(p.w, msg)
	}
	id, err := p.log.append(msg)
	p.hold.wait()
	if err != nil {
		if p.gone {
			return err
		}
		return writeEvent(p.w, msg)
	}
	if !p.gone && writeEventID(p.w, id, msg) != nil {
		p.gone = true
	}
	return nil
}

// finish writes the response (nil: none, for a cancelled request) with
// status, unless messages already switched the answer to SSE, and closes
// the answer to further messages. It reports whether resp may still be
// referred to: an event of a stream may be kept in its log.
func (p *postStream) finish(resp []byte, status int) (kept bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	if p.sse && p.log != nil {
		defer p.log.end(p.hold)
	}
	switch {
	case p.sse && resp != nil:
		p.writeLocked(resp)
		return true
	case p.sse:
	case resp == nil:
		p.w.WriteHeader(http.StatusAccepted)
	default:
		writeJSON(p.w, status, resp)
	}
	return false
}

func writeEvent(w http.ResponseWriter, msg []byte) error {
	return writeEventID(w, "", msg)
}

// writeEventID writes msg as an SSE message event with id ("": none).
func writeEventID(w http.ResponseWriter, id string, msg []byte) error {
	buf := make([]byte, 0, len(msg)+len(id)+28)
	if id != "" {
		buf = append(append(append(buf, "id: "...), id...), '\n')
	}
	buf = append(buf, "event: message\ndata: "...)
	buf = append(append(buf, msg...), "\n\n"...)
	if _, err := w.Write(buf); err != nil {
		return err
	}
	return http.NewResponseController(w).Flush()
}

// writePriming writes the priming event of 2025-11-25: an id and empty
// data, so that the client can resume even before the first message.
func writePriming(w http.ResponseWriter, id string) error {
	if _, err := w.Write([]byte("id: " + id + "\ndata:\n\n")); err != nil {
		return err
	}
	return http.NewResponseController(w).Flush()
}

// sseStream is a session's GET stream.
type sseStream struct {
	mu     sync.Mutex
	w      http.ResponseWriter
	ended  chan struct{}
	closed bool
}

// openLocked writes the headers of the stream; st.mu is held.
func (st *sseStream) openLocked() {
	h := st.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	st.w.WriteHeader(http.StatusOK)
	http.NewResponseController(st.w).Flush()
}

func (st *sseStream) send(msg []byte) error { return st.sendEvent("", msg) }

// sendEvent writes msg as the event with id ("": none).
func (st *sseStream) sendEvent(id string, msg []byte) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return errClosed
	}
	return writeEventID(st.w, id, msg)
}

// eventStream is a stream of a session in the server's event log: the
// session's GET stream as a sender, or the log of a POST's stream.
type eventStream struct {
	srv  *Server
	sess *session
	name string
}

func (e *eventStream) append(msg []byte) (string, error) {
	if msg != nil && e.sess.ctx.Err() != nil {
		return "", errClosed // the session ended; its log is gone
	}
	return e.srv.eventLog().Append(context.Background(), e.sess.id, e.name, msg)
}

// end stops renewing the stream's hold (nil: none), then ends it.
func (e *eventStream) end(h *streamHold) {
	h.release()
	if err := e.srv.eventLog().End(context.Background(), e.sess.id, e.name); err != nil {
		e.srv.logger().Error("mcp event log", "err", err)
	}
}

// send implements sender: the message goes to the log, which the
// session's GET streams follow.
func (e *eventStream) send(msg []byte) error {
	_, err := e.append(msg)
	return err
}

// end closes the stream; the GET handler returns.
func (st *sseStream) end() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.closed {
		st.closed = true
		close(st.ended)
	}
}
