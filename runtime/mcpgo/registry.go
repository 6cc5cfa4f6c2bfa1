package mcpgo

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/sidetable"
	"github.com/mcpgen/mcpgen/internal/wire"
)

// registry is what the adapter keeps beside one mcp-go server: the prompts
// and resources added to it, which its completion providers dispatch over
// and the template handlers read from in order; the identity's switches
// for what handlers may ask of the client, and whether its tools run as
// tasks; the sessions' resource subscriptions, which mcp-go's own sessions
// do not keep; and the tool calls running as tasks.
type registry struct {
	wire.Catalog
	sw        switches
	taskTools bool
	subs      subscriptions
	tasks     taskRuns
	// lists are the descriptors added, per revision; perRevision says
	// that the server has the hooks that list them (NewServer made it).
	lists       listings
	perRevision bool
	// mask is set by MaskErrors; handlers read it at each call.
	mask atomic.Bool
	// log is set by SetLogger; nil means slog's default.
	log atomic.Pointer[slog.Logger]
	// keys seal the request states of 2026-07-28 questions.
	keys   mrtr.Keyring
	search wire.SearchMode // the tools added, for tool search mode (see search.go)
}

// logger is where the adapter logs for the server of r.
func (r *registry) logger() *slog.Logger {
	if l := r.log.Load(); l != nil {
		return l
	}
	return slog.Default()
}

// hooks are the hooks of a server NewServer makes: those that keep the
// subscriptions, those that reach the handlers of tasks and those that
// list per revision.
func (r *registry) hooks() *server.Hooks {
	h := r.subs.hooks()
	r.tasks.hook(h)
	r.lists.hooks(h)
	return h
}

// listRevision is the revision whose descriptors clients of revision rev
// were listed: their own where the server lists per revision, else the
// one registered with mcp-go. Structured results follow it, so that they
// match the output schema the client was sent.
func (r *registry) listRevision(rev wire.Revision) wire.Revision {
	if r.perRevision {
		return rev
	}
	return registeredRevision
}

// registries maps each server the adapter has served on to its registry.
// mcp-go has no place in a server for a value of ours; a server its user
// drops is collected, and its entry goes with it.
var registries sidetable.Table[server.MCPServer, *registry]

// unrestricted are the switches of a server NewServer did not make: with
// no identity, handlers may log, elicit and sample wherever the client
// declared the capability, as mcp-go's own API allows. Its tools publish
// their task support, as mcp.WithTaskSupport would, whether the caller
// gave the server task capabilities or not.
var unrestricted = switches{logging: true, elicitation: true, sampling: true}

// registryOf returns s's registry, making one for a server NewServer did
// not make.
func registryOf(s *server.MCPServer) *registry {
	if r, ok := registries.Load(s); ok {
		return r
	}
	return keep(s, &registry{sw: unrestricted, taskTools: true})
}

// keep stores r as s's registry unless s has one already, and returns the
// one stored.
func keep(s *server.MCPServer, r *registry) *registry {
	r.lists.search = &r.search
	kept, _ := registries.LoadOrStore(s, r)
	return kept
}

// subscriptions are the URIs each session subscribed to with
// resources/subscribe, by session ID. mcp-go accepts a subscription and
// leaves keeping it to a session that implements
// SessionWithResourceSubscriptions, which none of its own do, or to hooks:
// these are kept by the hooks NewServer installs.
type subscriptions struct {
	mu        sync.Mutex
	bySession map[string]map[string]struct{}
}

// hooks are the hooks that keep the subscriptions: after mcp-go accepts a
// subscribe or an unsubscribe, and when a session ends.
func (s *subscriptions) hooks() *server.Hooks {
	h := new(server.Hooks)
	h.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		s.set(ctx, req.Params.URI, true)
	})
	h.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		s.set(ctx, req.Params.URI, false)
	})
	h.AddOnUnregisterSession(func(_ context.Context, ss server.ClientSession) {
		s.mu.Lock()
		delete(s.bySession, ss.SessionID())
		s.mu.Unlock()
	})
	return h
}

// set records that the session of ctx subscribed to uri (on) or no
// longer does.
func (s *subscriptions) set(ctx context.Context, uri string, on bool) {
	ss := server.ClientSessionFromContext(ctx)
	if ss == nil {
		return
	}
	id := ss.SessionID()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case on && s.bySession == nil:
		s.bySession = map[string]map[string]struct{}{id: {uri: {}}}
	case on && s.bySession[id] == nil:
		s.bySession[id] = map[string]struct{}{uri: {}}
	case on:
		s.bySession[id][uri] = struct{}{}
	default:
		delete(s.bySession[id], uri)
	}
}

// subscribers returns the IDs of the sessions subscribed to uri.
func (s *subscriptions) subscribers(uri string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for id, uris := range s.bySession {
		if _, ok := uris[uri]; ok {
			ids = append(ids, id)
		}
	}
	return ids
}
