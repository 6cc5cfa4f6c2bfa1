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
)

// wantText is in every answer to the reference call.
const wantText = `"text":"updated 10 prices in emea"`

// statelessMeta is the _meta a 2026-07-28 request carries.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},`

// client is one client of a server: its session, if any, and the
// reference call's bytes before and after its id.
type client struct {
	hc         *http.Client
	url        string
	mode       string
	session    string
	head, tail []byte
	buf        []byte
}

func newClient(hc *http.Client, url, mode string) *client {
	req := pricing.CallRequest(1, 10)
	if mode == modeStateless {
		req = bytes.Replace(req, []byte(`"params":{`), []byte(`"params":{`+statelessMeta), 1)
	}
	i := bytes.Index(req, []byte(`"id":1,`)) + len(`"id":`)
	return &client{hc: hc, url: url, mode: mode, head: req[:i], tail: req[i+1:]}
}

// initialize opens a 2025-11-25 session; the floor has none to open.
func (c *client) initialize(server string) error {
	if server == servers.Floor {
		c.session = "floor"
		return nil
	}
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"load","version":"1.0.0"}}}`
	if err := c.post([]byte(init), `"protocolVersion":"2025-11-25"`); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if c.session == "" {
		return fmt.Errorf("initialize: no Mcp-Session-Id")
	}
	return c.post([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), "")
}

// call sends the reference call with id and checks its answer.
func (c *client) call(id int) error {
	c.buf = append(c.buf[:0], c.head...)
	c.buf = strconv.AppendInt(c.buf, int64(id), 10)
	c.buf = append(c.buf, c.tail...)
	return c.post(c.buf, wantText)
}

// post sends one message with the headers of the client's mode and checks
// that the answer holds want (a notification, want "", expects 202).
func (c *client) post(body []byte, want string) error {
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	switch {
	case c.mode == modeStateless:
		h.Set("MCP-Protocol-Version", "2026-07-28")
		h.Set("Mcp-Method", "tools/call")
		h.Set("Mcp-Name", "bulk_price_update")
	case c.session != "":
		h.Set("Mcp-Session-Id", c.session)
		h.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" && c.mode == modeSessions {
		c.session = id
	}
	switch {
	case want == "" && resp.StatusCode != http.StatusAccepted:
		return fmt.Errorf("status %d, want 202: %.200s", resp.StatusCode, got)
	case want != "" && (resp.StatusCode != http.StatusOK || !strings.Contains(string(got), want)):
		return fmt.Errorf("status %d, answer %.300s; want %s", resp.StatusCode, got, want)
	}
	return nil
}

// newHTTPClient is an HTTP client keeping a connection for each of n
// clients.
func newHTTPClient(n int) *http.Client {
	return &http.Client{
		Transport: &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n, DisableCompression: true},
		Timeout:   30 * time.Second,
	}
}
