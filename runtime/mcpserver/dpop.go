package mcpserver

import (
	"slices"
	"time"

	"github.com/mcpgen/mcpgen/internal/authgate"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// DPoPMode says whether the resource takes sender-constrained access
// tokens: DPoP (RFC 9449) as SEP-1932 profiles it for MCP. A client
// sends such a token as "Authorization: DPoP <token>" with a proof, a
// JWT signed by the key the token is bound to (its cnf.jkt), in the DPoP
// header of every request.
type DPoPMode int

const (
	// DPoPOff takes bearer tokens only. A token bound to a key is refused
	// all the same, so that a stolen one cannot be replayed as a bearer
	// token.
	DPoPOff = DPoPMode(authgate.DPoPOff)
	// DPoPAccepted takes bearer tokens and DPoP-bound tokens with their
	// proofs; a bound token sent as a bearer token is refused.
	DPoPAccepted = DPoPMode(authgate.DPoPAccepted)
	// DPoPRequired takes DPoP-bound tokens with their proofs only.
	DPoPRequired = DPoPMode(authgate.DPoPRequired)
)

// Defaults of DPoPOptions.
const (
	// DefaultDPoPWindow is how far a proof's iat may be from the server's
	// clock, either way: the ±5 minutes of SEP-1932.
	DefaultDPoPWindow = authgate.DefaultDPoPWindow
	// DefaultNonceLifetime is how long a server nonce is accepted.
	DefaultNonceLifetime = authgate.DefaultNonceLifetime
)

// DefaultDPoPAlgorithms are the proof algorithms taken when DPoPOptions
// names none: every asymmetric algorithm of RFC 7518 and RFC 8037. HMAC
// and "none" are never taken.
var DefaultDPoPAlgorithms = slices.Clone(authgate.DefaultDPoPAlgorithms)

// DPoPOptions tune the checks of DPoP proofs. Every field may be left
// zero.
//
// Each proof is checked as RFC 9449 §4.3 says: one DPoP header holding a
// JWT typed dpop+jwt, signed with one of Algorithms by the public key in
// its jwk header; htm the request's method; htu the URI of Auth.Resource
// (without query or fragment, after RFC 3986 normalization), so that a
// server behind a proxy compares the URI clients dial; iat within Window
// of now; ath the hash of the access token; a jti not seen within the
// window; the token bound (cnf.jkt) to the proof's key.
type DPoPOptions struct {
	// Algorithms are the JWS algorithms proofs may be signed with, a
	// subset of DefaultDPoPAlgorithms. Nil means all of them.
	Algorithms []string
	// Window is how far a proof's iat may be from now, either way. Zero
	// means DefaultDPoPWindow.
	Window time.Duration
	// Replay remembers the proofs taken within the window, so that none
	// is taken twice. Nil means Server.DPoPReplay, else one in memory.
	// Replicas serving the same clients share one, such as the
	// mcpredis backend's.
	Replay ReplayCache
	// NonceKey, when set, makes the server require a nonce of its own in
	// every proof (RFC 9449 §9): a proof without one, or with a stale one,
	// is answered 401 use_dpop_nonce with a new nonce in the DPoP-Nonce
	// header. A nonce is a time sealed under this key (AES-GCM), so any
	// replica with the key accepts any replica's nonce and none keeps
	// state: give every replica the same key, of at least 16 random bytes.
	NonceKey []byte
	// NonceLifetime is how long a nonce is accepted. A newer one is handed
	// out, in DPoP-Nonce, to a client whose nonce is half that old. Zero
	// means DefaultNonceLifetime.
	NonceLifetime time.Duration
}

// ReplayCache remembers the DPoP proofs a server took, so that a proof
// replayed within its window is refused: the contract of
// [mcpstore.ReplayCache]. The built-in one keeps them in the process;
// package mcpredis shares them between replicas.
type ReplayCache = mcpstore.ReplayCache

// NewMemoryReplayCache returns a ReplayCache of one process.
func NewMemoryReplayCache() ReplayCache { return authgate.NewMemoryReplayCache() }

// dpopConfig is the gate's view of a's DPoP settings; replay is the cache
// used when DPoPOptions names none.
func (a *Auth) dpopConfig(replay ReplayCache) authgate.DPoPConfig {
	c := authgate.DPoPConfig{Mode: authgate.DPoPMode(a.DPoP)}
	if o := a.DPoPOptions; o != nil {
		c.Algorithms, c.Window, c.NonceKey, c.NonceLifetime = o.Algorithms, o.Window, o.NonceKey, o.NonceLifetime
		if o.Replay != nil {
			replay = o.Replay
		}
	}
	if replay != nil {
		c.Replay = replay
	}
	return c
}
