package servertest

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"testing"
)

// Raw is a client that speaks newline-delimited JSON-RPC to a server's
// stream without any SDK's client, so that a test sees the bytes the
// server writes.
type Raw struct {
	t   testing.TB
	w   io.Writer
	r   *bufio.Reader
	rev string
	id  int
}

// NewRaw returns a raw client writing requests of revision rev to w and
// reading answers from r; before 2026-07-28 it first initializes a session
// of rev.
func NewRaw(t testing.TB, r io.Reader, w io.Writer, rev string) *Raw {
	t.Helper()
	c := &Raw{t: t, w: w, r: bufio.NewReaderSize(r, 1<<16), rev: rev}
	if rev < "2026-07-28" {
		c.Call("initialize", `{"protocolVersion":"`+rev+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
		c.write(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	}
	return c
}

func (c *Raw) write(msg string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, msg+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// Call sends a request, on 2026-07-28 with StatelessMeta in its params, and
// returns the response's result, or {"error":...}, as the server wrote it,
// skipping notifications and requests of the server.
func (c *Raw) Call(method, params string) string {
	c.t.Helper()
	if c.rev >= "2026-07-28" && method != "initialize" {
		if params == "{}" {
			params = "{" + StatelessMeta + "}"
		} else {
			params = "{" + StatelessMeta + "," + params[1:]
		}
	}
	c.id++
	c.write(`{"jsonrpc":"2.0","id":` + strconv.Itoa(c.id) + `,"method":"` + method + `","params":` + params + `}`)
	for {
		line, err := c.r.ReadBytes('\n')
		if err != nil {
			c.t.Fatalf("%s: reading the answer: %v", method, err)
		}
		var msg struct {
			ID            json.RawMessage
			Method        string
			Result, Error json.RawMessage
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			c.t.Fatalf("%s: %v: %s", method, err, line)
		}
		if msg.Method != "" || string(msg.ID) != strconv.Itoa(c.id) {
			continue
		}
		if msg.Error != nil {
			return `{"error":` + string(msg.Error) + `}`
		}
		return string(msg.Result)
	}
}
