package authgate

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/tokentest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func TestMetadataURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"https://kb.example.com/mcp", "https://kb.example.com/.well-known/oauth-protected-resource/mcp"},
		{"https://kb.example.com/mcp/", "https://kb.example.com/.well-known/oauth-protected-resource/mcp"},
		{"https://kb.example.com", "https://kb.example.com/.well-known/oauth-protected-resource"},
		{"https://kb.example.com/", "https://kb.example.com/.well-known/oauth-protected-resource"},
		{"http://127.0.0.1:8080/a/b?t=1", "http://127.0.0.1:8080/.well-known/oauth-protected-resource/a/b?t=1"},
	} {
		got, err := MetadataURL(c.in)
		if err != nil || got != c.want {
			t.Errorf("MetadataURL(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "kb.example.com/mcp", "/mcp", "ftp://h/mcp", "https://h/mcp#x", "https://u:p@h/mcp"} {
		if got, err := MetadataURL(bad); err == nil {
			t.Errorf("MetadataURL(%q) = %q, want an error", bad, got)
		}
	}
}

func TestParseBearer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, token string
		ok        bool
	}{
		{"Bearer abc", "abc", true},
		{"bearer abc", "abc", true},
		{"BEARER  a-b.c_d~e+f/g==", "a-b.c_d~e+f/g==", true},
		{"Bearer abc ", "abc", true},
		{"Bearer", "", false},
		{"Bearer ", "", false},
		{"Bearerabc", "", false},
		{"Basic YWxhZGRpbjpvcGVuc2VzYW1l", "", false},
		{"Bearer a b", "", false},
		{"Bearer a=b", "", false},
		{"Bearer =", "", false},
		{"Bearer a\"b", "", false},
		{"Bearer\tabc", "", false},
		{"", "", false},
	} {
		tok, sent, ok := ParseBearer(c.in)
		if tok != c.token || ok != c.ok || !sent {
			t.Errorf("ParseBearer(%q) = %q, %v, %v; want %q, true, %v", c.in, tok, sent, ok, c.token, c.ok)
		}
	}
	h := http.Header{}
	if _, sent, _ := BearerToken(h); sent {
		t.Error("BearerToken without a header says one was sent")
	}
	h.Add("Authorization", "Bearer a")
	h.Add("Authorization", "Bearer b")
	if tok, sent, ok := BearerToken(h); ok || !sent {
		t.Errorf("BearerToken with two headers = %q, %v, %v; want a refusal", tok, sent, ok)
	}
}

func TestChallenge(t *testing.T) {
	t.Parallel()
	const m = "https://h/.well-known/oauth-protected-resource/mcp"
	for _, c := range []struct {
		code   string
		scopes []string
		want   string
	}{
		{"", nil, `Bearer resource_metadata="` + m + `"`},
		{"invalid_token", nil, `Bearer error="invalid_token", resource_metadata="` + m + `"`},
		{"", []string{"a", "b"}, `Bearer scope="a b", resource_metadata="` + m + `"`},
		{"insufficient_scope", []string{"kb:read", "offline_access", "kb:write"}, `Bearer error="insufficient_scope", scope="kb:read kb:write", resource_metadata="` + m + `"`},
		{"", []string{"offline_access"}, `Bearer resource_metadata="` + m + `"`},
	} {
		if got := Challenge(c.code, c.scopes, m); got != c.want {
			t.Errorf("Challenge(%q, %q) =\n%s\nwant\n%s", c.code, c.scopes, got, c.want)
		}
	}
	if got, want := Challenge("", []string{`a"b\c`}, "https://h/x\"y\n"), `Bearer scope="a\"b\\c", resource_metadata="https://h/x\"y%0A"`; got != want {
		t.Errorf("Challenge quoting = %s, want %s", got, want)
	}
}

func TestCheckScope(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"kb:read", "a", "!#[]~", "https://api.example.com/read"} {
		if err := CheckScope(ok); err != nil {
			t.Errorf("CheckScope(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a b", `a"b`, `a\b`, "é", "a\tb"} {
		if err := CheckScope(bad); err == nil {
			t.Errorf("CheckScope(%q) = nil, want an error", bad)
		}
	}
}

func newGate(t testing.TB, c Config) *Gate {
	t.Helper()
	g, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestNewRefuses(t *testing.T) {
	t.Parallel()
	v := tokentest.Tokens{}
	for name, c := range map[string]Config{
		"no resource":   {AuthorizationServers: []string{"https://as"}, Verifier: v},
		"no servers":    {Resource: "https://h/mcp", Verifier: v},
		"no verifier":   {Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}},
		"bad scope":     {Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}, Verifier: v, Scopes: []string{"a b"}},
		"bad supported": {Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}, Verifier: v, ScopesSupported: []string{`x"`}},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("%s: New succeeded", name)
		}
	}
}

