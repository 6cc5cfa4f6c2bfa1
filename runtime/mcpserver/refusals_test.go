package mcpserver

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/wire"
)

// TestRefusalsAreSeen checks that every request the HTTP transport
// refuses before serving it reaches the interceptors, with its HTTP
// status, reason and principal, and so the request log; a refused GET,
// which holds no message, reaches the server's log.
func TestRefusalsAreSeen(t *testing.T) {
	t.Parallel()
	var r ran
	srv := authServer(&r)
	var rec recorder
	lines := &capture{level: slog.LevelDebug}
	srv.Use(rec.intercept, RequestLog(slog.New(lines), nil))
	serverLog := captureLog(srv)
	c := startHTTP(t, srv)
	alice := *c
	alice.authInit(wire.Rev20251125, "alice-all")
	rev := header("MCP-Protocol-Version", "2025-11-25")
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w","arguments":{}}}`

	c.post(call, http.StatusUnauthorized, "", rev)                                         // no token
	c.post(call, http.StatusUnauthorized, "", bearer("eve", rev))                          // a token the verifier refuses
	alice.post(call, http.StatusForbidden, "", bearer("alice-base", rev))                  // kb:write is missing
	alice.post(call, http.StatusNotFound, "", bearer("bob-all", rev))                      // alice's session
	c.post(call, http.StatusBadRequest, "", bearer("bob-all", rev))                        // no session
	c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{`+meta2026(`{}`)+`}}`, // the header says otherwise
		http.StatusBadRequest, "", bearer("bob-all", header("MCP-Protocol-Version", "2025-06-18")))
	if got := r.n.Load(); got != 0 {
		t.Errorf("%d handlers ran", got)
	}

	want := []struct {
		status            int
		reason, principal string
		code              int
	}{
		{401, ReasonMissingToken, "", 0},
		{401, ReasonInvalidToken, "", 0},
		{403, ReasonScope, "alice", codeInvalidRequest},
		{404, ReasonUnknown, "bob", 0},
		{400, ReasonNoSession, "bob", 0},
		{400, ReasonBadRequest, "bob", codeHeaderMismatch},
	}
	var refused []seen
	rec.mu.Lock()
	all := rec.seen
	rec.mu.Unlock()
	for _, s := range all {
		if s.out.Refused != nil {
			refused = append(refused, s)
		}
	}
	if len(refused) != len(want) {
		t.Fatalf("%d refusals seen, want %d: %+v", len(refused), len(want), refused)
	}
	for i, w := range want {
		s := refused[i]
		if s.out.Refused.Status != w.status || s.out.Refused.Reason != w.reason || s.principal != w.principal {
			t.Errorf("refusal %d: %+v of %q, want %d %s of %q", i, s.out.Refused, s.principal, w.status, w.reason, w.principal)
		}
		if code := 0; s.out.Error != nil || w.code != 0 {
			if s.out.Error != nil {
				code = s.out.Error.Code
			}
			if code != w.code {
				t.Errorf("refusal %d: JSON-RPC error %+v, want code %d", i, s.out.Error, w.code)
			}
		}
		if wantMethod := "tools/call"; i == 5 {
			if s.req.Method != "tools/list" || s.req.Revision != "2026-07-28" || s.req.SessionID != "" {
				t.Errorf("refusal %d: request %+v", i, s.req)
			}
		} else if s.req.Method != wantMethod || s.req.Name != "w" || string(s.req.ID) != "1" || s.req.Transport != TransportHTTP {
			t.Errorf("refusal %d: request %+v", i, s.req)
		}
	}
	if s := refused[3]; s.req.SessionID != alice.sid || s.req.Revision != "2025-11-25" {
		t.Errorf("the 404 names session %q of revision %q, want %q of 2025-11-25", s.req.SessionID, s.req.Revision, alice.sid)
	}

	log := strings.Join(lines.take(), "\n") + "\n"
	for _, line := range []string{
		`WARN mcp request method=tools/call target=w id=1 outcome=refused status=401 reason=missing_token error=Unauthorized revision=2025-11-25 transport=http`,
		`WARN mcp request method=tools/call target=w id=1 outcome=refused status=403 reason=insufficient_scope code=-32600 error=insufficient scope: this request needs the scopes kb kb:write revision=2025-11-25 transport=http session=` + alice.sid + ` principal=alice`,
		`WARN mcp request method=tools/call target=w id=1 outcome=refused status=404 reason=unknown_session error=Not Found: unknown session revision=2025-11-25 transport=http session=` + alice.sid + ` principal=bob`,
	} {
		if !strings.Contains(log, line+"\n") {
			t.Errorf("the request log lacks\n%s\nin\n%s", line, log)
		}
	}

	resp := alice.do(http.MethodGet, "", bearer("bob-all", header("Accept", "text/event-stream")))
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET of alice's session by bob: %d", resp.StatusCode)
	}
	if want := `level=INFO msg="mcp HTTP request refused" method=GET status=404 reason=unknown_session session=` + alice.sid + ` principal=bob`; !strings.Contains(serverLog.String(), want) {
		t.Errorf("the server's log lacks\n%s\nin\n%s", want, serverLog)
	}
}
