package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

const timeout = 5 * time.Second

// canon returns the compact JSON of js with object keys sorted, so two
// texts of the same JSON value compare equal as strings.
func canon(t *testing.T, js string) string {
	t.Helper()
	var v any
	d := json.NewDecoder(strings.NewReader(js))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, js)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameJSON fails the test when got and want are not the same JSON value.
func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	if g, w := canon(t, got), canon(t, want); g != w {
		t.Errorf("got  %s\nwant %s", g, w)
	}
}

// textTool is a tool answering with one text block.
func textTool(name, text string) mcprt.Tool {
	return mcprt.Tool{
		Name:        name,
		InputSchema: []byte(`{"type":"object"}`),
		Handler: func(ctx context.Context, args []byte) mcprt.Result {
			return mcprt.TextResult(text)
		},
	}
}

// handlerTool is a tool running h.
func handlerTool(name string, h mcprt.Handler) mcprt.Tool {
	return mcprt.Tool{Name: name, InputSchema: []byte(`{"type":"object"}`), Handler: h}
}

// stdioClient plays the client of a server run by ServeStream.
type stdioClient struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan string
	done   chan error
	cancel context.CancelFunc
}

// startStdio runs srv over pipes until the test ends.
func startStdio(t *testing.T, srv *Server) *stdioClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &stdioClient{t: t, in: inW, lines: make(chan string, 100), done: make(chan error, 1), cancel: cancel}
	go func() {
		c.done <- srv.ServeStream(ctx, inR, outW)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(timeout):
			t.Error("server did not stop")
		}
	})
	return c
}

func (c *stdioClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// recv returns the next line the server wrote.
func (c *stdioClient) recv() string {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.t.Fatal("server output ended")
		}
		return l
	case <-time.After(timeout):
		c.t.Fatal("no message from the server")
	}
	return ""
}

// expect reads the next line and compares it with want.
func (c *stdioClient) expect(want string) {
	c.t.Helper()
	sameJSON(c.t, c.recv(), want)
}

// call sends line and compares the next line with want.
func (c *stdioClient) call(line, want string) {
	c.t.Helper()
	c.send(line)
	c.expect(want)
}

// close ends the input and returns what ServeStream returned.
func (c *stdioClient) close() error {
	c.t.Helper()
	c.in.Close()
	select {
	case err := <-c.done:
		c.done <- err
		return err
	case <-time.After(timeout):
		c.t.Fatal("server did not stop at end of input")
	}
	return nil
}

// rest returns every line written after the input ended.
func (c *stdioClient) rest() []string {
	c.t.Helper()
	c.close()
	var out []string
	for l := range c.lines {
		out = append(out, l)
	}
	return out
}

// initialize opens a session of revision rev with the given client
// capabilities (a JSON object) and checks that it was accepted.
func (c *stdioClient) initialize(rev wire.Revision, caps string) {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + string(rev) +
		`","capabilities":` + caps + `,"clientInfo":{"name":"test","version":"1"}}}`)
	var r struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	line := c.recv()
	if err := json.Unmarshal([]byte(line), &r); err != nil || r.Result.ProtocolVersion != string(rev) {
		c.t.Fatalf("initialize %s: %s", rev, line)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// statelessMeta is the _meta of a 2026-07-28 request.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
