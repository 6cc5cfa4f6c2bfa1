package mcpauth

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestJWTCache checks that a token accepted once is not checked again
// until the cache's TTL passes, and that another token is.
func TestJWTCache(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	s := newKeyServer(t, a)
	v := newTestJWT(t, s, JWTOptions{CacheTTL: time.Minute})
	lookups := countKeyLookups(v)
	tok := a.sign(t, nil, claims())
	for range 3 {
		mustVerify(t, v, tok)
	}
	if got := lookups.Load(); got != 1 {
		t.Errorf("3 requests with one token: %d signature checks, want 1", got)
	}
	mustVerify(t, v, a.sign(t, nil, claims("jti", "2")))
	if got := lookups.Load(); got != 2 {
		t.Errorf("another token: %d signature checks, want 2", got)
	}
	now := testNow
	v.now = func() time.Time { return now }
	now = testNow.Add(time.Minute)
	mustVerify(t, v, tok)
	if got := lookups.Load(); got != 3 {
		t.Errorf("after the TTL: %d signature checks, want 3", got)
	}
	if got := s.fetches.Load(); got != 1 {
		t.Errorf("%d fetches of the key set, want 1", got)
	}
}

// TestJWTCacheExpiry checks that a remembered token stops at its expiry:
// it is checked again then, and refused once past the leeway.
func TestJWTCacheExpiry(t *testing.T) {
	t.Parallel()
	a, _, _, _ := keys(t)
	v := newTestJWT(t, newKeyServer(t, a), JWTOptions{CacheTTL: time.Hour})
	lookups := countKeyLookups(v)
	tok := a.sign(t, nil, claims("exp", testNow.Add(10*time.Second).Unix()))
	mustVerify(t, v, tok)
	now := testNow.Add(10 * time.Second)
	v.now = func() time.Time { return now }
	mustVerify(t, v, tok) // within the leeway
	if got := lookups.Load(); got != 2 {
		t.Errorf("at its expiry: %d signature checks, want 2", got)
	}
	now = testNow.Add(time.Minute)
	if _, err := v.VerifyToken(t.Context(), tok); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("past its expiry and the leeway: %v, want a refusal", err)
	}
}

func TestCacheBounded(t *testing.T) {
	t.Parallel()
	c := newTokenCache(2, time.Minute)
	info := mcprt.TokenInfo{Subject: "alice"}
	c.put("one", info, testNow)
	c.put("two", info, testNow)
	c.get("one", testNow) // two is now the least recently used
	c.put("three", info, testNow)
	if c.len() != 2 {
		t.Errorf("%d entries, want 2", c.len())
	}
	for tok, want := range map[string]bool{"one": true, "two": false, "three": true} {
		if _, ok := c.get(tok, testNow); ok != want {
			t.Errorf("get(%q) found %v, want %v", tok, ok, want)
		}
	}
	for el := c.order.Front(); el != nil; el = el.Next() {
		if s := fmt.Sprintf("%#v", *el.Value.(*cacheEntry)); strings.Contains(s, `"one"`) || strings.Contains(s, `"three"`) {
			t.Errorf("an entry holds its token: %s", s)
		}
	}
	if _, ok := c.get("one", testNow.Add(time.Minute)); ok {
		t.Error("an entry outlived the TTL")
	}
	if c.len() != 1 {
		t.Errorf("%d entries after one expired, want 1", c.len())
	}
	off := newTokenCache(-1, 0)
	off.put("one", info, testNow)
	if _, ok := off.get("one", testNow); ok {
		t.Error("a cache of negative size remembers")
	}
}

// TestCacheCopies checks that what a handler does to its token's scopes
// and claims does not reach the next request's.
func TestCacheCopies(t *testing.T) {
	t.Parallel()
	c := newTokenCache(0, 0)
	c.put("tok", mcprt.TokenInfo{Scopes: []string{"a"}, Claims: map[string]any{"k": "v"}}, testNow)
	got, _ := c.get("tok", testNow)
	got.Scopes[0] = "changed"
	got.Claims["k"] = "changed"
	again, _ := c.get("tok", testNow)
	if again.Scopes[0] != "a" || again.Claims["k"] != "v" {
		t.Errorf("cached info changed to %+v", again)
	}
}
