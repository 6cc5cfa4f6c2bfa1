package gosdk

import (
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/sidetable"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// registry is what the adapter keeps beside one go-sdk server: the prompts
// and resources added to it, which the server's one completion handler
// dispatches over and the template handlers read from in order; the
// descriptors of everything added, which its list middleware writes per
// revision; the identity's switches for what handlers may ask of the
// client; and the sealer of the request states of 2026-07-28 questions.
type registry struct {
	wire.Catalog
	lists listings
	sw    switches
	// interceptors are those Use added, which also see the requests the
	// gate of HTTPHandler refuses.
	mu           sync.Mutex
	interceptors []mcpserver.Interceptor
	// mask is set by MaskErrors; handlers read it at each call.
	mask atomic.Bool
	// log is set by SetLogger; nil means slog's default.
	log atomic.Pointer[slog.Logger]
	// keys seal the request states of 2026-07-28 questions.
	keys mrtr.Keyring
	// pageSize is the identity's, for skills/list and directory reads.
	pageSize int
	search   wire.SearchMode // the tools added, for tool search mode (see search.go)
}

// logger is where the adapter logs for the server of r.
func (r *registry) logger() *slog.Logger {
	if l := r.log.Load(); l != nil {
		return l
	}
	return slog.Default()
}

// registries maps each server the adapter has served on to its registry.
// go-sdk has no place in a server for a value of ours; a server its user
// drops is collected, and its entry goes with it.
var registries sidetable.Table[mcp.Server, *registry]

// unrestricted are the switches of a server NewServer did not make: with
// no identity, handlers may log, elicit and sample wherever the client
// declared the capability, as the SDK's own API allows.
var unrestricted = switches{logging: true, elicitation: true, sampling: true}

// registryOf returns s's registry, making one for a server NewServer did
// not make.
func registryOf(s *mcp.Server) *registry {
	if r, ok := registries.Load(s); ok {
		return r
	}
	return keep(s, &registry{sw: unrestricted})
}

// keep stores r as s's registry unless s has one already, and returns the
// one stored. A server gets its registry's list middleware with it, once,
// and the sending middleware that keeps elicitation answers: go-sdk takes
// middleware at any time, so a server the caller made lists per revision
// as well as one NewServer made.
func keep(s *mcp.Server, r *registry) *registry {
	r.lists.skills = r.Skills
	r.lists.search = &r.search
	kept, loaded := registries.LoadOrStore(s, r)
	if !loaded {
		s.AddReceivingMiddleware(r.lists.perRevision)
		s.AddSendingMiddleware(keepAnswer)
	}
	return kept
}
