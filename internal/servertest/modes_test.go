package servertest_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/fixture"
	"github.com/mcpgen/mcpgen/internal/servertest"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/gosdk"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// A mode is one server path the suite runs on, with what it sends
// differently from the built-in server where a test compares bytes. The
// adapters' packages test each difference on its own.
type mode struct {
	name string
	// pkg is the package serving the path, which its errors name.
	pkg string
	// new makes a server of the path for id serving tools.
	new func(id mcprt.Identity, tools ...mcprt.Tool) pathServer
	// own makes a server as a caller of the SDK does, without the
	// adapter; nil for the built-in server.
	own func() pathServer
	// revisions are those the per-revision tests run on: go-sdk's
	// sessions do not reach 2026-07-28's results unchanged.
	revisions []wire.Revision
	// listExtra and readExtra are the top-level members the path adds to
	// list and read results, left out where results are compared.
	listExtra, readExtra []string
	// listResources orders resources as resources/list does.
	listResources func([]mcprt.Resource) []mcprt.Resource
	// sorted: prompts are listed by name, not in the order added.
	sorted bool
	// emptyCapability: a server publishes the prompts and resources
	// capabilities before anything is added, whatever the switches
	// (mcp-go does once there is something, the built-in server when
	// there is something or notifications are on).
	emptyCapability bool
	// oneStdio: the SDK's stdio server keeps its session in a package
	// variable, shared by every server of the process (mcp-go's
	// stdioSessionInstance), so that the path's subtests run one at a
	// time, though beside the other paths'.
	oneStdio bool
}

// stdioMu is held by the subtest of a oneStdio path while it runs.
var stdioMu sync.Mutex

// pathServer is a server of one path, as the suite drives it.
type pathServer interface {
	addTools(...mcprt.Tool)
	addPrompts(...mcprt.Prompt)
	addResources(...mcprt.Resource)
	addSkills(...mcprt.Skill) error
	resourceUpdated(uri string)
	// elicitationComplete tells the client of cs, once it can be told,
	// that the URL elicitation id is complete.
	elicitationComplete(t *testing.T, cs *mcp.ClientSession, id string) error
	// connect connects go-sdk's client asking for revision rev; opts
	// may be nil. The session closes when the test ends.
	connect(t *testing.T, rev string, opts *mcp.ClientOptions) *mcp.ClientSession
	// transport is a client's transport to the server, what connect
	// connects over.
	transport(t *testing.T) mcp.Transport
	// raw connects a raw client of revision rev, which declares caps (a
	// ClientCapabilities object) if given, else none.
	raw(t *testing.T, rev string, caps ...string) *servertest.Raw
	// httpHandler serves the path's Streamable HTTP for revision rev
	// behind auth.
	httpHandler(t *testing.T, auth *mcpserver.Auth, rev string) http.Handler
	// use adds interceptors, and reports false on a path that takes none
	// (mcp-go's).
	use(interceptors ...mcpserver.Interceptor) bool
	// maskErrors makes the server mask its handlers' errors.
	maskErrors()
	// logTo makes the server log what it logs of its own (handlers'
	// panics, masked errors) to log.
	logTo(log *slog.Logger)
}

// newMembers are the members every path adds to results on 2026-07-28.
var newMembers = []string{"_meta", "resultType", "ttlMs", "cacheScope"}

var (
	builtinMode = &mode{
		name: "builtin", pkg: "mcpserver",
		new: func(id mcprt.Identity, tools ...mcprt.Tool) pathServer {
			return builtinServer{mcpserver.New(id, tools...)}
		},
		revisions: wire.Revisions, listExtra: newMembers, readExtra: newMembers,
		listResources: func(rs []mcprt.Resource) []mcprt.Resource { return rs },
	}
	gosdkMode = &mode{
		name: "gosdk", pkg: "gosdk",
		new: func(id mcprt.Identity, tools ...mcprt.Tool) pathServer {
			return gosdkServer{gosdk.NewServer(id, tools...)}
		},
		own: func() pathServer {
			return gosdkServer{mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)}
		},
		revisions: []wire.Revision{wire.Rev20241105, wire.Rev20250326, wire.Rev20250618, wire.Rev20251125},
		// go-sdk adds caching hints to reads on every revision.
		readExtra:     []string{"ttlMs", "cacheScope"},
		listResources: fixture.ByURI, sorted: true, emptyCapability: true,
	}
	mcpgoMode = &mode{
		name: "mcpgo", pkg: "mcpgo",
		new: func(id mcprt.Identity, tools ...mcprt.Tool) pathServer {
			return mcpgoServer{mcpgo.NewServer(id, tools...)}
		},
		own:       func() pathServer { return mcpgoServer{server.NewMCPServer("t", "1")} },
		revisions: wire.Revisions, listExtra: newMembers, readExtra: newMembers,
		listResources: fixture.ByName, sorted: true, oneStdio: true,
	}
	modes = []*mode{builtinMode, gosdkMode, mcpgoMode}
	// mcpgoOwnMode is mcp-go's server made by its caller with the SDK's
	// own options for what id enables, its tools added by the adapter, so
	// that the adapter finds those capabilities without NewServer.
	mcpgoOwnMode = &mode{
		name: "mcpgo-own", pkg: "mcpgo",
		new: func(id mcprt.Identity, tools ...mcprt.Tool) pathServer {
			var opts []server.ServerOption
			if id.EnableElicitation {
				opts = append(opts, server.WithElicitation())
			}
			s := server.NewMCPServer(id.Name, id.Version, opts...)
			if id.EnableSampling {
				s.EnableSampling()
			}
			mcpgo.AddTools(s, tools...)
			return mcpgoServer{s}
		},
		revisions: wire.Revisions, listExtra: newMembers, readExtra: newMembers,
		listResources: fixture.ByName, sorted: true, oneStdio: true,
	}
)

