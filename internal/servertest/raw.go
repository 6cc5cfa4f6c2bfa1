package servertest

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
)

// Raw is a client that speaks newline-delimited JSON-RPC to a server's
// stream without any SDK's client, so that a test sees the bytes the
// server writes.
type Raw struct {
	t      testing.TB
	w      io.Writer
	r      *bufio.Reader
	rev    string
	caps   string
	level  string
	id     int
	answer func(method string, params []byte) string
	notify func(method string, params []byte)
}

// NewRaw returns a raw client writing requests of revision rev to w and
// reading answers from r; before 2026-07-28 it first initializes a session
// of rev. It declares no capabilities.
func NewRaw(t testing.TB, r io.Reader, w io.Writer, rev string) *Raw {
	t.Helper()
	return NewRawCaps(t, r, w, rev, "{}")
}

// NewRawCaps is [NewRaw] for a client that declares caps, a
// ClientCapabilities object: at initialize, or on 2026-07-28 in the _meta
// of each request.
func NewRawCaps(t testing.TB, r io.Reader, w io.Writer, rev, caps string) *Raw {
	t.Helper()
	c := &Raw{t: t, w: w, r: bufio.NewReaderSize(r, 1<<16), rev: rev, caps: caps}
	if rev < "2026-07-28" {
		c.Call("initialize", `{"protocolVersion":"`+rev+`","capabilities":`+caps+`,"clientInfo":{"name":"raw","version":"1"}}`)
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

// LogLevel asks for log messages at level and above: with
// logging/setLevel on a session, in the _meta of each request on
// 2026-07-28.
func (c *Raw) LogLevel(level string) {
	c.t.Helper()
	if c.rev < "2026-07-28" {
		c.Call("logging/setLevel", `{"level":"`+level+`"}`)
		return
	}
	c.level = level
}

// Notify has the client hand each notification it reads to notify, in
// the order read.
func (c *Raw) Notify(notify func(method string, params []byte)) {
	c.notify = notify
}

// Answer has the client answer each request of the server with the
// result answer returns for its method and params, where Call would skip
// it.
func (c *Raw) Answer(answer func(method string, params []byte) string) {
	c.answer = answer
}

// Call sends a request, on 2026-07-28 with the _meta of StatelessMeta (and
// the client's capabilities) in its params, and returns the response's
// result, or {"error":...}, as the server wrote it, skipping
// notifications, and requests of the server unless [Raw.Answer] answers
// them.
func (c *Raw) Call(method, params string) string {
	c.t.Helper()
	if c.rev >= "2026-07-28" && method != "initialize" {
		meta := strings.Replace(StatelessMeta, `clientCapabilities":{}`, `clientCapabilities":`+c.caps, 1)
		if c.level != "" {
			meta = strings.Replace(meta, `"_meta":{`, `"_meta":{"io.modelcontextprotocol/logLevel":"`+c.level+`",`, 1)
		}
		if params == "{}" {
			params = "{" + meta + "}"
		} else {
			params = "{" + meta + "," + params[1:]
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
			ID                    json.RawMessage
			Method                string
			Params, Result, Error json.RawMessage
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			c.t.Fatalf("%s: %v: %s", method, err, line)
		}
		if msg.Method != "" && msg.ID == nil && c.notify != nil {
			c.notify(msg.Method, msg.Params)
		}
		if msg.Method != "" && msg.ID != nil && c.answer != nil {
			c.write(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":` + c.answer(msg.Method, msg.Params) + `}`)
			continue
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

// CallRounds sends a request as [Raw.Call] does and, while the answer is
// an input-required result (2026-07-28), answers each of its input
// requests with answer, by method and params, and retries the request with
// the answers and the request state. It returns the last answer and how
// many input-required results came before it.
func (c *Raw) CallRounds(method, params string, answer func(method string, params []byte) string) (string, int) {
	c.t.Helper()
	sent := params
	for rounds := 0; ; rounds++ {
		got := c.Call(method, sent)
		var ir struct {
			ResultType    string `json:"resultType"`
			InputRequests map[string]struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			} `json:"inputRequests"`
			RequestState string `json:"requestState"`
		}
		if err := json.Unmarshal([]byte(got), &ir); err != nil || ir.ResultType != "input_required" || rounds == 10 {
			return got, rounds
		}
		answers := make(map[string]json.RawMessage, len(ir.InputRequests))
		for k, q := range ir.InputRequests {
			answers[k] = json.RawMessage(answer(q.Method, q.Params))
		}
		js, err := json.Marshal(answers)
		if err != nil {
			c.t.Fatal(err)
		}
		sent = `{"inputResponses":` + string(js) + `,"requestState":` + strconv.Quote(ir.RequestState)
		if params != "{}" {
			sent += "," + params[1:]
		} else {
			sent += "}"
		}
	}
}
