package mcpserver

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/cardtest"
	"github.com/mcpgen/mcpgen/internal/tokentest"
	"github.com/mcpgen/mcpgen/internal/wire"
)

// cardGet sends a request of path to h with the header pairs given.
func cardGet(h http.Handler, method, path string, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "http://kb.example.com"+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

// TestCardServed: the card is served at the endpoint's URL and
// /server-card, valid by the card schema, with its headers, a strong
// ETag and 304 for If-None-Match; the endpoint's handler and CardHandler
// serve the same bytes, without a token where the endpoint needs one.
func TestCardServed(t *testing.T) {
	t.Parallel()
	srv := New(fullIdentity)
	srv.Card = &Card{Name: "com.example/calc", Repository: &CardRepository{URL: "https://github.com/example/calc", Source: "github"}}
	srv.Auth = &Auth{Resource: "https://kb.example.com/mcp", AuthorizationServers: []string{"https://as"}, Verifier: tokentest.Tokens{}}
	srv.AllowedHosts = []string{"kb.example.com"}
	paths, err := srv.CardPaths()
	if err != nil || !slices.Equal(paths, []string{"/mcp/server-card"}) {
		t.Fatalf("CardPaths = %q, %v", paths, err)
	}
	var first []byte
	for _, h := range []http.Handler{srv.HTTPHandler(), srv.CardHandler()} {
		rec := cardGet(h, "GET", "/mcp/server-card", "Accept", "application/mcp-server-card+json", "Origin", "https://other.example")
		hd := rec.Header()
		tag := hd.Get("ETag")
		if rec.Code != 200 || hd.Get("Content-Type") != "application/mcp-server-card+json" || hd.Get("Access-Control-Allow-Origin") != "*" ||
			hd.Get("Cache-Control") != "public, max-age=3600" || !strings.HasPrefix(tag, `"`) || hd.Get("Access-Control-Expose-Headers") != "ETag" {
			t.Fatalf("GET: %d %v", rec.Code, hd)
		}
		if err := cardtest.Validate(rec.Body.Bytes()); err != nil {
			t.Errorf("the card is not valid by the card schema: %v\n%s", err, rec.Body)
		}
		if first == nil {
			first = rec.Body.Bytes()
		} else if !bytes.Equal(first, rec.Body.Bytes()) {
			t.Errorf("the two handlers serve different cards")
		}
		for _, inm := range []string{tag, "W/" + tag, `"x", ` + tag, "*"} {
			rec := cardGet(h, "GET", "/mcp/server-card", "If-None-Match", inm)
			if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 || rec.Header().Get("ETag") != tag {
				t.Errorf("If-None-Match %s: %d %q", inm, rec.Code, rec.Header().Get("ETag"))
			}
		}
		if rec := cardGet(h, "GET", "/mcp/server-card", "If-None-Match", `"another"`); rec.Code != 200 || rec.Body.Len() == 0 {
			t.Errorf("If-None-Match of another tag: %d", rec.Code)
		}
		if rec := cardGet(h, "HEAD", "/mcp/server-card"); rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("ETag") != tag {
			t.Errorf("HEAD: %d %d bytes", rec.Code, rec.Body.Len())
		}
		rec = cardGet(h, "OPTIONS", "/mcp/server-card", "Origin", "https://other.example", "Access-Control-Request-Method", "GET")
		if rec.Code != http.StatusNoContent || rec.Header().Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(rec.Header().Get("Access-Control-Allow-Headers"), "If-None-Match") {
			t.Errorf("preflight: %d %v", rec.Code, rec.Header())
		}
		if rec := cardGet(h, "GET", "/.well-known/ai-catalog.json"); rec.Code == 200 {
			t.Error("the catalog is served without Card.Catalog")
		}
	}
	// The endpoint itself still needs its token.
	if rec := cardGet(srv.HTTPHandler(), "GET", "/mcp"); rec.Code != http.StatusUnauthorized {
		t.Errorf("GET of the endpoint without a token: %d", rec.Code)
	}
}

// TestCardAgrees: the card says what initialize and server/discover say:
// the server's version, title, description, website and icons, and the
// revisions server/discover lists.
func TestCardAgrees(t *testing.T) {
	t.Parallel()
	srv := New(fullIdentity)
	srv.Card = &Card{Name: "com.example/calc", URL: "https://calc.example.com/mcp"}
	rec := cardGet(srv.CardHandler(), "GET", "/mcp/server-card")
	var card struct {
		Name, Version, Description, Title, WebsiteURL string
		Icons                                         json.RawMessage
		Remotes                                       []struct {
			Type, URL                 string
			SupportedProtocolVersions []string
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &card); err != nil {
		t.Fatalf("%v\n%s", err, rec.Body)
	}
	c := startStdio(t, srv)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + statelessMeta + `}}`)
	var discover struct {
		Result struct {
			SupportedVersions []string
			Meta              struct {
				Info json.RawMessage `json:"io.modelcontextprotocol/serverInfo"`
			} `json:"_meta"`
		}
	}
	if err := json.Unmarshal([]byte(c.recv()), &discover); err != nil {
		t.Fatal(err)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	var initialize struct {
		Result struct {
			ServerInfo json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(c.recv()), &initialize); err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string]json.RawMessage{"server/discover": discover.Result.Meta.Info, "initialize": initialize.Result.ServerInfo} {
		var info struct {
			Version, Description, Title, WebsiteURL string
			Icons                                   json.RawMessage
		}
		if err := json.Unmarshal(raw, &info); err != nil {
			t.Fatal(err)
		}
		if info.Version != card.Version || info.Title != card.Title || info.Description != card.Description ||
			info.WebsiteURL != card.WebsiteURL || canon(t, string(info.Icons)) != canon(t, string(card.Icons)) {
			t.Errorf("%s says %s, the card %s", name, raw, rec.Body)
		}
	}
	if len(card.Remotes) != 1 || card.Remotes[0].Type != "streamable-http" || card.Remotes[0].URL != "https://calc.example.com/mcp" ||
		!slices.Equal(card.Remotes[0].SupportedProtocolVersions, discover.Result.SupportedVersions) || len(discover.Result.SupportedVersions) != len(wire.Revisions) {
		t.Errorf("remotes %+v, server/discover's versions %q", card.Remotes, discover.Result.SupportedVersions)
	}
}

// TestCardCatalog: with Card.Catalog, the AI Catalog names the card at
// its URL, with the same headers.
func TestCardCatalog(t *testing.T) {
	t.Parallel()
	srv := New(fullIdentity)
	srv.Card = &Card{Name: "com.example/calc", URL: "https://calc.example.com/mcp", Catalog: true}
	paths, err := srv.CardPaths()
	if err != nil || !slices.Equal(paths, []string{"/mcp/server-card", "/.well-known/ai-catalog.json"}) {
		t.Fatalf("CardPaths = %q, %v", paths, err)
	}
	rec := cardGet(srv.HTTPHandler(), "GET", "/.well-known/ai-catalog.json")
	want := `{"specVersion":"1.0","entries":[{"identifier":"urn:air:example.com:mcp:calc","type":"application/mcp-server-card+json","url":"https://calc.example.com/mcp/server-card"}]}`
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/ai-catalog+json" || rec.Header().Get("Access-Control-Allow-Origin") != "*" || rec.Header().Get("ETag") == "" {
		t.Fatalf("catalog: %d %v", rec.Code, rec.Header())
	}
	sameJSON(t, rec.Body.String(), want)
	if rec := cardGet(srv.HTTPHandler(), "GET", "/.well-known/ai-catalog.json", "If-None-Match", rec.Header().Get("ETag")); rec.Code != http.StatusNotModified {
		t.Errorf("catalog If-None-Match: %d", rec.Code)
	}
}

// TestCardMisconfigured: a card without a URL, or with a name the draft
// refuses, answers 500 with the reason logged, and CardPaths says why;
// the endpoint's other requests are not affected. Without Card, nothing
// is served.
func TestCardMisconfigured(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		card *Card
		want string
	}{
		"no URL":   {&Card{Name: "com.example/calc"}, "set Card.URL"},
		"bad name": {&Card{Name: "calc", URL: "https://h/mcp"}, "set Card.Name"},
	} {
		var logs bytes.Buffer
		srv := New(fullIdentity)
		srv.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		srv.Card = c.card
		if _, err := srv.CardPaths(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: CardPaths error %v, want %q", name, err, c.want)
		}
		if rec := cardGet(srv.HTTPHandler(), "GET", "/mcp/server-card"); rec.Code != 500 || !strings.Contains(logs.String(), c.want) {
			t.Errorf("%s: %d, logged %q", name, rec.Code, logs.String())
		}
	}
	srv := New(fullIdentity)
	if rec := cardGet(srv.CardHandler(), "GET", "/mcp/server-card"); rec.Code != 404 {
		t.Errorf("without Card: %d", rec.Code)
	}
	if _, err := srv.CardPaths(); err == nil {
		t.Error("CardPaths without Card succeeded")
	}
}