// notParallel is an option of run: the test and its subtests run alone.
type notParallel struct{}

// run runs f as a subtest on each mode named in opts, or on every mode
// when none is. The test and its subtests run in parallel with the others
// unless opts holds a notParallel.
func run(t *testing.T, f func(t *testing.T, m *mode), opts ...any) {
	t.Helper()
	var only []*mode
	parallel := true
	for _, o := range opts {
		switch o := o.(type) {
		case *mode:
			only = append(only, o)
		case []*mode:
			only = append(only, o...)
		case notParallel:
			parallel = false
		default:
			t.Fatalf("run: unknown option %T", o)
		}
	}
	if len(only) == 0 {
		only = modes
	}
	if parallel {
		t.Parallel()
	}
	for _, m := range only {
		t.Run(m.name, func(t *testing.T) {
			if parallel {
				t.Parallel()
			}
			if m.oneStdio {
				stdioMu.Lock()
				t.Cleanup(stdioMu.Unlock)
			}
			f(t, m)
		})
	}
}

// each is what each path answers where they differ.
type each struct{ builtin, gosdk, mcpgo string }

func (e each) on(m *mode) string {
	switch m {
	case gosdkMode:
		return e.gosdk
	case mcpgoMode, mcpgoOwnMode:
		return e.mcpgo
	}
	return e.builtin
}

// all is what every path answers.
func all(s string) each { return each{s, s, s} }

