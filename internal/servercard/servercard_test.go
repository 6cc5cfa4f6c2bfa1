package servercard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/cardtest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// validate checks doc against the card schema (package cardtest).
func validate(t *testing.T, doc []byte) error {
	t.Helper()
	return cardtest.Validate(doc)
}

var kb = mcprt.Identity{Name: "kb", Version: "1.0.0", Title: "Knowledge base", Description: "Articles to search and notes to add",
	WebsiteURL: "https://kb.example.com", Icons: []mcprt.Icon{{Src: "https://kb.example.com/icon.png", MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: "light"}}}

var revisions = []string{"2026-07-28", "2025-11-25"}

// TestMakeValidates: cards made with every field, with none but the
// required ones, and with a URL to fill in at deployment, are valid by
// the card schema.
func TestMakeValidates(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		id mcprt.Identity
		o  Options
	}{
		"every field": {kb, Options{Name: "com.example/kb", URL: "https://kb.example.com/mcp",
			Repository: &Repository{URL: "https://github.com/example/kb", Source: "github", Subfolder: "server", ID: "42"}}},
		"the least":             {mcprt.Identity{Name: "com.example/kb", Version: "1", Description: "d"}, Options{URL: "http://127.0.0.1:8080/mcp"}},
		"a URL set at run time": {kb, Options{Name: "com.example/kb"}},
	} {
		doc, err := Make(c.id, c.o, revisions)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := validate(t, doc); err != nil {
			t.Errorf("%s: %s\n%v", name, doc, err)
		}
	}
}

// TestMake: the card carries the identity, the revisions and the
// options, in the draft's members.
func TestMake(t *testing.T) {
	t.Parallel()
	doc, err := Make(kb, Options{Name: "com.example/kb", URL: "https://kb.example.com/mcp"}, revisions)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
  "name": "com.example/kb",
  "version": "1.0.0",
  "description": "Articles to search and notes to add",
  "title": "Knowledge base",
  "websiteUrl": "https://kb.example.com",
  "icons": [
    {
      "src": "https://kb.example.com/icon.png",
      "mimeType": "image/png",
      "sizes": [
        "48x48"
      ],
      "theme": "light"
    }
  ],
  "remotes": [
    {
      "type": "streamable-http",
      "url": "https://kb.example.com/mcp",
      "supportedProtocolVersions": [
        "2026-07-28",
        "2025-11-25"
      ]
    }
  ]
}
`
	if string(doc) != want {
		t.Errorf("card:\n%s\nwant\n%s", doc, want)
	}
	if ETag(doc) != ETag(append([]byte{}, doc...)) || ETag(doc) == ETag(append(doc, ' ')) || strings.HasPrefix(ETag(doc), "W/") {
		t.Error("the ETag is not a strong digest of the bytes")
	}
}

// TestMakeRefuses: what the draft refuses is an error naming the field,
// and the card schema refuses it too.
func TestMakeRefuses(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 101)
	for name, c := range map[string]struct {
		id   mcprt.Identity
		o    Options
		want string
	}{
		"no name":          {kb, Options{}, "set Card.Name"},
		"two slashes":      {kb, Options{Name: "com.example/kb/x"}, "set Card.Name"},
		"no description":   {mcprt.Identity{Version: "1"}, Options{Name: "a/b"}, "set Card.Description"},
		"long description": {mcprt.Identity{Version: "1", Description: long}, Options{Name: "a/b"}, "not 101"},
		"no version":       {mcprt.Identity{Description: "d"}, Options{Name: "a/b"}, "Identity.Version"},
		"a range":          {mcprt.Identity{Version: "^1.2.3", Description: "d"}, Options{Name: "a/b"}, "is a range"},
		"long title":       {mcprt.Identity{Version: "1", Description: "d", Title: long}, Options{Name: "a/b"}, "Identity.Title"},
		"relative URL":     {kb, Options{Name: "a/b", URL: "/mcp"}, "endpoint URL"},
		"ftp URL":          {kb, Options{Name: "a/b", URL: "ftp://h/mcp"}, "endpoint URL"},
		"repository":       {kb, Options{Name: "a/b", Repository: &Repository{URL: "https://h"}}, "repository"},
	} {
		if _, err := Make(c.id, c.o, revisions); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, c.want)
		}
	}
	// The schema agrees about the ones it can see in a card alone.
	for _, doc := range []string{
		`{"$schema":"` + SchemaURL + `","name":"com.example/kb/x","version":"1","description":"d"}`,
		`{"$schema":"` + SchemaURL + `","name":"a/b","version":"1","description":"` + long + `"}`,
		`{"$schema":"` + SchemaURL + `","name":"a/b","version":"^1.2.3","description":"d"}`,
		`{"$schema":"` + SchemaURL + `","name":"a/b","version":"1","description":"d","title":"` + long + `"}`,
		`{"$schema":"` + SchemaURL + `","name":"a/b","version":"1","description":"d","remotes":[{"type":"streamable-http","url":"ftp://h/mcp"}]}`,
		`{"$schema":"` + SchemaURL + `","name":"a/b","version":"1","description":"d","repository":{"url":"https://h"}}`,
	} {
		if validate(t, []byte(doc)) == nil {
			t.Errorf("the schema takes %s", doc)
		}
	}
}

// TestCatalog: one entry naming the card by the domain-anchored URN.
func TestCatalog(t *testing.T) {
	t.Parallel()
	doc, err := Catalog("com.example/kb", CardURL("https://kb.example.com/mcp/"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		SpecVersion string
		Entries     []struct{ Identifier, Type, URL string }
	}
	if err := json.Unmarshal(doc, &c); err != nil || c.SpecVersion != "1.0" || len(c.Entries) != 1 {
		t.Fatalf("%s: %v", doc, err)
	}
	if e := c.Entries[0]; e.Identifier != "urn:air:example.com:mcp:kb" || e.Type != MediaType || e.URL != "https://kb.example.com/mcp/server-card" {
		t.Errorf("entry %+v", e)
	}
}
