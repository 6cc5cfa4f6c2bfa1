package mrtr

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"time"
)

// State is what a request state carries from one round to the next: the
// request it belongs to, whom it was issued to, when, and the answers so
// far.
type State struct {
	Method string `json:"m"`
	Name   string `json:"n"`
	// Principal is a digest of whom the request's bearer token named,
	// empty without authorization: no one else may continue the request.
	Principal string                     `json:"p,omitempty"`
	Issued    int64                      `json:"t"` // Unix seconds
	Answers   map[string]json.RawMessage `json:"a,omitempty"`
}

// Sealer seals request states with HMAC-SHA256 under one key and opens
// only what it sealed. Every replica that serves the same clients must
// share the key.
type Sealer struct {
	key    []byte
	maxAge time.Duration
}

// DefaultMaxAge is how long a request state stays valid.
const DefaultMaxAge = time.Hour

// NewSealer returns a sealer with key, or with a random key of 32 bytes
// when key is empty. States older than maxAge (DefaultMaxAge when zero or
// less) are refused.
func NewSealer(key []byte, maxAge time.Duration) *Sealer {
	if len(key) == 0 {
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			panic("mrtr: no randomness for a key: " + err.Error())
		}
	}
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
	return &Sealer{key: bytes.Clone(key), maxAge: maxAge}
}

// Seal returns st as an opaque token: its JSON and its MAC, base64url
// encoded and joined by a dot.
func (s *Sealer) Seal(st State) string {
	payload, err := json.Marshal(st)
	if err != nil { // answers are raw JSON checked on the way in
		panic("mrtr: sealing a state: " + err.Error())
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(payload))
}

func (s *Sealer) mac(payload []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write(payload)
	return m.Sum(nil)
}

// ErrBadState is the error of a request state that this server did not
// seal, that was altered, that belongs to another request or principal,
// or that expired.
var ErrBadState = errors.New("invalid request state")

// Open checks token and returns the state it seals, when it was sealed by
// s for the request method and name of principal and has not expired at
// now.
func (s *Sealer) Open(token, method, name, principal string, now time.Time) (State, error) {
	enc := base64.RawURLEncoding.Strict() // one text for each state, no other
	dot := bytes.IndexByte([]byte(token), '.')
	if dot < 0 || !tokenText(token) {
		return State{}, ErrBadState
	}
	payload, err1 := enc.DecodeString(token[:dot])
	sum, err2 := enc.DecodeString(token[dot+1:])
	if err1 != nil || err2 != nil || !hmac.Equal(sum, s.mac(payload)) {
		return State{}, ErrBadState
	}
	var st State
	if err := json.Unmarshal(payload, &st); err != nil {
		return State{}, ErrBadState
	}
	age := now.Sub(time.Unix(st.Issued, 0))
	if st.Method != method || st.Name != name || st.Principal != principal || age < -time.Minute || age > s.maxAge {
		return State{}, ErrBadState
	}
	return st, nil
}

// tokenText reports whether token holds only the base64url alphabet and
// dots. Go's base64 decoders skip '\r' and '\n' even when strict, so
// without this check a state with line breaks inserted would open as the
// state without them, and one state would have many texts.
func tokenText(token string) bool {
	for i := 0; i < len(token); i++ {
		switch c := token[i]; {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}