// stream serves one client in the process with serve, over pipes, and
// returns the client's ends; everything stops when the test ends.
func stream(t *testing.T, serve func(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error) (io.ReadCloser, io.WriteCloser) {
	t.Helper()
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(ctx, sr, sw)
		sw.Close()
	}()
	t.Cleanup(func() {
		cw.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return cr, cw
}

type builtinServer struct{ s *mcpserver.Server }

func (b builtinServer) addTools(tools ...mcprt.Tool)     { b.s.AddTools(tools...) }
func (b builtinServer) addPrompts(p ...mcprt.Prompt)     { b.s.AddPrompts(p...) }
func (b builtinServer) addResources(r ...mcprt.Resource) { b.s.AddResources(r...) }
func (b builtinServer) addSkills(s ...mcprt.Skill) error { return b.s.AddSkills(s...) }
func (b builtinServer) resourceUpdated(uri string)       { b.s.ResourceUpdated(uri) }
func (b builtinServer) maskErrors()                      { b.s.MaskErrors = true }
func (b builtinServer) logTo(log *slog.Logger)           { b.s.Logger = log }
func (b builtinServer) use(ics ...mcpserver.Interceptor) bool {
	b.s.Use(ics...)
	return true
}

func (b builtinServer) elicitationComplete(_ *testing.T, _ *mcp.ClientSession, id string) error {
	return b.s.ElicitationComplete(id)
}

func (b builtinServer) httpHandler(_ *testing.T, auth *mcpserver.Auth, _ string) http.Handler {
	b.s.Auth = auth
	if b.s.Logger == nil {
		b.s.Logger = slog.New(slog.DiscardHandler)
	}
	return b.s.HTTPHandler()
}

func (b builtinServer) serve(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error {
	return b.s.ServeStream(ctx, r, w)
}

func (b builtinServer) connect(t *testing.T, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
	return servertest.Connect(t, b.transport(t), rev, opts)
}

func (b builtinServer) transport(t *testing.T) mcp.Transport {
	r, w := stream(t, b.serve)
	return &mcp.IOTransport{Reader: r, Writer: w}
}

func (b builtinServer) raw(t *testing.T, rev string, caps ...string) *servertest.Raw {
	r, w := stream(t, b.serve)
	return newRaw(t, r, w, rev, caps)
}

// newRaw is servertest.NewRawCaps with caps, if given.
func newRaw(t *testing.T, r io.Reader, w io.Writer, rev string, caps []string) *servertest.Raw {
	if len(caps) > 0 {
		return servertest.NewRawCaps(t, r, w, rev, caps[0])
	}
	return servertest.NewRaw(t, r, w, rev)
}

type gosdkServer struct{ s *mcp.Server }

func (g gosdkServer) addTools(tools ...mcprt.Tool)     { gosdk.AddTools(g.s, tools...) }
func (g gosdkServer) addPrompts(p ...mcprt.Prompt)     { gosdk.AddPrompts(g.s, p...) }
func (g gosdkServer) addResources(r ...mcprt.Resource) { gosdk.AddResources(g.s, r...) }
func (g gosdkServer) addSkills(s ...mcprt.Skill) error { return gosdk.AddSkills(g.s, s...) }
func (g gosdkServer) resourceUpdated(uri string)       { gosdk.ResourceUpdated(g.s, uri) }
func (g gosdkServer) maskErrors()                      { gosdk.MaskErrors(g.s, true) }
func (g gosdkServer) logTo(log *slog.Logger)           { gosdk.SetLogger(g.s, log) }
func (g gosdkServer) use(ics ...mcpserver.Interceptor) bool {
	gosdk.Use(g.s, ics...)
	return true
}

func (g gosdkServer) elicitationComplete(_ *testing.T, _ *mcp.ClientSession, id string) error {
	return gosdk.ElicitationComplete(g.s, id)
}

// httpHandler serves 2026-07-28 statelessly, the only way go-sdk serves
// it over HTTP.
func (g gosdkServer) httpHandler(t *testing.T, auth *mcpserver.Auth, rev string) http.Handler {
	h, err := gosdk.HTTPHandler(g.s, auth, &mcp.StreamableHTTPOptions{Stateless: rev == "2026-07-28", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func (g gosdkServer) connect(t *testing.T, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
	return servertest.Connect(t, g.transport(t), rev, opts)
}

func (g gosdkServer) transport(t *testing.T) mcp.Transport {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := g.s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Wait() })
	return ct
}

func (g gosdkServer) raw(t *testing.T, rev string, caps ...string) *servertest.Raw {
	r, w := stream(t, func(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error {
		return g.s.Run(ctx, &mcp.IOTransport{Reader: r, Writer: w})
	})
	return newRaw(t, r, w, rev, caps)
}

type mcpgoServer struct{ s *server.MCPServer }

func (g mcpgoServer) addTools(tools ...mcprt.Tool)      { mcpgo.AddTools(g.s, tools...) }
func (g mcpgoServer) addPrompts(p ...mcprt.Prompt)      { mcpgo.AddPrompts(g.s, p...) }
func (g mcpgoServer) addResources(r ...mcprt.Resource)  { mcpgo.AddResources(g.s, r...) }
func (g mcpgoServer) resourceUpdated(uri string)        { mcpgo.ResourceUpdated(g.s, uri) }
func (g mcpgoServer) use(...mcpserver.Interceptor) bool { return false }
func (g mcpgoServer) maskErrors()                       { mcpgo.MaskErrors(g.s, true) }
func (g mcpgoServer) addSkills(s ...mcprt.Skill) error  { return mcpgo.AddSkills(g.s, s...) }
func (g mcpgoServer) logTo(log *slog.Logger)            { mcpgo.SetLogger(g.s, log) }

// elicitationComplete waits for the standalone stream of cs, on which
// mcp-go sends the notice.
func (g mcpgoServer) elicitationComplete(t *testing.T, cs *mcp.ClientSession, id string) error {
	for deadline := time.Now().Add(5 * time.Second); g.s.SendNotificationToSpecificClient(cs.ID(), "notifications/test/ready", nil) != nil; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the standalone stream did not open")
		}
	}
	return mcpgo.ElicitationComplete(g.s, id)
}

func (g mcpgoServer) httpHandler(t *testing.T, auth *mcpserver.Auth, _ string) http.Handler {
	h, err := mcpgo.HTTPHandler(g.s, auth)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// connect serves over mcp-go's Streamable HTTP transport.
func (g mcpgoServer) connect(t *testing.T, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
	return servertest.Connect(t, g.transport(t), rev, opts)
}

func (g mcpgoServer) transport(t *testing.T) mcp.Transport {
	hs := httptest.NewServer(server.NewStreamableHTTPServer(g.s))
	t.Cleanup(hs.Close)
	return &mcp.StreamableClientTransport{Endpoint: hs.URL}
}

func (g mcpgoServer) raw(t *testing.T, rev string, caps ...string) *servertest.Raw {
	r, w := stream(t, func(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error {
		return server.NewStdioServer(g.s).Listen(ctx, r, w)
	})
	return newRaw(t, r, w, rev, caps)
}
