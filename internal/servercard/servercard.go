// Package servercard makes a server's Server Card and AI Catalog as the
// draft of SEP-2127 writes them (the experimental-ext-server-card
// repository at commit 8924e08, July 2026: schema.ts and
// docs/discovery.md). The built-in server serves what Make returns and
// mcpgen -card prints it, so the two cannot differ; both take the
// identity and the revisions initialize and server/discover publish.
package servercard

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// The draft's constants.
const (
	// SchemaURL is the card's $schema.
	SchemaURL = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
	// MediaType is the card's media type.
	MediaType = "application/mcp-server-card+json"
	// CatalogMediaType is the AI Catalog's media type.
	CatalogMediaType = "application/ai-catalog+json"
	// CatalogPath is where a domain's AI Catalog is found.
	CatalogPath = "/.well-known/ai-catalog.json"
	// Suffix is appended to the Streamable HTTP endpoint's URL to make
	// the card's.
	Suffix = "/server-card"
	// URLVariable names the endpoint in a card made before its URL is
	// known (mcpgen -card of a server that sets it at run time).
	URLVariable = "url"
)

// Options are the card's own fields, beside the identity's: those of
// mcpserver.Card.
type Options struct {
	Name        string // reverse-DNS with one "/"; empty means Identity.Name when it is one
	URL         string // the endpoint's public URL; empty makes a template
	Description string // at most 100 characters; empty means Identity.Description
	Repository  *Repository
}

// Repository is where the server's source is.
type Repository struct {
	URL       string `json:"url"`
	Source    string `json:"source"`
	Subfolder string `json:"subfolder,omitempty"`
	ID        string `json:"id,omitempty"`
}

// card is the JSON of a Server Card, its members in the schema's order.
type card struct {
	Schema      string      `json:"$schema"`
	Name        string      `json:"name"`
	Version     string      `json:"version"`
	Description string      `json:"description"`
	Title       string      `json:"title,omitempty"`
	WebsiteURL  string      `json:"websiteUrl,omitempty"`
	Repository  *Repository `json:"repository,omitempty"`
	Icons       []icon      `json:"icons,omitempty"`
	Remotes     []remote    `json:"remotes"`
}

type icon struct {
	Src      string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

type remote struct {
	Type      string              `json:"type"`
	URL       string              `json:"url"`
	Variables map[string]variable `json:"variables,omitempty"`
	Versions  []string            `json:"supportedProtocolVersions"`
}

type variable struct {
	Description string `json:"description"`
	IsRequired  bool   `json:"isRequired"`
}

// namePattern is the schema's pattern of a card's name.
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

// Make returns the card of a server of id, with o, serving revisions
// (newest first, as server/discover lists them), indented for people,
// or an error naming the field that the draft's schema refuses.
func Make(id mcprt.Identity, o Options, revisions []string) ([]byte, error) {
	c := card{Schema: SchemaURL, Name: o.Name, Version: id.Version, Description: o.Description,
		Title: id.Title, WebsiteURL: id.WebsiteURL, Repository: o.Repository}
	if c.Name == "" && namePattern.MatchString(id.Name) {
		c.Name = id.Name
	}
	if c.Description == "" {
		c.Description = id.Description
	}
	for _, ic := range id.Icons {
		c.Icons = append(c.Icons, icon{ic.Src, ic.MIMEType, ic.Sizes, ic.Theme})
	}
	r := remote{Type: "streamable-http", URL: o.URL, Versions: slices.Clone(revisions)}
	if r.URL == "" {
		r.URL = "{" + URLVariable + "}"
		r.Variables = map[string]variable{URLVariable: {
			Description: "the URL of the server's Streamable HTTP endpoint, set when it is deployed", IsRequired: true}}
	}
	c.Remotes = []remote{r}
	if err := check(&c, o.URL); err != nil {
		return nil, err
	}
	return marshal(c)
}

// check holds c to the draft's schema, naming the field to fix.
func check(c *card, endpoint string) error {
	n := utf8.RuneCountInString
	switch {
	case !namePattern.MatchString(c.Name) || n(c.Name) < 3 || n(c.Name) > 200:
		return fmt.Errorf("server card: name %q must be reverse-DNS with one slash, such as \"com.example/kb\" (set Card.Name)", c.Name)
	case c.Version == "" || n(c.Version) > 255:
		return errors.New("server card: version (Identity.Version) must have 1 to 255 characters")
	case strings.ContainsAny(c.Version, "^~<>=*") || strings.HasSuffix(c.Version, ".x"):
		return fmt.Errorf("server card: version %q is a range, not a version", c.Version)
	case c.Description == "" || n(c.Description) > 100:
		return fmt.Errorf("server card: the description must have 1 to 100 characters, not %d (set Card.Description)", n(c.Description))
	case n(c.Title) > 100:
		return errors.New("server card: the title (Identity.Title) must have at most 100 characters")
	case c.WebsiteURL != "" && !absolute(c.WebsiteURL):
		return fmt.Errorf("server card: websiteUrl %q is not an absolute URL", c.WebsiteURL)
	case endpoint != "" && (!absolute(endpoint) || strings.ContainsAny(endpoint, " \t\r\n") ||
		!strings.HasPrefix(endpoint, "http://") && !strings.HasPrefix(endpoint, "https://")):
		return fmt.Errorf("server card: the endpoint URL %q is not an absolute http or https URL", endpoint)
	}
	if r := c.Repository; r != nil && (!absolute(r.URL) || r.Source == "") {
		return errors.New("server card: a repository needs an absolute url and a source, such as \"github\"")
	}
	for _, ic := range c.Icons {
		if !absolute(ic.Src) || ic.Theme != "" && ic.Theme != "light" && ic.Theme != "dark" {
			return fmt.Errorf("server card: icon %q needs an absolute URI and a theme of light, dark or none", ic.Src)
		}
	}
	return nil
}

func absolute(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != "")
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Catalog returns the AI Catalog of a domain serving one card, of name,
// at cardURL: one entry whose identifier is the domain-anchored URN the
// draft gives ("com.example/kb" is "urn:air:example.com:mcp:kb").
func Catalog(name, cardURL string) ([]byte, error) {
	ns, server, ok := strings.Cut(name, "/")
	if !ok {
		return nil, fmt.Errorf("server card: name %q has no slash", name)
	}
	labels := strings.Split(ns, ".")
	slices.Reverse(labels)
	type entry struct {
		Identifier string `json:"identifier"`
		Type       string `json:"type"`
		URL        string `json:"url"`
	}
	return marshal(struct {
		SpecVersion string  `json:"specVersion"`
		Entries     []entry `json:"entries"`
	}{"1.0", []entry{{"urn:air:" + strings.Join(labels, ".") + ":mcp:" + server, MediaType, cardURL}}})
}

// ETag is the strong entity tag of a document: a digest of its bytes.
func ETag(doc []byte) string {
	sum := sha256.Sum256(doc)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
}

// CardURL is the card's URL for the endpoint at endpoint.
func CardURL(endpoint string) string {
	return strings.TrimSuffix(endpoint, "/") + Suffix
}
