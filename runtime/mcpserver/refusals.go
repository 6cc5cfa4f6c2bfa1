package mcpserver

import (
	"context"
	"net/http"

	"github.com/mcpgen/mcpgen/internal/authgate"
	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
)

// Refusal tells why the Streamable HTTP transport refused a request
// before serving it (see [Interceptor]).
type Refusal struct {
	// Status is the HTTP status answered: 400, 401, 403 or 404, or 503
	// when the DPoP replay cache cannot tell whether a proof is new.
	Status int
	// Reason is one of the Reason constants: few values, the same on
	// every server path, for logs and metrics.
	Reason string
	// Message is what the answer says: the JSON-RPC error's message, or
	// the text of a plain HTTP answer.
	Message string
}

// The reasons of a [Refusal].
const (
	ReasonMissingToken = authgate.ReasonMissingToken // 401: no token
	ReasonInvalidToken = authgate.ReasonInvalidToken // 401: a token malformed, or refused by the verifier
	ReasonScope        = authgate.ReasonScope        // 403: insufficient_scope
	ReasonUnknown      = authgate.ReasonUnknown      // 404: a session unknown, ended or another principal's
	ReasonNoSession    = authgate.ReasonNoSession    // 400: a session's request without Mcp-Session-Id
	ReasonBadRequest   = authgate.ReasonBadRequest   // 400: headers, _meta or arguments the request cannot be served with
	ReasonDPoPProof    = authgate.ReasonDPoPProof    // 401: a DPoP proof missing, malformed or not of this request
	ReasonDPoPNonce    = authgate.ReasonDPoPNonce    // 401: a DPoP proof without the server's current nonce
	ReasonReplayCache  = authgate.ReasonReplayCache  // 503: the DPoP replay cache could not tell whether a proof is new
)

// refused tells of a request the HTTP transport refused, once answered:
// the interceptors see each request and notification of msgs, its
// outcome the refusal (and rerr, the JSON-RPC error answered, if any).
// A refusal of no JSON-RPC message (a GET, a DELETE, a body that is not
// one) is logged on the server's Logger at Info instead.
func (s *Server) refused(r *http.Request, ref Refusal, rerr *rpcError, msgs []*message) {
	told := false
	for _, m := range msgs {
		if m == nil || m.isResponse() {
			continue
		}
		told = true
		if s.interceptors == nil {
			continue
		}
		out := Outcome{Refused: &Refusal{}}
		*out.Refused = ref
		if rerr != nil {
			out.Error = &Error{Code: rerr.code, Message: rerr.message, Data: rerr.data}
		}
		s.chain(r.Context(), s.refusedRequest(r, m), func(context.Context) Outcome { return out })
	}
	if !told {
		authgate.LogRefusal(s.logger(), r, authgate.Refusal{Status: ref.Status, Reason: ref.Reason, Message: ref.Message})
	}
}

// refusedRequest describes to interceptors the message m of the refused
// HTTP request r: the revision its _meta or its MCP-Protocol-Version
// header names, and the session its header names.
func (s *Server) refusedRequest(r *http.Request, m *message) *Request {
	req := &Request{Method: m.method, ID: m.id, Notification: m.id == nil, Params: m.params, Meta: m.rawMeta, Transport: TransportHTTP}
	rev := wire.Revision(m.meta.ProtocolVersion)
	if rev == "" {
		rev = wire.Revision(r.Header.Get(protocolVersionHeader))
	}
	if rev.Supported() {
		req.Revision = string(rev)
	}
	if !rev.Stateless() {
		req.SessionID = r.Header.Get("Mcp-Session-Id")
	}
	req.name(m)
	return req
}

// messagesOf parses the messages of a POST body, one or a batch, leaving
// out those that do not parse.
func messagesOf(body []byte) []*message {
	items, isBatch, err := splitBatch(body)
	if err != nil {
		return nil
	}
	if !isBatch {
		items = append(items, body)
	}
	msgs := make([]*message, 0, len(items))
	for _, raw := range items {
		if m, _, err := parseMessage(raw); err == nil {
			msgs = append(msgs, m)
		}
	}
	return msgs
}

// scopeError is the JSON-RPC error of a 403: the scopes needed in
// data.scopes, as authgate.ErrorResponse writes it.
func scopeError(need []string) *rpcError {
	data := append([]byte(nil), `{"scopes":[`...)
	for i, sc := range need {
		if i > 0 {
			data = append(data, ',')
		}
		data = jsonx.AppendString(data, sc)
	}
	return &rpcError{code: codeInvalidRequest, message: authgate.ScopeMessage(need), data: append(data, "]}"...)}
}

// badRequest tells of msgs refused with 400 and the JSON-RPC error rerr.
func (s *Server) badRequest(r *http.Request, rerr *rpcError, msgs ...*message) {
	s.refused(r, Refusal{Status: http.StatusBadRequest, Reason: ReasonBadRequest, Message: rerr.message}, rerr, msgs)
}
