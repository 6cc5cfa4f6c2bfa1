package authgate

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/replaytest"
)

// TestDPoPNonce: a gate with a nonce key answers a proof without its
// nonce, or with a wrong or expired one, with use_dpop_nonce and a new
// nonce; a proof with the nonce passes; a nonce half its lifetime old is
// renewed on success.
func TestDPoPNonce(t *testing.T) {
	t.Parallel()
	key := []byte("0123456789abcdef0123456789abcdef")
	f := newDPoPFixture(t, DPoPConfig{Mode: DPoPAccepted, NonceKey: key})
	withNonce := func(n string) string {
		c := proofFor("POST", dpopResource, "bound", f.now)
		if n != "" {
			c["nonce"] = n
		}
		return f.p.sign(t, c, nil)
	}
	needNonce := refusal("use_dpop_nonce", "the resource requires a nonce of its own in the proof")
	rec, _ := f.send("POST", "DPoP bound", withNonce(""))
	nonce := rec.Header().Get("DPoP-Nonce")
	if rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != needNonce || nonce == "" {
		t.Fatalf("a proof without a nonce: %d %q, nonce %q", rec.Code, rec.Header().Values("WWW-Authenticate"), nonce)
	}
	if strings.Trim(nonce, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		t.Errorf("nonce %q is not of the NQCHAR syntax this gate writes", nonce)
	}
	if rec, info := f.send("POST", "DPoP bound", withNonce(nonce)); rec.Code != 200 || info == nil || rec.Header().Get("DPoP-Nonce") != "" {
		t.Errorf("with the nonce: %d %q, nonce %q", rec.Code, rec.Header().Values("WWW-Authenticate"), rec.Header().Get("DPoP-Nonce"))
	}
	for name, n := range map[string]string{
		"a wrong nonce":    "definitely-not-the-server-nonce",
		"a changed nonce":  nonce[:len(nonce)-2] + "AA",
		"another's nonce":  other(t, []byte("another key of thirty-two bytes!"), dpopResource, f.now),
		"another resource": other(t, key, "https://other.example.com/mcp", f.now),
	} {
		if rec, _ := f.send("POST", "DPoP bound", withNonce(n)); rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != needNonce || rec.Header().Get("DPoP-Nonce") == "" {
			t.Errorf("%s: %d %q", name, rec.Code, rec.Header().Values("WWW-Authenticate"))
		}
	}

	// A replica with the same key takes the nonce, and hands out its own
	// that this gate takes.
	replica := newDPoPFixture(t, DPoPConfig{Mode: DPoPAccepted, NonceKey: key})
	replica.tokens["bound"] = f.tokens["bound"]
	replica.p = f.p
	if rec, _ := replica.send("POST", "DPoP bound", withNonce(nonce)); rec.Code != 200 {
		t.Errorf("the nonce on a replica: %d %q", rec.Code, rec.Header().Values("WWW-Authenticate"))
	}
	rec, _ = replica.send("POST", "DPoP bound", withNonce(""))
	if rec, _ := f.send("POST", "DPoP bound", withNonce(rec.Header().Get("DPoP-Nonce"))); rec.Code != 200 {
		t.Errorf("a replica's nonce: %d %q", rec.Code, rec.Header().Values("WWW-Authenticate"))
	}

	// Three minutes on, the nonce still passes and a new one is handed
	// out; six minutes on it is refused.
	f.now = f.now.Add(3 * time.Minute)
	rec, _ = f.send("POST", "DPoP bound", withNonce(nonce))
	if renewed := rec.Header().Get("DPoP-Nonce"); rec.Code != 200 || renewed == "" || renewed == nonce {
		t.Errorf("a nonce 3 minutes old: %d, renewed %q", rec.Code, renewed)
	}
	f.now = f.now.Add(3 * time.Minute)
	if rec, _ := f.send("POST", "DPoP bound", withNonce(nonce)); rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != needNonce {
		t.Errorf("a nonce 6 minutes old: %d %q", rec.Code, rec.Header().Values("WWW-Authenticate"))
	}
}

// other is a nonce made at now by a gate with key for resource.
func other(t *testing.T, key []byte, resource string, now time.Time) string {
	n, err := newNonces(key, 0, resource)
	if err != nil {
		t.Fatal(err)
	}
	return n.current(now)
}

// TestNonceRotation: one nonce serves a quarter of the lifetime, then a
// new one is made.
func TestNonceRotation(t *testing.T) {
	t.Parallel()
	n, err := newNonces(make([]byte, 16), 4*time.Minute, dpopResource)
	if err != nil {
		t.Fatal(err)
	}
	a := n.current(dpopNow)
	if b := n.current(dpopNow.Add(time.Minute)); b != a {
		t.Error("a nonce was made anew within a quarter of the lifetime")
	}
	if c := n.current(dpopNow.Add(time.Minute + time.Second)); c == a || !n.valid(c, dpopNow.Add(time.Minute+time.Second)) {
		t.Error("no new nonce after a quarter of the lifetime")
	}
	if !n.valid(a, dpopNow.Add(4*time.Minute)) || n.valid(a, dpopNow.Add(4*time.Minute+time.Millisecond)) {
		t.Error("a nonce's lifetime is not 4 minutes")
	}
}

// TestMemoryReplayCache runs the replay cache contract on the memory
// cache, on a clock of the test's.
func TestMemoryReplayCache(t *testing.T) {
	t.Parallel()
	now := dpopNow
	c := NewMemoryReplayCache()
	c.now = func() time.Time { return now }
	replaytest.Run(t, c, func() time.Time { return now }, func(d time.Duration) { now = now.Add(d) })
	now = now.Add(time.Hour)
	c.Use(t.Context(), "sweep", now.Add(time.Minute))
	if c.Len() != 1 {
		t.Errorf("after the sweep the cache holds %d entries, want 1", c.Len())
	}
}

// TestDPoPProofSyntax: the parser refuses what is not one JWS before
// looking further.
func TestDPoPProofSyntax(t *testing.T) {
	t.Parallel()
	p := newProver(t, "ES256")
	good := p.sign(t, proofFor("POST", dpopResource, "bound", dpopNow), nil)
	if _, err := ParseProof(good, DefaultDPoPAlgorithms); err != nil {
		t.Fatal(err)
	}
	h, rest, _ := strings.Cut(good, ".")
	for name, s := range map[string]string{
		"four parts":   good + ".x",
		"two parts":    h + "." + rest[:strings.IndexByte(rest, '.')],
		"padding":      h + "=." + rest,
		"too long":     good + strings.Repeat("A", MaxProofBytes),
		"header array": b64.EncodeToString([]byte(`["x"]`)) + "." + rest,
	} {
		if _, err := ParseProof(s, DefaultDPoPAlgorithms); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	// An algorithm the gate was not told to take is refused.
	if _, err := ParseProof(good, []string{"EdDSA"}); err == nil {
		t.Error("ES256 taken by a gate of EdDSA only")
	}
}
