package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// HTTPHandler returns the Streamable HTTP transport on one endpoint: POST
// carries client messages, GET opens a session's stream of messages outside
// any request, DELETE ends a session. Mount it at the path of your choice.
//
// A legacy client gets an Mcp-Session-Id when it initializes and sends it
// with every later request; a 2026-07-28 request needs no session.
//
// Graceful shutdown: GET streams and subscriptions/listen responses stay
// open until the client leaves, so register [Server.CloseStreams] with the
// HTTP server before shutting down:
//
//	hs := &http.Server{Addr: addr, Handler: srv.HTTPHandler()}
//	hs.RegisterOnShutdown(srv.CloseStreams)
//	...
//	err := hs.Shutdown(ctx) // waits for running requests
func (s *Server) HTTPHandler() http.Handler {
	s.bus() // what other replicas send this one comes from the start
	return http.HandlerFunc(s.serveHTTP)
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if s.Card != nil && s.serveCard(w, r) {
		return // public, as the metadata is
	}
	if s.Auth != nil && s.serveMetadata(w, r) {
		return // public, and readable from any origin
	}
	cors := s.corsAllowed(r)
	if !s.allowedHostOrigin(r, cors) {
		http.Error(w, "Forbidden: Host or Origin not allowed", http.StatusForbidden)
		return
	}
	if cors && s.writeCORS(w, r) {
		return // a preflight, answered: browsers send no token with one
	}
	if s.Auth != nil {
		// After CORS, so that a page of an allowed origin can read a
		// challenge.
		if r = s.authenticate(w, r); r == nil {
			return
		}
	}
	switch r.Method {
	case http.MethodPost:
		s.httpPost(w, r)
	case http.MethodGet:
		s.httpGet(w, r)
	case http.MethodDelete:
		s.httpDelete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

// CloseStreams ends every open GET stream and every subscriptions/listen,
// which is answered with its graceful-end result. Register it with
// http.Server.RegisterOnShutdown so that Shutdown does not wait for them.
func (s *Server) CloseStreams() {
	s.closing.Store(true)
	s.listens.endAll()
	var open []*sseStream
	s.mu.Lock()
	for _, sess := range s.byID {
		sess.mu.Lock()
		if sess.get != nil {
			open = append(open, sess.get)
		}
		sess.mu.Unlock()
	}
	s.mu.Unlock()
	for _, st := range open {
		st.end()
	}
}

// httpPost handles one POST: a message or a batch.
func (s *Server) httpPost(w http.ResponseWriter, r *http.Request) {
	if !isJSON(headerValue(r.Header, "Content-Type")) {
		http.Error(w, "Unsupported Media Type: Content-Type must be application/json", http.StatusUnsupportedMediaType)
		return
	}
	if !acceptsBoth(r) {
		http.Error(w, "Not Acceptable: Accept must list application/json and text/event-stream", http.StatusNotAcceptable)
		return
	}
	body, err := readBody(w, r, s.maxBody())
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "Request Entity Too Large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "Bad Request: reading the body failed", http.StatusBadRequest)
		return
	}
	items, isBatch, perr := splitBatch(body)
	if perr != nil {
		writeRPCError(w, http.StatusBadRequest, nil, perr)
		return
	}
	if isBatch {
		s.httpBatch(w, r, items)
		return
	}
	m := new(message)
	id, rerr := parseCheckedInto(body, m)
	if rerr == nil && !m.meta.checkArgs() {
		// Over HTTP a malformed message is refused before anything else
		// (status 400), so a call's arguments are checked here rather
		// than left to the tool's decoder.
		writeRPCError(w, http.StatusBadRequest, nil, errParse)
		s.badRequest(r, errParse, m)
		return
	}
	if rerr != nil {
		writeRPCError(w, http.StatusBadRequest, id, rerr)
		return
	}
	if s.Auth != nil && s.forbid(w, r, m.id, m) {
		return
	}
	s.httpMessage(w, r, m)
}

// httpMessage serves one parsed message of a POST: a 2026-07-28-era
// request statelessly, anything else in its session.
func (s *Server) httpMessage(w http.ResponseWriter, r *http.Request, m *message) {
	header := headerValue(r.Header, protocolVersionHeader)
	rev, stateless, rerr := era(m, header)
	if rerr != nil {
		writeRPCError(w, http.StatusBadRequest, m.id, rerr)
		s.badRequest(r, rerr, m)
		return
	}
	if stateless {
		s.httpStateless(w, r, m, rev)
		return
	}
	if wire.Revision(header).Stateless() {
		// A notification: 2026-07-28 defines none over HTTP.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if m.isRequest() && m.method == "initialize" {
		s.httpInitialize(w, r, m)
		return
	}
	sess := s.httpSession(w, r, m)
	if sess == nil {
		return
	}
	defer s.release(sess)
	if !m.isRequest() {
		s.handle(r.Context(), sess, m, nil)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	call := new(sessionCall)
	own := &call.own
	ctx := s.requestContext(r, sess, own)
	defer sess.unbindOne(own)
	st := &call.stream
	s.initPostStream(st, w, sess)
	st.id = m.id
	buf := getBuffer()
	resp := s.handleIn(ctx, own, sess, m, st, (*buf)[:0])
	if !st.finish(resp, http.StatusOK) {
		putResponse(buf, resp)
	}
}

// sessionCall is what a request in a session keeps while it runs, in one
// allocation: its registration and the stream that answers it.
type sessionCall struct {
	own    inflight
	stream postStream
}

// requestContext is the context of one request in a session, as
// callContext says, made as the request's own with the record own (see
// session.bind), so that the request's registration for cancellation
// makes no other.
func (s *Server) requestContext(r *http.Request, sess *session, own *inflight) context.Context {
	own.ctx.detached = resumable(sess.revision())
	return sess.bind(r.Context(), own)
}

// callContext is the context of a request in a session. On the
// resumable revisions it does not end with the HTTP request: there a
// dropped stream is not a cancel, and what the call still sends goes to
// the event log.
func (s *Server) callContext(r *http.Request, sess *session) (context.Context, func()) {
	if resumable(sess.revision()) {
		return sessionContext(context.WithoutCancel(r.Context()), sess)
	}
	return sessionContext(r.Context(), sess)
}

// httpStateless serves a 2026-07-28 request: no session; the Mcp-Method
// and Mcp-Name headers must say what the body says. The status of an
// error answer follows its code.
func (s *Server) httpStateless(w http.ResponseWriter, r *http.Request, m *message, rev wire.Revision) {
	if rerr := checkHeaders(r.Header, m); rerr != nil {
		writeRPCError(w, http.StatusBadRequest, m.id, rerr)
		s.badRequest(r, rerr, m)
		return
	}
	if m.method == "tools/call" {
		if e := s.toolOf(&m.meta); e != nil {
			if rerr := checkParamHeaders(r.Header, e.val.headers, m.meta.toolArgs); rerr != nil {
				writeRPCError(w, http.StatusBadRequest, m.id, rerr)
				s.badRequest(r, rerr, m)
				return
			}
		}
	}
	st := &postStream{w: w}
	x := newExchange(s, nil, m, st)
	x.rev, x.caps, x.token = rev, parseClientCaps(m.meta.ClientCapabilities), tokenOf(r.Context())
	buf := getBuffer()
	resp, code := s.answer(r.Context(), &x, m, true, (*buf)[:0])
	if !st.finish(resp, statusOf(code)) {
		putResponse(buf, resp)
	}
}

// statusOf is the HTTP status of a served 2026-07-28 request answered
// with JSON-RPC error code (0: a result): 404 for a method the server
// does not serve and 400 for a client capability it lacks, as the
// transport specifies; any other answer, an unknown tool or resource
// included, is 200 with the error in the body. (A request refused before
// it is served, for its headers or _meta, is 400.)
func statusOf(code int) int {
	switch code {
	case codeMethodNotFound:
		return http.StatusNotFound
	case codeMissingCapability, codeHeaderMismatch, codeUnsupportedProtocol:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// httpInitialize starts a session: the answer carries its Mcp-Session-Id.
func (s *Server) httpInitialize(w http.ResponseWriter, r *http.Request, m *message) {
	sess := newSession(context.Background(), s, rand.Text(), TransportHTTP, nil)
	sess.owner = tokenOf(r.Context())
	resp := s.handle(r.Context(), sess, m, nil)
	if sess.revision() == "" {
		sess.stop()
		writeJSON(w, http.StatusOK, resp)
		return
	}
	sess.lastUsed = s.clock()
	if s.Sessions != nil {
		if err := s.Sessions.Create(r.Context(), sess.record()); err != nil {
			sess.stop()
			s.logger().Error("mcp session store", "err", err)
			writeRPCError(w, http.StatusServiceUnavailable, m.id, errorf(codeInternalError, "internal error: storing the session failed"))
			return
		}
		sess.touched = sess.lastUsed
	}
	s.expireIdle()
	s.mu.Lock()
	s.byID[sess.id] = sess
	s.sessions[sess] = struct{}{}
	s.mu.Unlock()
	w.Header().Set("Mcp-Session-Id", sess.id)
	writeJSON(w, http.StatusOK, resp)
}

// httpBatch serves a batch POST (2025-03-26 sessions only).
func (s *Server) httpBatch(w http.ResponseWriter, r *http.Request, items []json.RawMessage) {
	msgs := make([]*message, len(items))
	for i, raw := range items {
		msgs[i], _, _ = parseMessage(raw)
	}
	sess := s.httpSession(w, r, msgs...)
	if sess == nil {
		return
	}
	defer s.release(sess)
	if sess.revision() != wire.Rev20250326 {
		rerr := errorf(codeInvalidRequest, "invalid request: batches are supported only by protocol revision 2025-03-26")
		writeRPCError(w, http.StatusBadRequest, nil, rerr)
		s.badRequest(r, rerr, msgs...)
		return
	}
	// A batch lacking a scope for any of its requests is refused as a
	// whole, before any of them runs.
	if s.Auth != nil && s.forbid(w, r, nil, msgs...) {
		return
	}
	ctx, stop := s.callContext(r, sess)
	defer stop()
	st := s.newPostStream(w, sess)
	st.batch = items
	resp := s.handleBatch(ctx, sess, items, st)
	if resp == nil && !st.sse {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	st.finish(resp, http.StatusOK)
}

// httpGet opens the session's stream for messages outside any request,
// or, with Last-Event-ID on the resumable revisions, resumes the stream
// that id names.
func (s *Server) httpGet(w http.ResponseWriter, r *http.Request) {
	if !accepts(r, "text/event-stream") {
		http.Error(w, "Not Acceptable: Accept must list text/event-stream", http.StatusNotAcceptable)
		return
	}
	if wire.Revision(r.Header.Get(protocolVersionHeader)).Stateless() || r.Header.Get("Mcp-Session-Id") == "" {
		w.Header().Set("Allow", "POST")
		http.Error(w, "Method Not Allowed: no session stream", http.StatusMethodNotAllowed)
		return
	}
	sess := s.httpSession(w, r)
	if sess == nil {
		return
	}
	defer s.release(sess)
	rev := sess.revision()
	last := r.Header.Get("Last-Event-ID")
	stream := getStream
	if last != "" && resumable(rev) {
		var ok bool
		if stream, ok = mcpstore.StreamOf(last); !ok {
			http.Error(w, "Bad Request: malformed Last-Event-ID", http.StatusBadRequest)
			return
		}
		if err := s.eventLog().Check(r.Context(), sess.id, stream, last); err != nil {
			s.refuseResume(w, err)
			return
		}
	}
	st := &sseStream{w: w, ended: make(chan struct{})}
	if stream != getStream {
		// A POST's stream: replay and follow it to the response.
		ctx, stop := sessionContext(r.Context(), sess)
		defer stop()
		s.follow(ctx, st, sess, stream, last, rev)
		return
	}
	if !s.claimGet(sess, st, rev) {
		http.Error(w, "Conflict: the session already has a stream", http.StatusConflict)
		return
	}
	s.serveGet(w, r, sess, st, rev, last)
}

// claimGet makes st the session's GET stream. It returns holding st.mu,
// so that no message is written before the stream's headers; or, when
// the session has a GET stream already, false, holding nothing.
func (s *Server) claimGet(sess *session, st *sseStream, rev wire.Revision) bool {
	st.mu.Lock()
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.get != nil {
		st.mu.Unlock()
		return false
	}
	sess.get = st
	if !resumable(rev) {
		sess.stream = st
	} else if sess.stream == nil {
		// From now on the session's messages go to its log, and each GET
		// follows it: a dropped GET stream loses nothing.
		sess.stream = &eventStream{srv: s, sess: sess, name: getStream}
	}
	return true
}

// serveGet serves the GET stream st that claimGet gave the session, from
// the event after last on the resumable revisions, until the client, the
// session or the stream ends. It is called holding st.mu.
func (s *Server) serveGet(w http.ResponseWriter, r *http.Request, sess *session, st *sseStream, rev wire.Revision, last string) {
	defer s.dropGet(sess, st)
	if !resumable(rev) {
		st.openLocked()
		st.mu.Unlock()
		select {
		case <-r.Context().Done():
		case <-sess.ctx.Done():
		case <-st.ended:
		}
		return
	}
	st.mu.Unlock()
	if s.Sessions != nil {
		// Only this replica writes the session's messages to the log now.
		s.publish(r.Context(), mcpstore.BusEvent{Kind: mcpstore.BusStreamTaken, Session: sess.id})
	}
	ctx, stop := sessionContext(r.Context(), sess)
	defer stop()
	if last == "" {
		// A fresh stream starts at an event of its own: the priming
		// event, on the revisions that send it.
		var err error
		if last, err = s.eventLog().Append(ctx, sess.id, getStream, nil); err != nil {
			s.logger().Error("mcp event log", "err", err)
			http.Error(w, "Service Unavailable: the event log failed", http.StatusServiceUnavailable)
			return
		}
	}
	go func() { <-st.ended; stop() }()
	s.follow(ctx, st, sess, getStream, last, rev)
}

// getStream is the name of a session's GET stream in its event log.
const getStream = "g"

// dropGet forgets st as the session's GET stream and ends it.
func (s *Server) dropGet(sess *session, st *sseStream) {
	sess.mu.Lock()
	if sess.get == st {
		sess.get = nil
	}
	if sess.stream == sender(st) {
		sess.stream = nil
	}
	sess.mu.Unlock()
	st.end()
}

// refuseResume answers a Last-Event-ID the log cannot resume from: 400
// for an id of no stream of this session, or whose events are gone; 503
// when the log itself failed.
func (s *Server) refuseResume(w http.ResponseWriter, err error) {
	if errors.Is(err, mcpstore.ErrUnknownEvent) {
		http.Error(w, "Bad Request: Last-Event-ID names no event of this session's streams", http.StatusBadRequest)
		return
	}
	s.logger().Error("mcp event log", "err", err)
	http.Error(w, "Service Unavailable: the event log failed", http.StatusServiceUnavailable)
}

// follow writes the events of stream after the event after to st, then
// the new ones, until the stream ends or ctx does. On 2025-11-25 the
// stream opens with a priming event carrying the id it resumes from.
func (s *Server) follow(ctx context.Context, st *sseStream, sess *session, stream, after string, rev wire.Revision) {
	st.mu.Lock()
	st.openLocked()
	if rev == wire.Rev20251125 {
		writePriming(st.w, after)
	}
	st.mu.Unlock()
	err := s.eventLog().Follow(ctx, sess.id, stream, after, func(id string, data []byte) error {
		if len(data) == 0 {
			return nil // a priming event
		}
		return st.sendEvent(id, data)
	})
	if err != nil && ctx.Err() == nil && !errors.Is(err, errClosed) {
		s.logger().Debug("mcp stream resumption ended", "err", err)
	}
}

func (s *Server) maxBody() int64 {
	if s.MaxBodyBytes > 0 {
		return s.MaxBodyBytes
	}
	return DefaultMaxBodyBytes
}

// protocolVersionHeader is MCP-Protocol-Version as net/http keys it: a
// key in canonical form is looked up without a copy.
const protocolVersionHeader = "Mcp-Protocol-Version"

// headerValue is h.Get(key) for a key in canonical form, which it looks
// up as it is rather than checking its form first, as Get does.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func isJSON(contentType string) bool {
	if contentType == "application/json" {
		return true // what clients send, without parsing it
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

// acceptsBoth reports whether the Accept headers of r list
// application/json and text/event-stream, as a POST must. The value
// clients send is compared as it is, before the headers are split.
func acceptsBoth(r *http.Request) bool {
	if v := r.Header["Accept"]; len(v) == 1 && (v[0] == "application/json, text/event-stream" || v[0] == "text/event-stream, application/json") {
		return true
	}
	return accepts(r, "application/json") && accepts(r, "text/event-stream")
}

// accepts reports whether the Accept headers of r list mediaType, exactly
// or by a wildcard.
func accepts(r *http.Request, mediaType string) bool {
	major, _, _ := strings.Cut(mediaType, "/")
	for _, v := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(v, ",") {
			part = strings.TrimSpace(part)
			if part == mediaType {
				return true // the common case, without parsing it
			}
			if plainMediaType(part) {
				// Parsing would give part itself, which is not a match.
				if part == "*/*" || part == major+"/*" {
					return true
				}
				continue
			}
			mt, _, err := mime.ParseMediaType(part)
			if err == nil && (mt == mediaType || mt == "*/*" || mt == major+"/*") {
				return true
			}
		}
	}
	return false
}

// plainMediaType reports whether part is a media type that
// mime.ParseMediaType would return unchanged: no parameters, no upper
// case, no white space.
func plainMediaType(part string) bool {
	for i := 0; i < len(part); i++ {
		if c := part[i]; c == ';' || c == ' ' || c == '\t' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			return false
		}
	}
	return true
}

// jsonContentType is the Content-Type of a JSON answer, shared by every
// answer: net/http and the handlers' middleware replace a header's values
// and never write into them.
var jsonContentType = []string{"application/json"}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	w.Write(body)
}

func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, e *rpcError) {
	writeJSON(w, status, appendError(nil, id, e))
}
