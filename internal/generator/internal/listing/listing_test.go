package listing

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// serveArg makes the test binary a stdio server instead of running the
// tests, for the command a test fetches from.
const serveArg = "serve-listing-over-stdio"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == serveArg {
		if err := server().ServeStdio(context.Background()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// server serves two tools, a prompt and a template, one a page, so that
// every list takes several requests.
func server() *mcpserver.Server {
	tool := func(name, schema string) mcprt.Tool {
		return mcprt.Tool{Name: name, Description: "d", InputSchema: []byte(schema),
			Handler: func(context.Context, []byte) mcprt.Result { return mcprt.TextResult("") }}
	}
	s := mcpserver.New(mcprt.Identity{Name: "lister", Version: "1.2", PageSize: 1},
		tool("first", `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}}}`),
		tool("second", `{"type":"object"}`))
	s.AddPrompts(mcprt.Prompt{Name: "p", Arguments: []mcprt.PromptArgument{{Name: "a", Required: true}},
		Get: func(context.Context, map[string]string) (mcprt.PromptResult, error) { return mcprt.PromptResult{}, nil }})
	s.AddResources(mcprt.Resource{URI: "x://{id}", Name: "x",
		Read: func(context.Context, string) ([]mcprt.ResourceContents, error) { return nil, nil }})
	return s
}

// checkListing checks what a fetch of server returned.
func checkListing(t *testing.T, l *Listing) {
	t.Helper()
	v, err := jsonv.Parse(l.JSON)
	if err != nil {
		t.Fatal(err)
	}
	root := v.(jsonv.Object)
	var keys []string
	for _, m := range root {
		keys = append(keys, m.Key)
	}
	if got := strings.Join(keys, " "); got != "serverInfo tools prompts resources resourceTemplates" {
		t.Errorf("members %q, want serverInfo, tools, prompts, resources, resourceTemplates", got)
	}
	info, _ := root.Object("serverInfo")
	if info.String("name") != "lister" {
		t.Errorf("serverInfo %s", jsonv.Marshal(info))
	}
	tools := root.Array("tools")
	if len(tools) != 2 {
		t.Fatalf("%d tools, want both of two pages", len(tools))
	}
	schema, _ := tools[0].(jsonv.Object).Object("inputSchema")
	props, _ := schema.Object("properties")
	if len(props) != 2 || props[0].Key != "zeta" || props[1].Key != "alpha" {
		t.Errorf("properties %s, want zeta then alpha, as the server wrote them", jsonv.Marshal(props))
	}
	if len(root.Array("prompts")) != 1 || len(root.Array("resourceTemplates")) != 1 {
		t.Errorf("prompts %s, templates %s", jsonv.Marshal(root.Array("prompts")), jsonv.Marshal(root.Array("resourceTemplates")))
	}
}

// TestFetchCommand fetches from a command serving stdio: this test
// binary, told to serve.
func TestFetchCommand(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l, err := Fetch(t.Context(), Source{Text: "'" + exe + "' " + serveArg, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	checkListing(t, l)
}

// TestFetchHTTP fetches from a Streamable HTTP endpoint that wants a
// bearer token, with and without it.
func TestFetchHTTP(t *testing.T) {
	t.Parallel()
	h := server().HTTPHandler()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer hs.Close()
	l, err := Fetch(t.Context(), Source{Text: hs.URL, Token: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	checkListing(t, l)
	if _, err := Fetch(t.Context(), Source{Text: hs.URL}); err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "MCPGEN_TOKEN") {
		t.Errorf("without the token: %v, want a 401 naming MCPGEN_TOKEN", err)
	}
}

// TestFetchCommandFails reports what a failing command wrote.
func TestFetchCommandFails(t *testing.T) {
	t.Parallel()
	_, err := Fetch(t.Context(), Source{Text: `sh -c 'echo no such server >&2; exit 3'`, Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "no such server") {
		t.Errorf("a failing command: %v, want its standard error", err)
	}
	if _, err := Fetch(t.Context(), Source{Text: `a 'b`, Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "unterminated quote") {
		t.Errorf("an unterminated quote: %v", err)
	}
}

// TestFromFile reads a saved listing, bare or in a JSON-RPC response,
// and refuses anything else.
func TestFromFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want, err string }{
		{`{"tools":[{"name":"a"}],"nextCursor":"x"}`, `{"tools":[{"name":"a"}]}`, ""},
		{`{"jsonrpc":"2.0","id":1,"result":{"tools":[],"prompts":[]}}`, `{"tools":[],"prompts":[]}`, ""},
		{`{"prompts":[]}`, "", `want an object with "tools"`},
		{`[1`, "", "not JSON"},
	} {
		got, err := FromFile([]byte(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("FromFile(%s) = %v, want an error saying %q", tc.in, err, tc.err)
			}
			continue
		}
		v, _ := jsonv.Parse(got)
		if err != nil || string(jsonv.Marshal(v)) != tc.want {
			t.Errorf("FromFile(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

func TestSplitCommand(t *testing.T) {
	t.Parallel()
	got, err := splitCommand(`npx -y "a b" 'c"d' e\ f`)
	if want := []string{"npx", "-y", "a b", `c"d`, "e f"}; err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("splitCommand = %q, %v; want %q", got, err, want)
	}
}
