package wire

import (
	"errors"
	"fmt"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// ElicitationBook remembers which session each URL elicitation went to, so
// that an adapter's ElicitationComplete can notify that session. The SDKs
// keep no such table. It holds the latest MaxElicitations ids: one older
// than that, or one never sent, is not found.
type ElicitationBook[S any] struct {
	mu    sync.Mutex
	to    map[string]S
	order []string // ids in the order added, for dropping the oldest
}

// MaxElicitations is how many URL elicitations a book remembers.
const MaxElicitations = 4096

// Add records that the elicitation id went to the session s.
func (b *ElicitationBook[S]) Add(id string, s S) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.to == nil {
		b.to = make(map[string]S)
	}
	if _, ok := b.to[id]; !ok {
		b.order = append(b.order, id)
	}
	b.to[id] = s
	for len(b.order) > MaxElicitations {
		delete(b.to, b.order[0])
		b.order = b.order[1:]
	}
}

// Take returns the session the elicitation id went to and forgets it, so
// that each id completes once.
func (b *ElicitationBook[S]) Take(id string) (S, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.to[id]
	delete(b.to, id)
	return s, ok
}

// UnknownElicitation is the error of a completion for an id the server
// did not send, or completed already.
func UnknownElicitation(id string) error {
	return fmt.Errorf("no session awaits the completion of elicitation %q", id)
}

// URLElicitations returns the pages of err when it is a
// [mcprt.URLElicitationError], which servers answer as a protocol error.
func URLElicitations(err error) []mcprt.URLElicitation {
	var ue *mcprt.URLElicitationError
	if err == nil || !errors.As(err, &ue) {
		return nil
	}
	return ue.Elicitations
}
