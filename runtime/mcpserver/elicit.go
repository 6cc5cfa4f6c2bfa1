package mcpserver

import (
	"fmt"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
)

// This file serves URL-mode elicitation beyond the request itself: the
// completion notice of 2025-11-25 and the URLElicitationRequired error,
// which 2026-07-28 turns into an input-required result.

// codeURLElicitationRequired is the JSON-RPC error code of a request that
// needs the user to visit a page first (2025-11-25).
const codeURLElicitationRequired = -32042

// expectCompletion records that the session was sent the URL elicitation
// id, so that [Server.ElicitationComplete] knows where to send its notice.
func (ss *session) expectCompletion(id string) {
	ss.mu.Lock()
	if ss.elicits == nil {
		ss.elicits = make(map[string]struct{})
	}
	ss.elicits[id] = struct{}{}
	ss.mu.Unlock()
}

// completes forgets the URL elicitation id and reports whether the session
// was sent it.
func (ss *session) completes(id string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if _, ok := ss.elicits[id]; !ok {
		return false
	}
	delete(ss.elicits, id)
	return true
}

// ElicitationComplete tells the client that received the URL elicitation
// id (from [mcprt.ElicitURL] or [mcprt.URLElicitationRequired]) that the
// user is done with its page, with notifications/elicitation/complete on
// that client's session. An empty id, which is what 2026-07-28 gives, is a
// no-op: that revision has no such notice. An id no live session was sent
// is an error; each id completes once.
func (s *Server) ElicitationComplete(id string) error {
	if id == "" {
		return nil
	}
	s.mu.Lock()
	var to *session
	for ss := range s.sessions {
		if ss.completes(id) {
			to = ss
			break
		}
	}
	s.mu.Unlock()
	if to == nil {
		return fmt.Errorf("mcpserver: %w", wire.UnknownElicitation(id))
	}
	p := jsonx.AppendString(append(make([]byte, 0, 64), `{"elicitationId":`...), id)
	to.notify(appendNotification(nil, "notifications/elicitation/complete", append(p, '}')))
	return nil
}

// urlElicitation answers a handler's failure that is a
// [mcprt.URLElicitationError], as the revision and the client's
// capabilities have it: handled is false when the failure stays an
// ordinary failed result. On 2025-11-25 it is the error -32042; on
// 2026-07-28 the run's round asks for the pages again, answered or not,
// since the handler found itself still unsatisfied.
func (x *exchangeCore) urlElicitation(err error) (rerr *rpcError, handled bool) {
	pages := wire.URLElicitations(err)
	if len(pages) == 0 || !x.srv.id.EnableElicitation {
		return nil, false
	}
	if x.rev.Stateless() {
		if x.q == nil || x.q.round == nil {
			return nil, false
		}
		if !x.caps.elicitationURL {
			x.q.mu.Lock()
			if x.q.missing == "" {
				x.q.missing = "elicitation.url"
			}
			x.q.mu.Unlock()
			return nil, false
		}
		for _, u := range pages {
			p := wire.AppendURLElicitation(nil, "", u.Message, u.URL)
			x.q.round.Require(mrtr.Question{Key: mrtr.KeyOf("elicitation/create", p), Method: "elicitation/create", Params: p})
		}
		return nil, true
	}
	if x.rev < wire.Rev20251125 || !x.caps.elicitationURL || x.sess == nil {
		return nil, false
	}
	data := append(make([]byte, 0, 128), `{"elicitations":[`...)
	for i, u := range pages {
		if i > 0 {
			data = append(data, ',')
		}
		data = wire.AppendURLElicitation(data, u.ID, u.Message, u.URL)
		x.sess.expectCompletion(u.ID)
	}
	data = append(data, "]}"...)
	return &rpcError{code: codeURLElicitationRequired, message: err.Error(), data: data}, true
}
