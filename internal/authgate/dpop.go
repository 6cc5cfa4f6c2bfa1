package authgate

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/internal/ctxkey"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// DPoPMode says whether a gate takes sender-constrained tokens (DPoP,
// RFC 9449, as SEP-1932 profiles it for MCP).
type DPoPMode int

const (
	// DPoPOff takes bearer tokens only. A token bound to a key (cnf.jkt)
	// is refused all the same: a bearer cannot prove it holds the key.
	DPoPOff DPoPMode = iota
	// DPoPAccepted takes bearer tokens and DPoP-bound tokens with proofs.
	DPoPAccepted
	// DPoPRequired takes DPoP-bound tokens with proofs only.
	DPoPRequired
)

// DefaultDPoPWindow is how far a proof's iat may lie from the server's
// clock, either way, when the configuration gives no window: the ±5
// minutes of SEP-1932.
const DefaultDPoPWindow = 5 * time.Minute

// DPoPConfig is the DPoP part of a gate's configuration: the fields of
// mcpserver.DPoPOptions and the mode.
type DPoPConfig struct {
	Mode DPoPMode
	// Algorithms the proofs may be signed with; nil means
	// DefaultDPoPAlgorithms.
	Algorithms []string
	// Window is how far iat may lie from now; zero means
	// DefaultDPoPWindow.
	Window time.Duration
	// Replay remembers the proofs' identifiers; nil means a
	// MemoryReplayCache of the gate's own.
	Replay ReplayCache
	// NonceKey, when set, makes the gate require server nonces
	// (RFC 9449 §9), sealed under this key.
	NonceKey []byte
	// NonceLifetime is how long a nonce is accepted; zero means
	// DefaultNonceLifetime.
	NonceLifetime time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// ReplayCache remembers the proofs a gate accepted, so that none is
// accepted twice within the window its iat allows (RFC 9449 §11.1).
// Replicas that serve the same clients share one.
type ReplayCache interface {
	// Use records that id was used, until the time given, and reports
	// whether this is its first use. An error means it could not tell.
	Use(ctx context.Context, id string, until time.Time) (first bool, err error)
}

// dpopGate is what a gate with DPoP checks proofs with.
type dpopGate struct {
	mode     DPoPMode
	algs     []string
	window   time.Duration
	replay   ReplayCache
	nonces   *nonces // nil: no server nonces
	now      func() time.Time
	htu      string // the resource as htu must name it, normalized
	noToken  []string
	badToken []string // the challenges of a refused bearer token
}

// newDPoP checks c and makes the DPoP part of a gate for resource, whose
// scopes and metadata URL the challenges name.
func newDPoP(c DPoPConfig, resource string, scopes []string, murl string) (*dpopGate, error) {
	switch c.Mode {
	case DPoPOff:
		return nil, nil
	case DPoPAccepted, DPoPRequired:
	default:
		return nil, fmt.Errorf("DPoP mode %d is not DPoPOff, DPoPAccepted or DPoPRequired", c.Mode)
	}
	d := &dpopGate{mode: c.Mode, algs: c.Algorithms, window: c.Window, replay: c.Replay, now: c.Now}
	if d.algs == nil {
		d.algs = DefaultDPoPAlgorithms
	}
	if len(d.algs) == 0 {
		return nil, errors.New("DPoP: at least one algorithm is required")
	}
	for _, a := range d.algs {
		if !knownAlg(a) {
			return nil, fmt.Errorf("DPoP: algorithm %q is not one of %s", a, strings.Join(DefaultDPoPAlgorithms, ", "))
		}
	}
	d.algs = slices.Clone(d.algs)
	if d.window == 0 {
		d.window = DefaultDPoPWindow
	}
	if d.window < 0 {
		return nil, errors.New("DPoP: the window must not be negative")
	}
	if d.replay == nil {
		d.replay = NewMemoryReplayCache()
	}
	if d.now == nil {
		d.now = time.Now
	}
	if c.NonceKey != nil {
		n, err := newNonces(c.NonceKey, c.NonceLifetime, resource)
		if err != nil {
			return nil, err
		}
		d.nonces = n
	}
	htu, ok := NormalizeURI(resource)
	if !ok {
		return nil, fmt.Errorf("resource %q: not an absolute http or https URL", resource)
	}
	d.htu = htu
	plain := DPoPChallenge("", "", d.algs, scopes, murl)
	if c.Mode == DPoPRequired {
		d.noToken = []string{plain}
		d.badToken = []string{DPoPChallenge("invalid_token", "this resource takes DPoP-bound tokens only", d.algs, scopes, murl)}
	} else {
		d.noToken = []string{Challenge("", scopes, murl), plain}
		d.badToken = []string{Challenge("invalid_token", scopes, murl), plain}
	}
	return d, nil
}

// DPoPChallenge returns a WWW-Authenticate value of the DPoP scheme
// (RFC 9449 §7.1): algs (the algorithms joined by spaces), then error
// and error_description when not empty, scope (without offline_access;
// omitted when none) and resource_metadata, each a quoted string, quoted
// as Challenge quotes.
func DPoPChallenge(errCode, desc string, algs, scopes []string, metadataURL string) string {
	var b strings.Builder
	b.WriteString("DPoP algs=")
	quote(&b, strings.Join(algs, " "))
	if errCode != "" {
		b.WriteString(", error=")
		quote(&b, errCode)
	}
	if desc != "" {
		b.WriteString(", error_description=")
		quote(&b, desc)
	}
	if sc := withoutOffline(scopes); len(sc) > 0 {
		b.WriteString(", scope=")
		quote(&b, strings.Join(sc, " "))
	}
	b.WriteString(", resource_metadata=")
	quote(&b, metadataURL)
	return b.String()
}

// ParseCredentials reads one Authorization header value of the Bearer or
// the DPoP scheme (RFC 6750 §2.1, RFC 9449 §7.1; the scheme in any case,
// spaces, then a token68). It returns the scheme as "bearer" or "dpop";
// ok is false for another scheme or a malformed token.
func ParseCredentials(v string) (scheme, token string, ok bool) {
	name, rest, found := strings.Cut(v, " ")
	switch {
	case !found:
		return "", "", false
	case strings.EqualFold(name, "bearer"):
		scheme = "bearer"
	case strings.EqualFold(name, "dpop"):
		scheme = "dpop"
	default:
		return "", "", false
	}
	t := strings.Trim(rest, " ")
	if !b64token(t) {
		return "", "", false
	}
	return scheme, t, true
}

// BoundKey returns the thumbprint a token is bound to, its cnf.jkt
// (RFC 9449 §6), or "" for a token bound to no key.
func BoundKey(t *mcprt.TokenInfo) string {
	cnf, _ := t.Claims["cnf"].(map[string]any)
	jkt, _ := cnf["jkt"].(string)
	return jkt
}

// refusal logs why (unless it is empty) and returns the 401 denial of
// reason with challenges.
func (g *Gate) refusal(r *http.Request, log *slog.Logger, reason, why string, challenges ...string) *Denial {
	if log != nil && why != "" {
		log.LogAttrs(r.Context(), slog.LevelInfo, "mcp: DPoP request refused", slog.String("error", why))
	}
	return &Denial{Status: http.StatusUnauthorized, Reason: reason, Message: MessageUnauthorized,
		Challenges: challenges, nonce: g.dpop.nonces != nil}
}

// proofRefusal is the denial of a proof, or of a token's binding to it.
func (g *Gate) proofRefusal(r *http.Request, log *slog.Logger, e *ProofError) *Denial {
	why := e.Error()
	if e.Code == ReasonDPoPNonce {
		why = "" // the protocol's first step, not a fault
	}
	return g.refusal(r, log, e.Code, why, DPoPChallenge(e.Code, e.Description, g.dpop.algs, g.scopes, g.metadataURL))
}

// AnswerDPoP writes the answer of a denial on a gate that takes DPoP:
// its status and challenges, and a fresh nonce when the gate hands them
// out. Unauthorized calls it on such a gate.
func (g *Gate) AnswerDPoP(w http.ResponseWriter, f *Denial) {
	h := w.Header()
	for _, c := range f.Challenges {
		h.Add("WWW-Authenticate", c)
	}
	if f.nonce {
		h.Set("DPoP-Nonce", g.dpop.nonces.current(g.dpop.now()))
	}
	http.Error(w, f.Message, f.Status)
}

// VerifyDPoP checks the credentials of r on a gate that takes DPoP, and
// answers nothing: a bearer token as Authenticate checks it (refused
// where DPoP is required, or when it is bound to a key), or a DPoP-bound
// token with its proof. On success it returns the token and r with it in
// its context, and sets a renewed nonce in w's DPoP-Nonce header when the
// client's is getting old; otherwise the denial to answer. Verify calls
// it on such a gate.
func (g *Gate) VerifyDPoP(w http.ResponseWriter, r *http.Request, log *slog.Logger) (*mcprt.TokenInfo, *http.Request, *Denial) {
	d := g.dpop
	vals := r.Header.Values("Authorization")
	if len(vals) == 0 {
		return nil, nil, g.refusal(r, nil, ReasonMissingToken, "", d.noToken...)
	}
	scheme, token, ok := "", "", len(vals) == 1
	if ok {
		scheme, token, ok = ParseCredentials(vals[0])
	}
	switch {
	case !ok:
		return nil, nil, g.refusal(r, nil, ReasonInvalidToken, "", d.badToken...)
	case scheme == "bearer" && d.mode == DPoPRequired:
		return nil, nil, g.refusal(r, log, ReasonInvalidToken, "a bearer token where DPoP is required", d.badToken...)
	case scheme == "bearer":
		info, err := g.verifier.VerifyToken(r.Context(), token)
		if err != nil {
			return nil, nil, g.refusal(r, log, ReasonInvalidToken, redact(err, token), d.badToken...)
		}
		if BoundKey(&info) != "" {
			return nil, nil, g.refusal(r, log, ReasonInvalidToken, "a DPoP-bound token sent as a bearer token",
				DPoPChallenge("invalid_token", "a DPoP-bound token needs the DPoP scheme and a proof", d.algs, g.scopes, g.metadataURL))
		}
		info.DPoPThumbprint = "" // no proof was checked
		t := &info
		return t, r.WithContext(ctxkey.WithToken(r.Context(), t)), nil
	}
	proofs := r.Header.Values("DPoP")
	if len(proofs) != 1 {
		desc := "the request has no DPoP proof"
		if len(proofs) > 1 {
			desc = "the request has more than one DPoP header"
		}
		return nil, nil, g.proofRefusal(r, log, badProof(desc))
	}
	now := d.now()
	p, perr := d.check(proofs[0], r.Method, token, now)
	if perr != nil {
		return nil, nil, g.proofRefusal(r, log, perr)
	}
	info, err := g.verifier.VerifyToken(r.Context(), token)
	if err != nil {
		return nil, nil, g.refusal(r, log, ReasonInvalidToken, redact(err, token), DPoPChallenge("invalid_token", "", d.algs, g.scopes, g.metadataURL))
	}
	switch jkt := BoundKey(&info); {
	case jkt == "":
		return nil, nil, g.proofRefusal(r, log, &ProofError{"invalid_token", "the token is not bound to a key"})
	case jkt != p.Thumbprint:
		return nil, nil, g.proofRefusal(r, log, &ProofError{"invalid_token", "the token is bound to another key than the proof's"})
	}
	first, err := d.replay.Use(r.Context(), replayID(p), p.IssuedAt.Add(d.window))
	if err != nil {
		if log != nil {
			log.LogAttrs(r.Context(), slog.LevelError, "mcp: DPoP replay cache", slog.String("error", err.Error()))
		}
		return nil, nil, &Denial{Status: http.StatusServiceUnavailable, Reason: ReasonReplayCache, Message: MessageReplayCache}
	}
	if !first {
		return nil, nil, g.proofRefusal(r, log, badProof("the proof was used before"))
	}
	if n := d.nonces; n != nil && n.stale(p.Nonce, now) {
		w.Header().Set("DPoP-Nonce", n.current(now))
	}
	info.DPoPThumbprint = p.Thumbprint
	t := &info
	return t, r.WithContext(ctxkey.WithToken(r.Context(), t)), nil
}

// check holds proof s to a request of method carrying token, at now:
// RFC 9449 §4.3 steps 2 to 12a; the key binding (12b) and the replay
// check follow once the token is verified.
func (d *dpopGate) check(s, method, token string, now time.Time) (*Proof, *ProofError) {
	p, err := ParseProof(s, d.algs)
	if err != nil {
		return nil, err
	}
	if p.HTM != method {
		return nil, badProof("the proof's htm is not the request's method")
	}
	if htu, ok := NormalizeURI(p.HTU); !ok || htu != d.htu {
		return nil, badProof("the proof's htu is not this resource's URI")
	}
	if age := now.Sub(p.IssuedAt); age > d.window || age < -d.window {
		return nil, badProof("the proof's iat is outside the accepted window")
	}
	if !p.HasATH {
		return nil, badProof("the proof has no ath for the access token")
	}
	if p.ATH != TokenHash(token) {
		return nil, badProof("the proof's ath is not the hash of the access token")
	}
	if d.nonces != nil && !d.nonces.valid(p.Nonce, now) {
		return nil, &ProofError{Code: "use_dpop_nonce", Description: "the resource requires a nonce of its own in the proof"}
	}
	return p, nil
}

// replayID is what the replay cache keeps of a proof: a digest of its key
// and jti, so that one client's identifiers never collide with
// another's and every entry has the same size.
func replayID(p *Proof) string {
	h := sha256.New()
	h.Write([]byte(p.Thumbprint))
	h.Write([]byte{0})
	h.Write([]byte(p.JTI))
	return b64.EncodeToString(h.Sum(nil))
}

// redact is err's text with every occurrence of token replaced.
func redact(err error, token string) string {
	return strings.ReplaceAll(err.Error(), token, "[token]")
}

// forbidChallenge is the 403 challenge of a token that lacks need: of the
// DPoP scheme for a token presented with it.
func (g *Gate) forbidChallenge(t *mcprt.TokenInfo, need []string) string {
	if g.dpop != nil && t != nil && t.DPoPThumbprint != "" {
		return DPoPChallenge("insufficient_scope", "", g.dpop.algs, need, g.metadataURL)
	}
	return Challenge("insufficient_scope", need, g.metadataURL)
}

// ForbidToken is Forbid for the request of t, whose challenge is of the
// scheme t was presented with.
func (g *Gate) ForbidToken(w http.ResponseWriter, t *mcprt.TokenInfo, need []string, body []byte) {
	h := w.Header()
	h.Set("WWW-Authenticate", g.forbidChallenge(t, need))
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	w.Write(body)
}

// DPoPMetadata returns the DPoP members of the gate's RFC 9728 document:
// the proof algorithms, and whether only DPoP-bound tokens are taken. A
// gate without DPoP has none.
func (g *Gate) DPoPMetadata() (algs []string, required bool) {
	if g.dpop == nil {
		return nil, false
	}
	return g.dpop.algs, g.dpop.mode == DPoPRequired
}
