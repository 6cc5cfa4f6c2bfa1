package mcpserver

import (
	"context"
	"encoding/json"
	"time"
)

// This file keeps a POST's SSE stream from waiting forever for its
// answer when the replica writing it dies: while the stream is open the
// writer holds it in the event log, and a follower on any replica ends a
// stream whose hold lapsed with an error standing for the answer.

// errAnswerStopped is the answer a stream gets when the replica writing
// it stopped before the response.
var errAnswerStopped = errorf(codeInternalError, "internal error: the server answering this request stopped")

// streamHold renews the hold on one stream until released.
type streamHold struct {
	cancel context.CancelFunc
	done   chan struct{}
	held   chan struct{} // closed once the first Hold returned
}

// hold takes the hold on e with the will that will() makes, and renews
// it every TaskLease for two periods, so that the will reaches the
// followers within two periods of this replica's death. A log that only
// this server reads needs none: its followers die with the writer.
func (e *eventStream) hold(will func() []byte) *streamHold {
	log := e.srv.eventLog()
	if e.srv.ownEvents {
		return nil
	}
	period := e.srv.taskLease()
	ctx, cancel := context.WithCancel(context.Background())
	h := &streamHold{cancel: cancel, done: make(chan struct{}), held: make(chan struct{})}
	data := will()
	// The first Hold runs beside the first event's Append, which a shared
	// log may pipeline with it.
	go func() {
		defer close(h.done)
		held := h.held
		defer func() {
			if held != nil { // the session ended before the first Hold
				close(held)
			}
		}()
		tick := time.NewTicker(period)
		defer tick.Stop()
		for e.sess.ctx.Err() == nil { // an ended session's log is gone
			hctx, stop := context.WithTimeout(ctx, 2*period)
			err := log.Hold(hctx, e.sess.id, e.name, 2*period, data)
			stop()
			if err != nil && ctx.Err() == nil {
				e.srv.logger().Error("mcp event log: holding a stream failed", "stream", e.name, "err", err)
			}
			if held != nil {
				close(held)
				held = nil
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

// wait returns once the first Hold returned (or failed), so that no
// client learns an event id of the stream, and resumes it elsewhere,
// before its will is in the log. A nil hold has nothing to wait for.
func (h *streamHold) wait() {
	if h != nil {
		<-h.held
	}
}

// release stops renewing the hold and waits until no renewal runs, so
// that none lands after the stream's end. A nil hold has nothing to stop.
func (h *streamHold) release() {
	if h == nil {
		return
	}
	h.cancel()
	<-h.done
}

// will is what a POST stream's followers get should its writer die: a
// -32603 error response to its request, or to each request of its batch
// (nothing, for a batch of notifications: the stream only ends).
func (p *postStream) will() []byte {
	if p.batch == nil {
		return appendError(nil, p.id, errAnswerStopped)
	}
	var ids []json.RawMessage
	for _, raw := range p.batch {
		if m, _, err := parseMessage(raw); err == nil && m.isRequest() {
			ids = append(ids, m.id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	dst := []byte{'['}
	for i, id := range ids {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendError(dst, id, errAnswerStopped)
	}
	return append(dst, ']')
}
