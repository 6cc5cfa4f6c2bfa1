package cardtest

import (
	"strings"
	"testing"
)

// card is a valid card with every member, to break one at a time.
const card = `{
  "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
  "name": "com.example/kb",
  "version": "1.0.0",
  "description": "Articles to search",
  "title": "Knowledge base",
  "websiteUrl": "https://kb.example.com",
  "repository": {"url": "https://github.com/example/kb", "source": "github", "subfolder": "server", "id": "42"},
  "icons": [{"src": "https://kb.example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48"], "theme": "light"}],
  "remotes": [{
    "type": "streamable-http",
    "url": "{host}/mcp",
    "headers": [{"name": "X-Key", "value": "{key}", "isSecret": true, "variables": {"key": {"isRequired": true}}}],
    "variables": {"host": {"description": "the host", "isRequired": true, "choices": ["https://a", "https://b"]}},
    "supportedProtocolVersions": ["2026-07-28", "2025-11-25"]
  }],
  "_meta": {"com.example/anything": [1, 2]}
}`

// TestValidate: the full card is valid, and each change the draft
// forbids makes it invalid at the member changed.
func TestValidate(t *testing.T) {
	t.Parallel()
	if err := Validate([]byte(card)); err != nil {
		t.Fatalf("the full card: %v", err)
	}
	for name, c := range map[string]struct{ old, new, where string }{
		"another $schema":        {`v1/server-card`, `v2/server-card`, "/$schema"},
		"a name without a slash": {`"com.example/kb"`, `"kb"`, "/name"},
		"a name with two":        {`"com.example/kb"`, `"com.example/kb/x"`, "/name"},
		"a version range":        {`"1.0.0"`, `"^1.0"`, "/version"},
		"a wildcard version":     {`"1.0.0"`, `"1.x"`, "/version"},
		"an empty version":       {`"1.0.0"`, `""`, "/version"},
		"a long description":     {`"Articles to search"`, `"` + strings.Repeat("é", 101) + `"`, "/description"},
		"no description":         {`"description": "Articles to search",`, ``, ""},
		"a long title":           {`"Knowledge base"`, `"` + strings.Repeat("t", 101) + `"`, "/title"},
		"a relative website":     {`"https://kb.example.com"`, `"kb.example.com"`, "/websiteUrl"},
		"a repository bare":      {`, "source": "github"`, ``, "/repository"},
		"an icon theme":          {`"light"`, `"blue"`, "/icons/0/theme"},
		"an icon without src":    {`"src": "https://kb.example.com/icon.png", `, ``, "/icons/0"},
		"another transport":      {`"streamable-http"`, `"stdio"`, "/remotes/0/type"},
		"a relative url":         {`"{host}/mcp"`, `"/mcp"`, "/remotes/0/url"},
		"a header without name":  {`"name": "X-Key", `, ``, "/remotes/0/headers/0"},
		"a header member":        {`"isSecret": true`, `"secret": true`, "/remotes/0/headers/0/secret"},
		"a variable member":      {`"isRequired": true, "choices"`, `"required": true, "choices"`, "/remotes/0/variables/host/required"},
		"a revision":             {`"2025-11-25"`, `"latest"`, "/remotes/0/supportedProtocolVersions/1"},
		"a revision twice":       {`"2025-11-25"`, `"2026-07-28"`, "/remotes/0/supportedProtocolVersions"},
		"a member unnamed":       {`"_meta"`, `"meta"`, ""},
		"_meta not an object":    {`{"com.example/anything": [1, 2]}`, `[]`, "/_meta"},
	} {
		doc := strings.Replace(card, c.old, c.new, 1)
		if doc == card {
			t.Fatalf("%s: %q is not in the card", name, c.old)
		}
		err := Validate([]byte(doc))
		if err == nil {
			t.Errorf("%s: valid", name)
		} else if !strings.Contains(err.Error(), "at '"+c.where+"'") {
			t.Errorf("%s: %v; want an error at %q", name, err, c.where)
		}
	}
}
