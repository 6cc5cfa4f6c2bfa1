// Package browser checks CORS in a real browser: headless Chromium loads
// a page of one loopback origin whose script calls initialize and
// tools/list with fetch against examples/kb on another port. With -cors
// naming the page's origin the calls succeed; without it the browser
// refuses to hand the page the answers.
package browser

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// page calls the server named by the query parameter mcp and writes what
// happened into #outcome. The image /hold keeps the page's load event,
// after which Chromium dumps the DOM, waiting until the script has posted
// its outcome to /done.
const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>mcp from a browser</title></head>
<body><pre id="outcome">running</pre>
<script>
const mcp = new URLSearchParams(location.search).get("mcp");
async function post(body, session) {
  const headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"};
  if (session) headers["Mcp-Session-Id"] = session;
  const resp = await fetch(mcp, {method: "POST", headers, body: JSON.stringify(body)});
  return resp;
}
async function run() {
  let resp = await post({jsonrpc: "2.0", id: 1, method: "initialize", params: {protocolVersion: "2025-06-18", capabilities: {}, clientInfo: {name: "browser", version: "1"}}});
  const session = resp.headers.get("Mcp-Session-Id");
  const init = await resp.json();
  if (!session) throw new Error("no Mcp-Session-Id exposed");
  await post({jsonrpc: "2.0", method: "notifications/initialized"}, session);
  resp = await post({jsonrpc: "2.0", id: 2, method: "tools/list"}, session);
  const list = await resp.json();
  return "ok server=" + init.result.serverInfo.name + " tools=" + list.result.tools.map(t => t.name).sort().join(",");
}
run().then(r => r, e => "failed " + e.name + ": " + e.message).then(r => {
  document.getElementById("outcome").textContent = r;
  return fetch("/done", {method: "POST", body: r});
});
</script>
<img src="/hold" alt="">
</body></html>`

// chromium returns the browser's path, or skips the test without it
// (outside CI, where its absence is a failure).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed (apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed")
	return ""
}

// startKB builds and runs examples/kb on a free loopback port with args
// and returns its endpoint.
func startKB(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"-http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := regexp.MustCompile(`serving MCP on (http://\S+)`).FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return a
	case <-time.After(30 * time.Second):
		t.Fatal("kb did not start")
	}
	return ""
}

// pageServer serves page and learns its outcome.
type pageServer struct {
	*httptest.Server
	done chan string
}

func startPage(t *testing.T) *pageServer {
	ps := &pageServer{done: make(chan string, 1)}
	finished := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	mux.HandleFunc("POST /done", func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		bufio.NewReader(r.Body).WriteTo(&b)
		ps.done <- b.String()
		close(finished)
	})
	mux.HandleFunc("GET /hold", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-finished:
		case <-r.Context().Done():
		}
		http.NotFound(w, r)
	})
	ps.Server = httptest.NewServer(mux)
	t.Cleanup(ps.Close)
	return ps
}

// load has Chromium load the page against endpoint and returns the
// outcome in its DOM.
func load(t *testing.T, browser string, ps *pageServer, endpoint string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--dump-dom", ps.URL+"/?mcp="+endpoint)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`<pre id="outcome">([^<]*)</pre>`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no outcome in the DOM:\n%s", out)
	}
	select {
	case posted := <-ps.done:
		if posted != string(m[1]) {
			t.Errorf("the page posted %q but its DOM says %q", posted, m[1])
		}
	default:
		t.Error("the page did not post its outcome")
	}
	t.Logf("outcome: %s", m[1])
	return string(m[1])
}

// TestBrowserCORS loads the page against kb with CORS for the page's
// origin, which succeeds, and against kb without it, which the browser
// refuses.
func TestBrowserCORS(t *testing.T) {
	browser := chromium(t)
	if testing.Short() {
		t.Skip("builds examples/kb and runs a browser")
	}
	bin := filepath.Join(t.TempDir(), "kb")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/mcpgen/mcpgen/examples/kb").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	t.Run("cors", func(t *testing.T) {
		ps := startPage(t)
		endpoint := startKB(t, bin, "-cors", ps.URL)
		if got := load(t, browser, ps, endpoint); !strings.HasPrefix(got, "ok server=kb tools=") || !strings.Contains(got, "search") {
			t.Errorf("with CORS: %s", got)
		}
	})
	t.Run("no-cors", func(t *testing.T) {
		ps := startPage(t)
		endpoint := startKB(t, bin)
		if got := load(t, browser, ps, endpoint); !strings.HasPrefix(got, "failed TypeError") {
			t.Errorf("without CORS the page read the answer: %s", got)
		}
	})
}
