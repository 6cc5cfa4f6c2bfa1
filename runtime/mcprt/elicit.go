package mcprt

import (
	"context"
	"crypto/rand"
	"fmt"
)

// ElicitURL asks the client to send its user to url, a page outside the
// protocol (a third party's OAuth consent, a payment form) where what the
// user enters never passes through the client. message says why. It
// returns the user's action, ActionAccept meaning only that the user
// agreed to open the page, and the elicitation id, which
// [URLElicitation.ID] and the servers' ElicitationComplete take to tell
// the client when the page is done.
//
// It fails when the server does not enable elicitation or the client did
// not declare URL elicitation (its elicitation.url capability): nothing is
// sent then. Revision 2025-11-25 is the first to have it. On 2026-07-28
// the question ends the handler's run as [Elicit] explains, and the id is
// empty: that revision has neither ids nor completion notices.
func ElicitURL(ctx context.Context, message, url string) (ElicitResult, string, error) {
	c, ok := callerFrom(ctx)
	if !ok {
		return ElicitResult{}, "", ErrNoCaller
	}
	return c.ElicitURL(ctx, message, url)
}

// URLElicitation is one page the user must visit before a request can
// succeed: the message that says why, the page's URL, and the id that
// names the elicitation to the client.
type URLElicitation struct {
	ID      string
	Message string
	URL     string
}

// URLElicitationError is the error of a request that cannot go on until
// the user has visited the pages listed. Servers answer it as a protocol
// error, not as a failed result: see [URLElicitationRequired].
type URLElicitationError struct {
	Elicitations []URLElicitation
}

// Error implements error with the pages to visit, which is what a client
// without URL elicitation shows as the failed call's text.
func (e *URLElicitationError) Error() string {
	if len(e.Elicitations) == 1 {
		u := e.Elicitations[0]
		return fmt.Sprintf("%s: open %s", u.Message, u.URL)
	}
	s := "the user must open these pages first:"
	for _, u := range e.Elicitations {
		s += fmt.Sprintf(" %s (%s);", u.URL, u.Message)
	}
	return s[:len(s)-1]
}

// URLElicitationRequired returns the error a handler returns when the user
// must first visit url, for example to grant the server access to a third
// party; message says why. The elicitation gets a fresh random id: take it
// from the error (errors.As to *[URLElicitationError]) to call the server's
// ElicitationComplete when the page is done.
//
// On 2025-11-25, to a client that declared URL elicitation, the request is
// answered with JSON-RPC error -32042 (URLElicitationRequired) listing the
// page in data.elicitations; the client retries once the user is done. On
// 2026-07-28 the request is answered with an input-required result that
// asks for the URL elicitation, and the retry runs the handler again, which
// decides whether it is now satisfied. Elsewhere the error is an ordinary
// failure whose text names the page.
func URLElicitationRequired(message, url string) error {
	return &URLElicitationError{Elicitations: []URLElicitation{{ID: NewElicitationID(), Message: message, URL: url}}}
}

// NewElicitationID returns a fresh elicitation id: 26 random characters of
// the base32 alphabet, unique within any server without coordination.
func NewElicitationID() string { return rand.Text() }
