// Command kb is a small knowledge-base MCP server written with mcpgen
// annotations: tools to search articles and add notes, the articles as
// resources (a static index and two templates), prompts that summarize and
// compare articles, completions of article numbers and formats, an article
// viewer shown as an MCP App, and tools that ask the client: to send the
// user to a consent page (URL elicitation) and to have its model suggest
// tags with a tool of the server's (sampling with tools).
//
//	kb                          # stdio
//	kb -http 127.0.0.1:8080     # Streamable HTTP at http://127.0.0.1:8080/mcp
//	kb -sdk gosdk               # the same server on the official Go SDK (or mcpgo)
//	kb -http 127.0.0.1:8080 -redis redis://127.0.0.1:6379/0 -state-key HEX -replica r1
//	                            # one of several replicas sharing their state in Redis
//	kb -http 127.0.0.1:8080 -cors http://localhost:5173  # callable from that page's origin
//	kb -http 127.0.0.1:8080 -server-card  # with its Server Card (SEP-2127, a draft)
//
// With -auth-issuer and -auth-resource the HTTP endpoint (on any of the
// three servers) is an OAuth 2.1 protected resource: every request needs
// an access token (a JWT) of that issuer for that resource, and the tools
// that change the knowledge base need the scope kb.write (their scope=
// annotation). The metadata document that tells clients where to get a
// token is served beside the endpoint:
//
//	kb -http 127.0.0.1:8080 -auth-issuer https://auth.example.com \
//		-auth-resource http://127.0.0.1:8080/mcp -auth-scopes kb.read
//
// -auth-dpop accepted (or required) also takes DPoP-bound tokens, each
// request with a proof signed by the key the token is bound to.
package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mcpgen/mcpgen/runtime/mcpauth"
	"github.com/mcpgen/mcpgen/runtime/mcpredis"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

var identity = mcprt.Identity{
	Name:         "kb",
	Version:      "1.0.0",
	Title:        "Knowledge base",
	Instructions: "Search the articles, read them as kb:// resources, and use the summarize and compare prompts. The skill skill://using-kb/SKILL.md says how to use the tools well.",

	EnableCompletions:           true,
	EnableElicitation:           true,
	EnableSampling:              true,
	EnableResourceSubscriptions: true,
	EnableResourceNotifications: true,
}

// card is kb's Server Card (SEP-2127, a draft), served with
// -server-card. Its URL is the endpoint's, known at run time; mcpgen
// -card prints the rest at build time.
var card = mcpserver.Card{
	Name:        "io.github.mcpgen/kb",
	Description: "Search articles, read them as kb:// resources, and add notes",
	Repository:  &mcpserver.CardRepository{URL: "https://github.com/mcpgen/mcpgen", Source: "github", Subfolder: "examples/kb"},
}

