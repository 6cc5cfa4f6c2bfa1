package mcpserver

import (
	"context"
	"github.com/mcpgen/mcpgen/internal/authgate"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// DefaultMaxBodyBytes is the default limit of an HTTP request body.
const DefaultMaxBodyBytes = 4 << 20

// DefaultSessionIdleTimeout is how long an idle HTTP session lives when
// Server.SessionIdleTimeout is zero.
const DefaultSessionIdleTimeout = 30 * time.Minute

// Server serves a set of tools, prompts and resources. Create one with
// [New]; set the exported fields, if at all, before serving. Tools,
// prompts and resources may be added and removed at any time.
type Server struct {
	// MaxBodyBytes limits the size of an HTTP request body; larger bodies
	// are answered with 413. Zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// AllowedHosts are the host names (without port) accepted in the Host
	// and Origin headers of HTTP requests, against DNS rebinding. Empty
	// means the loopback names localhost, 127.0.0.1 and ::1, with any port.
	// A single "*" turns the check off (for servers behind a proxy that
	// checks these headers itself).
	AllowedHosts []string
	// AllowedOrigins are further origins ("https://app.example.com")
	// accepted in the Origin header.
	AllowedOrigins []string
	// SessionIdleTimeout ends an HTTP session that has had no request for
	// this long and serves none now (no call running, no GET stream open),
	// as a DELETE would: a client that comes back gets 404 and starts a
	// new session. Zero means DefaultSessionIdleTimeout; a negative value
	// keeps sessions until they are deleted.
	SessionIdleTimeout time.Duration
	// Logger receives the server's own diagnostics. Nil means a text
	// logger writing to stderr. On stdio nothing but JSON-RPC is ever
	// written to stdout.
	Logger *slog.Logger
	// StateKey is the key that seals the request state of 2026-07-28
	// requests whose handlers ask the client questions (HMAC-SHA256). Every
	// replica serving the same clients must share it; empty means a random
	// key per process, which suits a single server.
	StateKey []byte
	// StateKeys are further keys that open request states, to rotate the
	// key without refusing the states already handed out: set StateKey to
	// the new key and StateKeys to the old ones, and drop an old key once
	// StateMaxAge has passed. Without StateKey, StateKeys[0] seals.
	StateKeys [][]byte
	// StateMaxAge is how long such a request state stays valid. Zero means
	// DefaultStateMaxAge.
	StateMaxAge time.Duration

	// Tasks keeps the tasks of tool calls run as tasks (tools annotated
	// task=optional or task=required, with Identity.EnableTasks). Nil
	// means a [mcpstore.MemoryTaskStore].
	Tasks mcpstore.TaskStore
	// TaskTTL bounds how long a task and its result are kept (a
	// 2025-11-25 client may ask for less). Zero means DefaultTaskTTL.
	TaskTTL time.Duration
	// TaskPollInterval is how often clients are asked to poll a task.
	// Zero means DefaultTaskPollInterval.
	TaskPollInterval time.Duration
	// TaskLease is how often the replica running a task renews its lease
	// in a [mcpstore.SharedTaskStore] and looks for answers and cancels
	// posted by other replicas; a task whose lease went unrenewed for two
	// periods is failed (-32603) by the reaper of a replica, which looks
	// for them about every period, or by the first that reads it before. The
	// replica answering a 2025 call over SSE holds its stream in Events
	// alike: a follower on any replica ends a stream whose hold went
	// unrenewed for two periods with a -32603 answer. Zero means
	// DefaultTaskLease.
	TaskLease time.Duration
	// ReplicaID names this server among the replicas that share its
	// stores: it marks the tasks it runs and the events it publishes.
	// Empty means a random name, made on first use.
	ReplicaID string
	// Bus carries what one replica must tell the others (a task's answers,
	// cancel and end). Nil means none: a server alone needs none, and
	// replicas without one still learn of those within one TaskLease.
	Bus mcpstore.Bus

	// TaskGrace is how long a 2026-07-28 call that may become a task runs
	// before it does: a call that ends sooner is answered at once. Zero
	// means DefaultTaskGrace.
	TaskGrace time.Duration

	// ListCache and ReadCache are the caching hints of 2026-07-28 list
	// results (tools, prompts, resources, templates) and of resource
	// reads. The zero values mean a TTL of 0 (nothing is kept without
	// asking again), lists "public" (the same for everyone; "private"
	// with Auth, as only authorized clients may see them) and reads
	// "private" (a read may depend on who asks). Set them before serving.
	ListCache, ReadCache CacheHint

	// SkillsPageSize is the number of skills per page of skills/list,
	// and of children per page of resources/directory/read. Zero means
	// Identity.PageSize. Set it before serving.
	SkillsPageSize int

	// Auth, when set, makes the Streamable HTTP endpoint an OAuth 2.1
	// protected resource: every request needs a bearer token its Verifier
	// accepts. stdio never has authorization. Set it before serving.
	Auth *Auth
	// DPoPReplay is the replay cache of DPoP proofs when
	// Auth.DPoPOptions names none; package mcpredis's Attach sets one
	// that replicas share. Nil keeps them in this process.
	DPoPReplay ReplayCache

	// Card, when set, serves the server's Server Card (SEP-2127, a draft)
	// beside the endpoint, and an AI Catalog when asked. Set it before
	// serving.
	Card *Card

	// Groups, when not nil, serves primitive groups (SEP-2084, in review,
	// the text of January 2026): the "groups" capability is declared,
	// groups/list lists these groups, and every tool, prompt and resource
	// publishes its own in _meta (see [mcprt.GroupsMetaKey]) on the
	// revisions that have _meta. Nil publishes none of it. A generated
	// package's MCPGroups returns its groups. Set it before serving.
	Groups []mcprt.Group

	// ToolSearch, when set, puts the server in tool search mode for
	// servers with many tools: tools/list lists search_tools, call_tool
	// and the pinned tools instead of every tool, and every tool is still
	// called by name. Set it before serving; see [ToolSearch].
	ToolSearch *ToolSearch

	// CORS, when set, lets browser pages of the origins it allows call the
	// Streamable HTTP endpoint. Nil allows none. Set it before serving.
	CORS *CORS

	// MaskErrors keeps the errors of handlers from the client. The error
	// a tool's function returned, a panic, and an error of a prompt's
	// Get, a resource's Read or a completer reach the client as a generic
	// message with a random correlation id; the real error is logged at
	// Error with the same id. A result the handler built with
	// mcprt.Errorf or mcprt.ErrorResult is meant for the model and goes
	// through, and so do argument problems. Set it before serving.
	MaskErrors bool

	// Sessions shares the 2025 HTTP sessions between replicas, so that any
	// of them serves any session's requests. Nil keeps them in this
	// process.
	Sessions mcpstore.SessionStore
	// Events keeps the SSE events of the session revisions 2025-03-26 to
	// 2025-11-25, so that a client resumes a dropped stream with
	// Last-Event-ID. Nil means a [mcpstore.MemoryEventLog], which suits
	// one process.
	Events mcpstore.EventLog

	closing      atomic.Bool        // CloseStreams was called: not ready
	interceptors []Interceptor      // see Use
	sessionEnds  []func(SessionEnd) // see OnSessionEnd

	eventsOnce    sync.Once
	ownEvents     bool // Events is the log eventLog made, which no other server reads
	replicaOnce   sync.Once
	busMu         sync.Mutex
	busSubscribed bool // the server listens to Bus
	changedMu     sync.Mutex
	changed       map[string]chan struct{} // closed when the task of the id changes
	hintsOnce     sync.Once
	hints         struct{ list, read []byte }
	cards         cardState // the documents of Card, made on first use
	gateOnce      sync.Once
	gate          *authgate.Gate
	gateErr       error
	sealOnce      sync.Once
	seal          *mrtr.Sealer
	tasksOnce     sync.Once
	ownTasks      *mcpstore.MemoryTaskStore // the store the server made, when none was set
	runsMu        sync.Mutex
	runs          map[string]*taskRun // the tasks this process runs
	relayMu       sync.Mutex
	relays        map[string]map[*relay]struct{} // tasks/result here of tasks run elsewhere, by task
	reaperMu      sync.Mutex
	reaperStop    func() // stops the reaper of lapsed tasks and waits for it
	closed        bool   // Close was called: no reaper starts

	id        mcprt.Identity
	tools     registry
	prompts   catalog[mcprt.Prompt]
	resources catalog[mcprt.Resource] // static URIs
	templates catalog[mcprt.Resource] // URI templates
	skills    skillState              // Agent Skills, see skills.go

	// caps holds the serialized capabilities per revision and what they
	// publish; it is rebuilt (under capsMu) whenever prompts or resources
	// come or go, since the prompts and resources capabilities follow what
	// is registered. info holds serverInfo per revision, fixed by the
	// identity.
	caps   atomic.Pointer[capabilities]
	capsMu sync.Mutex
	info   [wire.NumRevisions][]byte

	listens listeners   // open subscriptions/listen requests (2026-07-28)
	search  searchState // tool search mode, see toolsearch.go

	mu        sync.Mutex
	sessions  map[*session]struct{} // live sessions, for list_changed
	byID      map[string]*session   // HTTP sessions by Mcp-Session-Id
	lastSweep time.Time             // when idle HTTP sessions were last looked for
	now       func() time.Time      // the clock; tests set it
}

// CacheHint says how long, and for whom, a client may keep a result of
// revision 2026-07-28 (its ttlMs and cacheScope).
type CacheHint struct {
	TTL     time.Duration
	Private bool // the result depends on who asks: cacheScope "private"
}

// cacheHints returns the members ",ttlMs":...,"cacheScope":... of list
// results and of reads, written once.
func (s *Server) cacheHints() *struct{ list, read []byte } {
	s.hintsOnce.Do(func() {
		list, read := s.ListCache, s.ReadCache
		if read == (CacheHint{}) {
			read.Private = true
		}
		if list == (CacheHint{}) && s.Auth != nil {
			// Behind authorization a list is not for a shared cache to
			// hand to whoever asks, token or not.
			list.Private = true
		}
		s.hints.list, s.hints.read = appendCacheHint(nil, list), appendCacheHint(nil, read)
	})
	return &s.hints
}

func appendCacheHint(dst []byte, h CacheHint) []byte {
	dst = strconv.AppendInt(append(dst, `,"ttlMs":`...), h.TTL.Milliseconds(), 10)
	if h.Private {
		return append(dst, `,"cacheScope":"private"`...)
	}
	return append(dst, `,"cacheScope":"public"`...)
}

// New returns a server that describes itself with id and serves tools.
// Two tools of one name panic, naming the functions of both, as
// [Server.AddTools] says.
func New(id mcprt.Identity, tools ...mcprt.Tool) *Server {
	s := &Server{
		id:       id,
		sessions: make(map[*session]struct{}),
		byID:     make(map[string]*session),
	}
	for _, rev := range wire.Revisions {
		s.info[rev.Index()] = s.appendServerInfo(nil, rev)
	}
	s.tools.groups, s.prompts.groups, s.resources.groups, s.templates.groups = s.groupsOn, s.groupsOn, s.groupsOn, s.groupsOn
	s.refreshCapabilities()
	s.tools.add("New", tools)
	return s
}

// Add adds tools, as AddTools does.
//
// Deprecated: Use AddTools, named as AddPrompts and AddResources are.
func (s *Server) Add(tools ...mcprt.Tool) { s.AddTools(tools...) }

// AddTools adds tools. It is safe while the server runs. When
// Identity.EnableToolNotifications is set, every live initialized session
// is sent notifications/tools/list_changed.
//
// A tool whose name the server serves already, or that two of tools
// share, panics, naming the functions of both, and none of tools is
// added: two tools of one name are a programming error, as two
// handlers of one pattern are to net/http.ServeMux. To replace a tool,
// RemoveTools it first.
func (s *Server) AddTools(tools ...mcprt.Tool) {
	s.tools.add("AddTools", tools)
	if s.id.EnableToolNotifications {
		s.broadcast("notifications/tools/list_changed")
	}
}

// RemoveTools removes the tools named names; names of no tool are
// ignored. It is safe while the server runs; when something was removed
// and Identity.EnableToolNotifications is set, every live initialized
// session is sent notifications/tools/list_changed. Calls already running
// finish.
func (s *Server) RemoveTools(names ...string) {
	if s.tools.remove(names) && s.id.EnableToolNotifications {
		s.broadcast("notifications/tools/list_changed")
	}
}

// storeError logs err, a store's failure at what it was doing, and
// returns the internal error the client is answered: the store's text,
// which may name its package and its addresses, stays in the log.
func (s *Server) storeError(doing string, err error) *rpcError {
	s.logger().Error("mcp store failed", "doing", doing, "err", err)
	return errorf(codeInternalError, "internal error: "+doing+" failed")
}

func (s *Server) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return defaultLogger
}

