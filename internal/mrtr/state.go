package mrtr

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"sync"
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

// Sealer seals request states with HMAC-SHA256 under its first key and
// opens what any of its keys sealed, so that a key can be rotated: add the
// new key first, and drop the old one once its states have expired. Every
// replica that serves the same clients must share the keys.
type Sealer struct {
	keys   [][]byte
	maxAge time.Duration
}

// DefaultMaxAge is how long a request state stays valid.
const DefaultMaxAge = time.Hour

// NewSealer returns a sealer with key, or with a random key of 32 bytes
// when key is empty. States older than maxAge (DefaultMaxAge when zero or
// less) are refused.
func NewSealer(key []byte, maxAge time.Duration) *Sealer {
	return NewRing([][]byte{key}, maxAge)
}

// NewRing returns a sealer that seals with the first of keys and opens
// with any of them; empty keys are skipped, and with none left it has a
// random key of 32 bytes.
func NewRing(keys [][]byte, maxAge time.Duration) *Sealer {
	s := &Sealer{maxAge: maxAge}
	for _, k := range keys {
		if len(k) > 0 {
			s.keys = append(s.keys, bytes.Clone(k))
		}
	}
	if len(s.keys) == 0 {
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			panic("mrtr: no randomness for a key: " + err.Error())
		}
		s.keys = [][]byte{key}
	}
	if s.maxAge <= 0 {
		s.maxAge = DefaultMaxAge
	}
	return s
}

// Seal returns st as an opaque token: its JSON and its MAC, base64url
// encoded and joined by a dot.
func (s *Sealer) Seal(st State) string {
	payload, err := json.Marshal(st)
	if err != nil { // answers are raw JSON checked on the way in
		panic("mrtr: sealing a state: " + err.Error())
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(mac(s.keys[0], payload))
}

func mac(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

// sealed reports whether sum is the MAC of payload under one of the keys.
func (s *Sealer) sealed(payload, sum []byte) bool {
	for _, k := range s.keys {
		if hmac.Equal(sum, mac(k, payload)) {
			return true
		}
	}
	return false
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
	if err1 != nil || err2 != nil || !s.sealed(payload, sum) {
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

// BadStateText is what a server answers, as invalid params, to a request
// state that [Sealer.Open] refuses.
const BadStateText = "requestState is not one this server issued for this request, or it expired"

// Answers returns the answers of a request of method about name (a tool
// or prompt name, a resource URI) made for principal: those of the
// earlier rounds that state carries, when s sealed it for the request,
// and the responses the retry sends now, which take precedence. An empty
// state carries none; one that does not open is [ErrBadState].
func (s *Sealer) Answers(state string, responses map[string]json.RawMessage, method, name, principal string, now time.Time) (map[string]json.RawMessage, error) {
	answers := make(map[string]json.RawMessage, len(responses))
	if state != "" {
		st, err := s.Open(state, method, name, principal, now)
		if err != nil {
			return nil, err
		}
		for k, v := range st.Answers {
			answers[k] = v
		}
	}
	for k, v := range responses {
		answers[k] = v
	}
	return answers, nil
}

// Issue returns the request state of the next round of a request: the
// answers its questions used, sealed for the request of principal.
func (s *Sealer) Issue(method, name, principal string, used map[string]json.RawMessage, now time.Time) string {
	return s.Seal(State{Method: method, Name: name, Principal: principal, Issued: now.Unix(), Answers: used})
}

// Keyring is the sealer of an adapter's request states: made from the
// keys set, or with a random key on first use when none were.
type Keyring struct {
	mu     sync.Mutex
	sealer *Sealer
}

// SetKeys makes the sealer of keys, as [NewRing] does: the first seals,
// any opens.
func (k *Keyring) SetKeys(keys [][]byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.sealer = NewRing(keys, 0)
}

// Sealer returns the sealer, made with a random key if no keys were set.
func (k *Keyring) Sealer() *Sealer {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.sealer == nil {
		k.sealer = NewRing(nil, 0)
	}
	return k.sealer
}
