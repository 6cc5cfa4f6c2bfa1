package generator

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// rawClient speaks JSON-RPC to a server over its standard input and
// output, newline-delimited, without an SDK's types in between: a test
// sees the bytes each server path sends, members an SDK client would drop
// or fill in included. It speaks one protocol revision: an older one after
// initialize, 2026-07-28 with the _meta every request of it carries.
type rawClient struct {
	t     *testing.T
	rev   string
	in    io.WriteCloser
	lines chan string
	id    int
}

// startRaw starts cmd and, for a revision before 2026-07-28, initializes
// a session of revision rev. The process ends with the test.
func startRaw(t *testing.T, cmd *exec.Cmd, rev string) *rawClient {
	t.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := newRawClient(t, rev, in, out)
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	c.initialize()
	return c
}

// newRawClient is a client of revision rev that writes to in and reads
// the server's answers from out, until out ends.
func newRawClient(t *testing.T, rev string, in io.WriteCloser, out io.Reader) *rawClient {
	c := &rawClient{t: t, rev: rev, in: in, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	return c
}

// initialize begins a session of the client's revision, before
// 2026-07-28, which has none.
func (c *rawClient) initialize() {
	c.t.Helper()
	if c.rev < "2026-07-28" {
		c.call("initialize", `{"protocolVersion":"`+c.rev+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
		c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
}

// send writes one message, a line of JSON.
func (c *rawClient) send(msg string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, msg+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// statelessMeta is the _meta member of a 2026-07-28 request.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`

// call sends a request and returns its answer as the server wrote it: the
// result, or {"error":...}. Notifications on the way are skipped.
func (c *rawClient) call(method, params string) string {
	c.t.Helper()
	if c.rev >= "2026-07-28" {
		if params == "{}" {
			params = "{" + statelessMeta + "}"
		} else {
			params = "{" + statelessMeta + "," + params[1:]
		}
	}
	c.id++
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, c.id, method, params))
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("%s %s: the server closed its output", method, params)
			}
			var msg struct {
				ID     json.RawMessage
				Method string
				Result json.RawMessage
				Error  json.RawMessage
			}
			if err := json.Unmarshal([]byte(line), &msg); err != nil {
				c.t.Fatalf("%s: not JSON-RPC: %s", method, line)
			}
			if msg.Method != "" || string(msg.ID) != fmt.Sprint(c.id) {
				continue // a notification, or a request of the server's
			}
			if msg.Error != nil {
				return `{"error":` + string(msg.Error) + `}`
			}
			return string(msg.Result)
		case <-time.After(20 * time.Second):
			c.t.Fatalf("%s %s: no answer", method, strings.TrimSpace(params))
		}
	}
}