var defaultLogger = slog.New(slog.NewTextHandler(os.Stderr, nil))

// Close ends the server's streams, as CloseStreams does, and stops its
// own background work: the reaper that fails the tasks of a shared
// TaskStore whose replica died. Calls and tasks still running here go on
// and finish. Call it once the server serves no more, after
// http.Server.Shutdown; it returns nil.
func (s *Server) Close() error {
	s.CloseStreams()
	s.stopReaper()
	return nil
}

// eventLog returns Events, or the memory log that stands for it.
func (s *Server) eventLog() mcpstore.EventLog {
	s.eventsOnce.Do(func() {
		if s.Events == nil {
			s.Events, s.ownEvents = &mcpstore.MemoryEventLog{}, true
		}
	})
	return s.Events
}

// endSession ends an HTTP session: its round trips fail, its calls are
// cancelled and its events are forgotten.
func (s *Server) endSession(sess *session) {
	sess.close()
	sess.stop()
	if err := s.eventLog().Close(context.Background(), sess.id); err != nil {
		s.logger().Error("mcp event log", "err", err)
	}
}

func (s *Server) track(sess *session) {
	s.mu.Lock()
	s.sessions[sess] = struct{}{}
	s.mu.Unlock()
}

func (s *Server) untrack(sess *session) {
	s.mu.Lock()
	delete(s.sessions, sess)
	if sess.id != "" && s.byID[sess.id] == sess {
		delete(s.byID, sess.id)
	}
	s.mu.Unlock()
}
