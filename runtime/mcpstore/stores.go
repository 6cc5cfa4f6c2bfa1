package mcpstore

import "time"

// Stores are the stores a server shares with its replicas, as a backend
// such as runtime/mcpredis makes them. A nil field leaves the server's
// own store in place.
type Stores struct {
	Tasks    SharedTaskStore
	Sessions SessionStore
	Events   EventLog
	Bus      Bus
	// Replay remembers the DPoP proofs the replicas took.
	Replay ReplayCache
}

// Attacher is a server that takes shared stores: mcpserver.Server is
// one. A backend attaches its stores through it, so that the backend
// needs no import of the server.
type Attacher interface {
	// AttachStores makes the server keep its state in st. It returns how
	// long the server keeps a session without a request (negative: until
	// it is deleted), for the stores to expire sessions alike.
	AttachStores(st Stores) (sessionIdle time.Duration)
}