func TestMetadataHandler(t *testing.T) {
	t.Parallel()
	g := newGate(t, Config{Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}, Verifier: tokentest.Tokens{},
		Scopes: []string{"kb"}})
	declared := func() []string { return []string{"kb:write", "offline_access", "kb"} }
	rec := httptest.NewRecorder()
	g.MetadataHandler(declared).ServeHTTP(rec, httptest.NewRequest("GET", "/.well-known/oauth-protected-resource/mcp", nil))
	want := `{"resource":"https://h/mcp","authorization_servers":["https://as"],"scopes_supported":["kb","kb:write"],"bearer_methods_supported":["header"]}`
	if rec.Code != 200 || rec.Body.String() != want || rec.Header().Get("Access-Control-Allow-Origin") != "*" || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("metadata: %d %v\n%s\nwant\n%s", rec.Code, rec.Header(), rec.Body, want)
	}
	if g.MetadataPathOf() != "/.well-known/oauth-protected-resource/mcp" {
		t.Errorf("MetadataPathOf = %q", g.MetadataPathOf())
	}
	rec = httptest.NewRecorder()
	g.MetadataHandler(declared).ServeHTTP(rec, httptest.NewRequest("POST", "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST to the metadata: %d", rec.Code)
	}
}

func TestAuthenticate(t *testing.T) {
	t.Parallel()
	v := tokentest.Tokens{"good": {Issuer: "https://as", Subject: "alice", Scopes: []string{"kb"}}}
	g := newGate(t, Config{Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}, Verifier: v, Scopes: []string{"kb"}})
	const m = `resource_metadata="https://h/.well-known/oauth-protected-resource/mcp"`
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	for _, c := range []struct {
		name, url, header, challenge string
	}{
		{"none", "/mcp", "", `Bearer scope="kb", ` + m},
		{"query string", "/mcp?access_token=good", "", `Bearer scope="kb", ` + m},
		{"malformed", "/mcp", "Bearer good bad", `Bearer error="invalid_token", scope="kb", ` + m},
		{"other scheme", "/mcp", "Basic Z29vZA==", `Bearer error="invalid_token", scope="kb", ` + m},
		{"refused", "/mcp", "Bearer s3cr3t-token", `Bearer error="invalid_token", scope="kb", ` + m},
	} {
		r := httptest.NewRequest("POST", c.url, nil)
		if c.header != "" {
			r.Header.Set("Authorization", c.header)
		}
		rec := httptest.NewRecorder()
		if info, _ := g.Authenticate(rec, r, log); info != nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != c.challenge {
			t.Errorf("%s: %d %q, want 401 %q", c.name, rec.Code, rec.Header().Get("WWW-Authenticate"), c.challenge)
		}
	}
	if strings.Contains(logs.String(), "s3cr3t-token") || !strings.Contains(logs.String(), "[token]") {
		t.Errorf("the log shows the token, or not the redacted error:\n%s", logs.String())
	}
	r := httptest.NewRequest("POST", "/mcp", nil)
	r.Header.Set("Authorization", "bearer good")
	info, r2 := g.Authenticate(httptest.NewRecorder(), r, log)
	if info == nil || info.Subject != "alice" {
		t.Fatalf("a good token was refused")
	}
	if tok, ok := mcprt.Token(r2.Context()); !ok || tok.Subject != "alice" {
		t.Errorf("mcprt.Token of the request = %v, %v", tok, ok)
	}
	if Principal(info) != "https://as\x00alice" || Principal(nil) != "" {
		t.Errorf("Principal = %q", Principal(info))
	}
}

func TestNeedAndLacks(t *testing.T) {
	t.Parallel()
	g := newGate(t, Config{Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}, Verifier: tokentest.Tokens{}, Scopes: []string{"kb"}})
	need := g.Need([]string{"kb:write", "kb"})
	if strings.Join(need, " ") != "kb kb:write" {
		t.Errorf("Need = %q", need)
	}
	tok := &mcprt.TokenInfo{Scopes: []string{"kb"}}
	if !Lacks(tok, need) || Lacks(tok, g.Need(nil)) {
		t.Errorf("Lacks is wrong for %q", need)
	}
	rec := httptest.NewRecorder()
	g.Forbid(rec, need, []byte(`{}`))
	if want := `Bearer error="insufficient_scope", scope="kb kb:write", resource_metadata="https://h/.well-known/oauth-protected-resource/mcp"`; rec.Code != 403 || rec.Header().Get("WWW-Authenticate") != want {
		t.Errorf("Forbid: %d %q", rec.Code, rec.Header().Get("WWW-Authenticate"))
	}
}

