package mcpserver

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/servercard"
	"github.com/mcpgen/mcpgen/internal/wire"
)

// Card is the server's Server Card, as SEP-2127 defines it while it is a
// draft (the experimental-ext-server-card repository at commit 8924e08):
// a JSON document that tells a registry or a host what the server is
// before it connects. Setting Server.Card opts in; its wire form may
// change with the draft.
//
// The card is made from the server's Identity (version, title,
// description, website and icons) and the revisions server/discover
// lists, with these fields beside them. It is served at the endpoint's
// URL followed by /server-card, as application/mcp-server-card+json, to
// any origin, with Cache-Control public, max-age=3600 and a strong ETag
// that If-None-Match is answered 304 for. mcpgen -card prints the same
// card at build time.
type Card struct {
	// Name is the server's name in reverse-DNS form with one slash
	// ("com.example/kb"). Empty means Identity.Name, when it has that form.
	Name string
	// URL is the public URL of the Streamable HTTP endpoint, as clients
	// dial it ("https://kb.example.com/mcp"). Empty means Auth.Resource.
	URL string
	// Description is the card's description, of at most 100 characters.
	// Empty means Identity.Description.
	Description string
	// Repository is where the server's source code is, if it is public.
	Repository *CardRepository
	// Catalog also serves an AI Catalog naming the card at
	// /.well-known/ai-catalog.json, for a server that owns its domain.
	Catalog bool
}

// CardRepository is where a server's source code is.
type CardRepository struct {
	URL       string // for browsing and git clone
	Source    string // the hosting service, such as "github"
	Subfolder string // the server's directory in the repository, if not its root
	ID        string // the service's identifier of the repository, if any
}

// cardState holds the documents of Server.Card, made on first use.
type cardState struct {
	once                 sync.Once
	card, catalog        []byte
	cardTag, catalogTag  string
	cardPath, catalogURL string
	err                  error
}

// cardDocs returns the server's card documents, made once.
func (s *Server) cardDocs() *cardState {
	c := &s.cards
	c.once.Do(func() { c.err = s.makeCard(c) })
	return c
}

func (s *Server) makeCard(c *cardState) error {
	sc := s.Card
	endpoint := sc.URL
	if endpoint == "" && s.Auth != nil {
		endpoint = s.Auth.Resource
	}
	if endpoint == "" {
		return errors.New("mcpserver: Card: set Card.URL, the endpoint's public URL (or Auth.Resource)")
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return errors.New("mcpserver: Card: URL " + endpoint + " is not an absolute URL")
	}
	o := servercard.Options{Name: sc.Name, URL: endpoint, Description: sc.Description}
	if r := sc.Repository; r != nil {
		o.Repository = &servercard.Repository{URL: r.URL, Source: r.Source, Subfolder: r.Subfolder, ID: r.ID}
	}
	revs := make([]string, len(wire.Revisions))
	for i, r := range wire.Revisions {
		revs[i] = string(r)
	}
	if c.card, err = servercard.Make(s.id, o, revs); err != nil {
		return errors.New("mcpserver: Card: " + err.Error())
	}
	c.cardTag = servercard.ETag(c.card)
	c.cardPath = strings.TrimSuffix(u.EscapedPath(), "/") + servercard.Suffix
	if sc.Catalog {
		name := sc.Name
		if name == "" {
			name = s.id.Name
		}
		if c.catalog, err = servercard.Catalog(name, servercard.CardURL(endpoint)); err != nil {
			return errors.New("mcpserver: Card: " + err.Error())
		}
		c.catalogTag = servercard.ETag(c.catalog)
	}
	return nil
}

// CardPaths returns the paths on the endpoint's host where CardHandler
// serves: the card's (the endpoint's path and /server-card) and, with
// Card.Catalog, /.well-known/ai-catalog.json. It is an error without
// Card, or when the card cannot be made.
func (s *Server) CardPaths() ([]string, error) {
	if s.Card == nil {
		return nil, errors.New("mcpserver: CardPaths: Server.Card is not set")
	}
	c := s.cardDocs()
	if c.err != nil {
		return nil, c.err
	}
	paths := []string{c.cardPath}
	if c.catalog != nil {
		paths = append(paths, servercard.CatalogPath)
	}
	return paths, nil
}

// CardHandler serves the Server Card and the AI Catalog of Server.Card at
// the paths CardPaths names; mount it there when the endpoint's handler
// does not see those paths (HTTPHandler answers them when they reach it).
// Without Card it answers 404; with a card that cannot be made, 500.
func (s *Server) CardHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.serveCard(w, r) {
			http.NotFound(w, r)
		}
	})
}

// serveCard answers a request for the card or the catalog and reports
// whether it was one.
func (s *Server) serveCard(w http.ResponseWriter, r *http.Request) bool {
	if s.Card == nil || r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions {
		return false
	}
	c := s.cardDocs()
	if c.err != nil {
		if strings.HasSuffix(r.URL.Path, servercard.Suffix) || r.URL.Path == servercard.CatalogPath {
			s.logger().Error(c.err.Error())
			http.Error(w, "Internal Server Error: the server card is misconfigured", http.StatusInternalServerError)
			return true
		}
		return false
	}
	switch {
	case r.URL.Path == c.cardPath:
		serveDocument(w, r, c.card, c.cardTag, servercard.MediaType)
	case c.catalog != nil && r.URL.Path == servercard.CatalogPath:
		serveDocument(w, r, c.catalog, c.catalogTag, servercard.CatalogMediaType)
	default:
		return false
	}
	return true
}

// serveDocument serves a public discovery document as the draft asks:
// to any origin, cached for an hour, with a strong ETag; net/http's
// ServeContent answers If-None-Match with 304, and HEAD.
func serveDocument(w http.ResponseWriter, r *http.Request, doc []byte, tag, mediaType string) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", "GET, HEAD")
		h.Set("Access-Control-Allow-Headers", "Content-Type, If-None-Match")
		h.Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	h.Set("Access-Control-Expose-Headers", "ETag")
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("Content-Type", mediaType)
	h.Set("ETag", tag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(doc))
}
