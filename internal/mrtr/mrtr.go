// Package mrtr holds what a server needs to let a handler ask its client
// questions on revision 2026-07-28, where a request cannot wait for an
// answer: the handler's run ends with an input-required result that lists
// its questions, and the client retries the request with the answers.
//
// A [Round] is one run of a handler: the answers it may use and the
// questions it asked that had none. Between rounds the answers travel in
// the request state, sealed by a [Sealer] so that a client cannot forge
// or alter them.
package mrtr

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
)

// Question is one request a handler makes of the client: elicitation/create,
// sampling/createMessage or roots/list with its params, under a key that
// names it in the input-required result and in the client's answers.
type Question struct {
	Key    string
	Method string
	Params []byte // a JSON object
}

// KeyOf returns the key of a question the handler did not name: the
// method's short name and a digest of its params, so that a handler run
// again from the start asks the same questions under the same keys, in
// whatever order its goroutines ask them.
func KeyOf(method string, params []byte) string {
	sum := sha256.Sum256(append([]byte(method+"\x00"), params...))
	short := method
	switch method {
	case "elicitation/create":
		short = "elicitation"
	case "sampling/createMessage":
		short = "sampling"
	case "roots/list":
		short = "roots"
	}
	return short + "_" + hex.EncodeToString(sum[:6])
}

// Round is one run of a handler. It is safe for the handler's goroutines
// to ask at once.
type Round struct {
	mu      sync.Mutex
	answers map[string]json.RawMessage
	used    map[string]json.RawMessage // the answers a question asked for
	pending []Question
	asked   map[string]bool
}

// NewRound starts a run with the answers known so far.
// Its own maps are made when a question is asked: most runs ask none.
func NewRound(answers map[string]json.RawMessage) *Round {
	return &Round{answers: answers}
}

// Ask returns the answer to q, or records q as pending and reports false.
func (r *Round) Ask(q Question) (json.RawMessage, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a, ok := r.answers[q.Key]; ok {
		if r.used == nil {
			r.used = make(map[string]json.RawMessage)
		}
		r.used[q.Key] = a
		return a, true
	}
	if !r.asked[q.Key] {
		r.markAsked(q.Key)
		r.pending = append(r.pending, q)
	}
	return nil, false
}

// Require records q as pending whether or not it has an answer: the
// handler asked for it again after seeing the answer, as a handler that
// needs the user to visit a page does until the page is done.
func (r *Round) Require(q Question) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.asked[q.Key] {
		r.markAsked(q.Key)
		r.pending = append(r.pending, q)
	}
}

// markAsked records that the question key was asked; r.mu is held.
func (r *Round) markAsked(key string) {
	if r.asked == nil {
		r.asked = make(map[string]bool)
	}
	r.asked[key] = true
}

// Pending returns the questions asked without an answer, in the order
// first asked.
func (r *Round) Pending() []Question {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Question(nil), r.pending...)
}

// Used returns the answers the run's questions used, for the next
// request state: answers to questions no run asked are not kept.
func (r *Round) Used() map[string]json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.used == nil {
		return map[string]json.RawMessage{}
	}
	return r.used
}