func TestOperations(t *testing.T) {
	t.Parallel()
	ops, id, ok := Operations([]byte(` {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"w","arguments":{"a":1},"_meta":{"k":"v"}}}`))
	if !ok || string(id) != "7" || len(ops) != 1 {
		t.Fatalf("one request: %v %s %v", ops, id, ok)
	}
	if op := ops[0]; op.Method != "tools/call" || op.Name != "w" || string(op.ID) != "7" || string(op.Arguments) != `{"a":1}` ||
		string(op.Meta) != `{"k":"v"}` || string(op.Params) != `{"name":"w","arguments":{"a":1},"_meta":{"k":"v"}}` {
		t.Errorf("one request: %+v", op)
	}
	ops, id, ok = Operations([]byte(`[{"id":1,"method":"resources/read","params":{"uri":"kb://r"}},{"method":"notifications/x"}]`))
	if !ok || id != nil || len(ops) != 2 || ops[0].URI != "kb://r" || ops[1].Method != "notifications/x" || ops[1].ID != nil {
		t.Errorf("a batch: %v %s %v", ops, id, ok)
	}
	if _, _, ok := Operations([]byte(`{"id":`)); ok {
		t.Error("not JSON read as requests")
	}
	if got := string(ErrorResponse(nil, []string{"a", "b"})); got != `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"insufficient scope: this request needs the scopes a b","data":{"scopes":["a","b"]}}}` {
		t.Errorf("ErrorResponse = %s", got)
	}
}

// TestProtectTellsRefusals checks that Refused is told of each refusal,
// after the answer, with the status, the reason and the body's messages.
func TestProtectTellsRefusals(t *testing.T) {
	t.Parallel()
	v := tokentest.Tokens{"alice": {Issuer: "https://as", Subject: "alice"}, "bob": {Issuer: "https://as", Subject: "bob", Scopes: []string{"kb"}}}
	g := newGate(t, Config{Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}, Verifier: v})
	var got []Refusal
	var principals []string
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Mcp-Session-Id", "s1")
		w.WriteHeader(http.StatusOK)
	})
	h := g.Protect(next, ProtectOptions{
		Scopes: func(op Operation) []string {
			if op.Name == "w" {
				return []string{"kb"}
			}
			return nil
		},
		Refused: func(r *http.Request, ref Refusal) {
			got = append(got, ref)
			tok, _ := mcprt.Token(r.Context())
			principals = append(principals, tok.Subject)
		},
	})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w"}}`
	do := func(method, token, session, body string) int {
		req := httptest.NewRequest(method, "https://h/mcp", strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	do(http.MethodPost, "bob", "", `{"jsonrpc":"2.0","id":0,"method":"initialize"}`) // bob's session s1
	for _, tt := range []struct {
		method, token, session, body string
		status                       int
		reason, principal, op        string
	}{
		{http.MethodPost, "", "", call, 401, ReasonMissingToken, "", "tools/call"},
		{http.MethodPost, "eve", "", call, 401, ReasonInvalidToken, "", "tools/call"},
		{http.MethodPost, "alice", "s1", call, 404, ReasonUnknown, "alice", "tools/call"},
		{http.MethodGet, "alice", "s1", "", 404, ReasonUnknown, "alice", ""},
		{http.MethodPost, "alice", "", call, 403, ReasonScope, "alice", "tools/call"},
	} {
		got, principals = nil, nil
		if status := do(tt.method, tt.token, tt.session, tt.body); status != tt.status {
			t.Errorf("%s %s: status %d, want %d", tt.method, tt.reason, status, tt.status)
		}
		if len(got) != 1 || got[0].Status != tt.status || got[0].Reason != tt.reason || principals[0] != tt.principal {
			t.Errorf("%s %s: refusals %+v of %q", tt.method, tt.reason, got, principals)
			continue
		}
		if op := ""; len(got[0].Ops) > 0 {
			if op = got[0].Ops[0].Method; op != tt.op {
				t.Errorf("%s %s: the refusal names %q, want %q", tt.method, tt.reason, op, tt.op)
			}
		} else if tt.op != "" {
			t.Errorf("%s %s: the refusal names no message, want %q", tt.method, tt.reason, tt.op)
		}
		if (tt.status == 403) != (got[0].Error != nil) {
			t.Errorf("%s %s: JSON-RPC error %s", tt.method, tt.reason, got[0].Error)
		}
	}
}
