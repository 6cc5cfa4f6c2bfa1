package authgate

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"sync"
	"time"
)

// DefaultNonceLifetime is how long a server nonce is accepted when the
// configuration gives no lifetime.
const DefaultNonceLifetime = 5 * time.Minute

// MinNonceKey is the least length of a nonce key.
const MinNonceKey = 16

// nonces makes and checks the server's DPoP nonces (RFC 9449 §9). A
// nonce is the time it was made, sealed with AES-GCM under a key derived
// from the configured one and bound to the resource: any replica with the
// key opens any replica's nonce, and none keeps a list of them, as
// SEP-1932 suggests for stateless servers.
type nonces struct {
	aead cipher.AEAD
	life time.Duration
	ad   []byte // the resource, so that a nonce serves one resource only

	mu   sync.Mutex
	cur  string    // the nonce handed out now
	made time.Time // when cur was made
}

func newNonces(key []byte, life time.Duration, resource string) (*nonces, error) {
	if len(key) < MinNonceKey {
		return nil, errors.New("DPoP: the nonce key must have at least 16 bytes")
	}
	if life == 0 {
		life = DefaultNonceLifetime
	}
	if life < 0 {
		return nil, errors.New("DPoP: the nonce lifetime must not be negative")
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte("mcpgen DPoP nonce key"))
	block, err := aes.NewCipher(m.Sum(nil))
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &nonces{aead: aead, life: life, ad: []byte(resource)}, nil
}

// seal makes a nonce of time t: base64url of a random GCM nonce and the
// sealed Unix time in milliseconds.
func (n *nonces) seal(t time.Time) string {
	buf := make([]byte, n.aead.NonceSize(), n.aead.NonceSize()+8+n.aead.Overhead())
	rand.Read(buf)
	var ts [8]byte
	binary.BigEndian.PutUint64(ts[:], uint64(t.UnixMilli()))
	return b64.EncodeToString(n.aead.Seal(buf, buf, ts[:], n.ad))
}

// open returns when nonce s was made, or false for one this key did not
// seal for this resource.
func (n *nonces) open(s string) (time.Time, bool) {
	b, err := b64.DecodeString(s)
	size := n.aead.NonceSize()
	if err != nil || len(b) != size+8+n.aead.Overhead() {
		return time.Time{}, false
	}
	ts, err := n.aead.Open(nil, b[:size], b[size:], n.ad)
	if err != nil {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(binary.BigEndian.Uint64(ts))), true
}

// nonceSkew is how far in the future a nonce may have been made, for
// replicas whose clocks differ a little.
const nonceSkew = 5 * time.Second

// valid reports whether s is a nonce made within the lifetime.
func (n *nonces) valid(s string, now time.Time) bool {
	made, ok := n.open(s)
	if !ok {
		return false
	}
	age := now.Sub(made)
	return age <= n.life && age >= -nonceSkew
}

// stale reports whether a client should be handed a newer nonce than s,
// which is valid: once half its lifetime has passed.
func (n *nonces) stale(s string, now time.Time) bool {
	made, _ := n.open(s)
	return now.Sub(made) > n.life/2
}

// current returns the nonce to hand out at now, made anew every quarter
// of the lifetime, so that one seal serves many answers.
func (n *nonces) current(now time.Time) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cur == "" || now.Sub(n.made) > n.life/4 || now.Before(n.made) {
		n.cur, n.made = n.seal(now), now
	}
	return n.cur
}
