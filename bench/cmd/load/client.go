package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/bench/pricing"
	"github.com/mcpgen/mcpgen/bench/servers"
)

// The modes of a load run.
const (
	modeSessions  = "sessions"
	modeStateless = "stateless"
	modeTasks     = "tasks"
)

// modes lists the modes in the order a run takes them by default.
var modes = []string{modeSessions, modeStateless, modeTasks}

// wantText is in every answer to the reference call.
const wantText = `"text":"updated 10 prices in emea"`

// statelessMeta is the _meta a 2026-07-28 request carries.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},`

// tasksMeta is the _meta of a 2026-07-28 request from a client that
// declares the tasks extension, without which no call becomes a task.
const tasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}},`

// taskWait is how long a client polls a task before it calls it stuck.
const taskWait = 10 * time.Second

// client is one client of a server: its session, if any, and the bytes of
// its call before and after its id.
type client struct {
	hc         *http.Client
	url        string
	mode       string
	session    string
	tool       string // the tool its calls name
	head, tail []byte
	buf        []byte
}

func newClient(hc *http.Client, url, mode string) *client {
	req, tool := pricing.CallRequest(1, 10), "bulk_price_update"
	switch mode {
	case modeStateless:
		req = bytes.Replace(req, []byte(`"params":{`), []byte(`"params":{`+statelessMeta), 1)
	case modeTasks:
		tool = servers.TaskTool
		req = bytes.Replace(req, []byte(`"params":{"name":"bulk_price_update"`), []byte(`"params":{`+tasksMeta+`"name":"`+tool+`"`), 1)
	}
	i := bytes.Index(req, []byte(`"id":1,`)) + len(`"id":`)
	return &client{hc: hc, url: url, mode: mode, tool: tool, head: req[:i], tail: req[i+1:]}
}

// initialize opens a 2025-11-25 session; the floor has none to open.
func (c *client) initialize(server string) error {
	if server == servers.Floor {
		c.session = "floor"
		return nil
	}
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"load","version":"1.0.0"}}}`
	if _, err := c.post([]byte(init), "initialize", "", `"protocolVersion":"2025-11-25"`); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if c.session == "" {
		return fmt.Errorf("initialize: no Mcp-Session-Id")
	}
	_, err := c.post([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), "notifications/initialized", "", "")
	return err
}

// op does what one unit of the client's mode is, with id: a call, or in
// mode tasks a task's whole life. It returns the requests it sent.
func (c *client) op(id int) (int, error) {
	if c.mode == modeTasks {
		return c.task(id)
	}
	return 1, c.call(id)
}

// call sends the reference call with id and checks its answer.
func (c *client) call(id int) error {
	_, err := c.post(c.request(id), "tools/call", c.tool, wantText)
	return err
}

// request is the client's call with id, in its buffer.
func (c *client) request(id int) []byte {
	c.buf = append(c.buf[:0], c.head...)
	c.buf = strconv.AppendInt(c.buf, int64(id), 10)
	c.buf = append(c.buf, c.tail...)
	return c.buf
}

// task calls the task tool with id, which answers with a task, then sends
// tasks/get until the task ends, and checks that it completed with the
// reference call's result. It polls at once rather than after the task's
// pollIntervalMs, as a load does. It returns the requests it sent.
func (c *client) task(id int) (int, error) {
	created, err := c.post(c.request(id), "tools/call", c.tool, `"resultType":"task"`)
	if err != nil {
		return 1, fmt.Errorf("creating the task: %w", err)
	}
	taskID := stringField(created, "taskId")
	if taskID == "" {
		return 1, fmt.Errorf("creating the task: no taskId in %.300s", created)
	}
	since := time.Now()
	for n := 2; ; n++ {
		c.buf = fmt.Appendf(c.buf[:0], `{"jsonrpc":"2.0","id":%d,"method":"tasks/get","params":{%s"taskId":%q}}`, id, tasksMeta, taskID)
		got, err := c.post(c.buf, "tasks/get", taskID, `"taskId":"`+taskID+`"`)
		if err != nil {
			return n, fmt.Errorf("tasks/get: %w", err)
		}
		switch status := stringField(got, "status"); {
		case status == "completed" && bytes.Contains(got, []byte(wantText)):
			return n, nil
		case status == "working" && time.Since(since) < taskWait:
		case status == "working":
			return n, fmt.Errorf("task %s still working after %s", taskID, taskWait)
		default:
			return n, fmt.Errorf("task %s: %.300s; want it completed with %s", taskID, got, wantText)
		}
	}
}

// stringField is the value of the first member key of a JSON text whose
// value is a string without escapes, as task ids and statuses are; ""
// when there is none. A search, not a parse: the answers are checked
// whole by the server's tests, and the client's time counts here.
func stringField(text []byte, key string) string {
	i := bytes.Index(text, []byte(`"`+key+`":"`))
	if i < 0 {
		return ""
	}
	rest := text[i+len(key)+4:]
	end := bytes.IndexAny(rest, `"\`)
	if end < 0 || rest[end] != '"' {
		return ""
	}
	return string(rest[:end])
}

// post sends one message of method (name: its Mcp-Name) with the headers
// of the client's mode and checks that the answer holds want (a
// notification, want "", expects 202). It returns the answer.
func (c *client) post(body []byte, method, name, want string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	switch {
	case c.mode != modeSessions:
		h.Set("MCP-Protocol-Version", "2026-07-28")
		h.Set("Mcp-Method", method)
		h.Set("Mcp-Name", name)
	case c.session != "":
		h.Set("Mcp-Session-Id", c.session)
		h.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" && c.mode == modeSessions {
		c.session = id
	}
	switch {
	case want == "" && resp.StatusCode != http.StatusAccepted:
		return got, fmt.Errorf("status %d, want 202: %.200s", resp.StatusCode, got)
	case want != "" && (resp.StatusCode != http.StatusOK || !strings.Contains(string(got), want)):
		return got, fmt.Errorf("status %d, answer %.300s; want %s", resp.StatusCode, got, want)
	}
	return got, nil
}

// newHTTPClient is an HTTP client keeping a connection for each of n
// clients.
func newHTTPClient(n int) *http.Client {
	return &http.Client{
		Transport: &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n, DisableCompression: true},
		Timeout:   30 * time.Second,
	}
}