// authFlags are the flags that put the HTTP endpoint behind an
// authorization server.
type authFlags struct {
	issuer, resource, jwks, scopes, dpop string
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio")
	sdk := flag.String("sdk", "builtin", "server to use: builtin (mcpgen's own), gosdk (the official Go SDK) or mcpgo (mark3labs/mcp-go)")
	var auth authFlags
	flag.StringVar(&auth.issuer, "auth-issuer", "", "with -http: accept only access tokens (JWTs) that the authorization server `URL` issues; its metadata names its keys")
	flag.StringVar(&auth.resource, "auth-resource", "", "with -auth-issuer: this server's `URL` as clients dial it (ending in /mcp), the audience tokens must carry")
	flag.StringVar(&auth.jwks, "auth-jwks", "", "with -auth-issuer: the `URL` of the issuer's key set, instead of the one its metadata names")
	flag.StringVar(&auth.scopes, "auth-scopes", "", "with -auth-issuer: `scopes` every request needs, space-separated")
	flag.StringVar(&auth.dpop, "auth-dpop", "", "with -auth-issuer: take DPoP-bound tokens (RFC 9449): `accepted` beside bearer tokens, or required")
	serverCard := flag.Bool("server-card", false, "with -http, serve the Server Card (SEP-2127, a draft) at /mcp/server-card and an AI Catalog at /.well-known/ai-catalog.json (builtin only)")
	cors := flag.String("cors", "", "with -http, let browser pages of these comma-separated origins call the server (builtin only)")
	flag.StringVar(&shared.redis, "redis", "", "share tasks, sessions, streams and notifications with other replicas through the Redis at `URL` (redis://host:port/db)")
	flag.StringVar(&shared.stateKey, "state-key", "", "the key sealing request states, in `HEX`, the same on every replica")
	flag.StringVar(&shared.replica, "replica", "", "this replica's `NAME` among those sharing the Redis (default: random)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *sdk != "builtin" && (shared.redis != "" || shared.stateKey != "" || shared.replica != "") {
		log.Fatal("-redis, -state-key and -replica serve with -sdk builtin only")
	}
	a, err := auth.auth(ctx, *addr)
	switch {
	case err != nil:
	case *serverCard && (*sdk != "builtin" || *addr == ""):
		err = errors.New("-server-card needs -http and -sdk builtin")
	case *sdk == "builtin":
		shared.card = *serverCard
		err = serveBuiltin(ctx, *addr, a, *cors)
	case *cors != "":
		err = errors.New("-cors works with -sdk builtin only")
	default:
		err = serveSDK(ctx, *sdk, *addr, a)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// auth returns the authorization the flags ask for, nil without them:
// access tokens are JWTs of the issuer for the resource, checked against
// the issuer's key set.
func (f authFlags) auth(ctx context.Context, addr string) (*mcpserver.Auth, error) {
	switch {
	case f == authFlags{}:
		return nil, nil
	case f.issuer == "" || f.resource == "":
		return nil, errors.New("-auth-issuer and -auth-resource go together")
	case addr == "":
		return nil, errors.New("-auth-issuer needs -http: stdio has no authorization")
	}
	if u, err := url.Parse(f.resource); err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("-auth-resource %q: want the absolute URL clients dial", f.resource)
	}
	modes := map[string]mcpserver.DPoPMode{"": mcpserver.DPoPOff, "accepted": mcpserver.DPoPAccepted, "required": mcpserver.DPoPRequired}
	mode, ok := modes[f.dpop]
	if !ok {
		return nil, fmt.Errorf("-auth-dpop %q: want accepted or required", f.dpop)
	}
	v, err := mcpauth.NewJWT(ctx, mcpauth.JWTOptions{Issuer: f.issuer, Audience: f.resource, JWKSURL: f.jwks})
	if err != nil {
		return nil, err
	}
	return &mcpserver.Auth{
		Resource:             f.resource,
		AuthorizationServers: []string{f.issuer},
		Verifier:             v,
		Scopes:               strings.Fields(f.scopes),
		DPoP:                 mode,
	}, nil
}

// shared is what the -redis, -state-key, -replica and -server-card
// flags ask.
var shared struct {
	redis, stateKey, replica string
	card                     bool
}

func serveBuiltin(ctx context.Context, addr string, a *mcpserver.Auth, cors string) error {
	srv := mcpserver.New(identity, MCPTools()...)
	if shared.stateKey != "" {
		key, err := hex.DecodeString(shared.stateKey)
		if err != nil || len(key) < 16 {
			return fmt.Errorf("-state-key: want at least 16 bytes in hex, got %q", shared.stateKey)
		}
		srv.StateKey = key
	}
	srv.ReplicaID = shared.replica
	if shared.redis != "" {
		b, err := mcpredis.Open(ctx, shared.redis)
		if err != nil {
			return err
		}
		defer b.Close()
		b.Attach(srv) // tasks, sessions, SSE events and the bus in Redis
	}
	if cors != "" {
		srv.CORS = &mcpserver.CORS{AllowedOrigins: strings.Split(cors, ",")}
	}
	srv.AddPrompts(MCPPrompts()...)
	srv.AddResources(MCPResources()...)
	if err := srv.AddSkills(MCPSkills()...); err != nil {
		return err
	}
	base.changed = srv.ResourceUpdated
	base.added = func(a Article) { srv.AddResources(articleResource(a)) }
	if addr == "" {
		return srv.ServeStdio(ctx)
	}
	routes, err := builtinRoutes(srv, a)
	if err == nil && shared.card {
		err = withCard(routes, srv, addr)
	}
	if err != nil {
		return err
	}
	return serveHTTP(ctx, addr, routes, srv.CloseStreams)
}

// builtinRoutes returns the HTTP handlers of srv by path: the endpoint
// at /mcp and, with a, the metadata document. With a, the resource's host
// is accepted in the Host header beside the loopback names.
func builtinRoutes(srv *mcpserver.Server, a *mcpserver.Auth) (map[string]http.Handler, error) {
	routes := map[string]http.Handler{"/mcp": srv.HTTPHandler()}
	if a == nil {
		return routes, nil
	}
	srv.Auth = a
	if u, err := url.Parse(a.Resource); err == nil {
		srv.AllowedHosts = []string{"localhost", "127.0.0.1", "::1", u.Hostname()}
	}
	return withMetadata(routes, a, srv.MetadataHandler())
}

// withCard serves srv's Server Card and AI Catalog beside the endpoint,
// whose URL is the resource's with authorization, else that of addr.
func withCard(routes map[string]http.Handler, srv *mcpserver.Server, addr string) error {
	c := card
	c.URL, c.Catalog = "http://"+addr+"/mcp", true
	if srv.Auth != nil {
		c.URL = srv.Auth.Resource
	}
	srv.Card = &c
	paths, err := srv.CardPaths()
	for _, p := range paths {
		routes[p] = srv.CardHandler()
	}
	return err
}

// withMetadata adds the metadata handler m of a to routes, at the path
// a's metadata URL names.
func withMetadata(routes map[string]http.Handler, a *mcpserver.Auth, m http.Handler) (map[string]http.Handler, error) {
	path, err := a.MetadataPath()
	if err != nil {
		return nil, err
	}
	routes[path] = m
	return routes, nil
}

// serveHTTP serves each handler of routes at its path on addr until ctx
// is cancelled, then shuts down.
func serveHTTP(ctx context.Context, addr string, routes map[string]http.Handler, onShutdown func()) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	for path, h := range routes {
		mux.Handle(path, h)
	}
	hs := &http.Server{Handler: mux}
	if onShutdown != nil {
		hs.RegisterOnShutdown(onShutdown)
	}
	go func() {
		<-ctx.Done()
		hs.Shutdown(context.Background())
	}()
	fmt.Fprintf(os.Stderr, "serving MCP on http://%s/mcp\n", ln.Addr())
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
