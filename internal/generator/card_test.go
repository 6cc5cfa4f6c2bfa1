package generator

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/cardtest"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// cardPackage is a package with a tool, an identity and a card; url is
// the Card's URL field, written as Go.
func cardPackage(url string) string {
	return `package x

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

const site = "https://kb.example.com"

var identity = mcprt.Identity{
	Name:        "kb",
	Version:     "1.0.0",
	Title:       "Knowledge base",
	Description: "Articles to search",
	WebsiteURL:  site,
	Icons:       []mcprt.Icon{{Src: site + "/icon.png", MIMEType: "image/png", Sizes: []string{"48x48", "any"}}},
	PageSize:    pageSize(),
}

func pageSize() int { return 10 }

func endpoint() string { return "https://kb.example.com/mcp" }

// Serve serves the tools with a card.
func Serve() *mcpserver.Server {
	srv := mcpserver.New(identity)
	srv.Card = &mcpserver.Card{
		Name:       "com.example/kb",
		URL:        ` + url + `,
		Repository: &mcpserver.CardRepository{URL: "https://github.com/example/kb", Source: "github"},
		Catalog:    true,
	}
	return srv
}

// Double doubles a number.
//
//mcp:tool
//mcp:param n description="a number"
func Double(ctx context.Context, n int) (int, error) { return 2 * n, nil }
`
}

// TestCardFlag: -card prints, byte for byte, the card the built-in
// server serves for the same identity and Card.
func TestCardFlag(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "x.go"), cardPackage(`"https://kb.example.com/mcp"`))
	dir := tempModule(t, src)
	code, stdout, stderr := runMain(t, dir, "-card")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	srv := mcpserver.New(mcprt.Identity{Name: "kb", Version: "1.0.0", Title: "Knowledge base", Description: "Articles to search",
		WebsiteURL: "https://kb.example.com", Icons: []mcprt.Icon{{Src: "https://kb.example.com/icon.png", MIMEType: "image/png", Sizes: []string{"48x48", "any"}}}})
	srv.Card = &mcpserver.Card{Name: "com.example/kb", URL: "https://kb.example.com/mcp",
		Repository: &mcpserver.CardRepository{URL: "https://github.com/example/kb", Source: "github"}}
	rec := httptest.NewRecorder()
	srv.CardHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://kb.example.com/mcp/server-card", nil))
	if rec.Code != 200 || rec.Body.String() != stdout {
		t.Errorf("-card printed\n%s\nthe server serves (%d)\n%s", stdout, rec.Code, rec.Body)
	}
	if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err == nil {
		t.Error("-card wrote the generated file")
	}
}

// TestCardFlagRunTimeURL: a URL set at run time gives a remote whose URL
// is a variable, and the card is still valid by the card schema.
func TestCardFlagRunTimeURL(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "x.go"), cardPackage(`endpoint()`))
	code, stdout, stderr := runMain(t, tempModule(t, src), "-card")
	if code != ExitOK || !strings.Contains(stdout, `"url": "{url}"`) || !strings.Contains(stdout, `"isRequired": true`) {
		t.Fatalf("exit %d, stderr %s\n%s", code, stderr, stdout)
	}
	if err := cardtest.Validate([]byte(stdout)); err != nil {
		t.Errorf("%v\n%s", err, stdout)
	}
}

// TestCardFlagRefuses: what -card cannot read, or the draft refuses, is
// an error at its position; a package without a card says so.
func TestCardFlagRefuses(t *testing.T) {
	t.Parallel()
	ok := cardPackage(`"https://kb.example.com/mcp"`)
	for name, c := range map[string]struct{ src, want string }{
		"a version of a function": {strings.Replace(ok, `Version:     "1.0.0",`, `Version:     pageVersion(),`, 1) + "\nfunc pageVersion() string { return \"1\" }\n",
			`x.go:14:15: -card: Identity.Version is not a constant; the card is made at build time from constants`},
		"a name the draft refuses": {strings.Replace(ok, `"com.example/kb"`, `"kb"`, 1),
			`x.go:29:14: -card: server card: name "kb" must be reverse-DNS with one slash, such as "com.example/kb" (set Card.Name)`},
		"a second card": {ok + "\nvar other = mcpserver.Card{Name: \"a/b\"}\n",
			`x.go:44:13: -card: a second mcpserver.Card literal (the first is at x.go:29); the package must have one`},
		"no identity": {identityByHand(ok), `x.go:1:9: -card: package x has no mcprt.Identity literal to make the card of`},
		"unkeyed": {strings.Replace(ok, `Repository: &mcpserver.CardRepository{URL: "https://github.com/example/kb", Source: "github"},`, `Repository: &mcpserver.CardRepository{"https://github.com/example/kb", "github", "", ""},`, 1),
			`x.go:32:41: -card: write the mcpserver.CardRepository literal with field names`},
		"no card": {"package x\n\nimport \"context\"\n\n// Double doubles.\n//\n//mcp:tool\n//mcp:param n description=\"n\"\nfunc Double(ctx context.Context, n int) (int, error) { return n, nil }\n",
			`mcpgen: -card: no package has an mcpserver.Card literal`},
	} {
		src := t.TempDir()
		writeFile(t, filepath.Join(src, "x.go"), c.src)
		code, stdout, stderr := runMain(t, tempModule(t, src), "-card")
		if code != ExitFail || stdout != "" || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", name, code, stdout, stderr, c.want)
		}
	}
}

// identityByHand is src with its identity made without a literal.
func identityByHand(src string) string {
	i := strings.Index(src, "var identity = mcprt.Identity{")
	j := i + strings.Index(src[i:], "\n}\n") + 3
	return src[:i] + "var identity = byHand()\n\nfunc byHand() (id mcprt.Identity) {\n\tid.Name, id.Version = \"kb\", \"1\"\n\treturn id\n}\n" + src[j:]
}
