package listing

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// message is a JSON-RPC message as the transports read it.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

// request is the JSON of a request (id > 0) or a notification.
func request(id int, method string, params any) []byte {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if id > 0 {
		m["id"] = id
	}
	if params != nil {
		m["params"] = params
	}
	js, _ := json.Marshal(m) // maps of JSON values always marshal
	return js
}

// idIs reports whether a message's id is n.
func idIs(raw json.RawMessage, n int) bool {
	return strings.TrimSpace(string(raw)) == strconv.Itoa(n)
}

// stdio is a server started as a command, spoken to over its standard
// input and output, one JSON message a line.
type stdio struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tail
	next   int
	// exited is closed when the command has ended and its standard
	// error is read; exit is how it ended.
	exited chan struct{}
	exit   error
}

// startCommand starts argv in dir.
func startCommand(ctx context.Context, argv []string, dir string) (*stdio, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s := &stdio{cmd: cmd, in: in, out: bufio.NewReader(out), stderr: &tail{}}
	cmd.Stderr = s.stderr
	cmd.WaitDelay = 5 * time.Second
	ownGroup(cmd)
	cmd.Cancel = func() error {
		kill(cmd)
		return nil
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("-from %s: %w", argv[0], err)
	}
	s.exited = make(chan struct{})
	go func() {
		s.exit = cmd.Wait()
		close(s.exited)
	}()
	return s, nil
}

func (s *stdio) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	s.next++
	id := s.next
	if _, err := s.in.Write(append(request(id, method, params), '\n')); err != nil {
		return nil, s.failed(err)
	}
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			return nil, s.failed(err)
		}
		var m message
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &m) != nil {
			continue // a line that is not JSON-RPC: logging on stdout
		}
		switch {
		case m.Method != "" && m.ID != nil: // the server asks: nothing to give
			reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": rpcError{-32601, "the client serves no requests"}})
			s.in.Write(append(reply, '\n'))
		case m.Method != "" || !idIs(m.ID, id):
		case m.Error != nil:
			return nil, m.Error
		default:
			return m.Result, nil
		}
	}
}

func (s *stdio) notify(_ context.Context, method string) error {
	_, err := s.in.Write(append(request(0, method, nil), '\n'))
	return s.failed(err)
}

// failed is err with what the command wrote on its standard error. A
// command whose output ended is waited for, so that all it wrote is
// read.
func (s *stdio) failed(err error) error {
	if err == nil {
		return nil
	}
	select {
	case <-s.exited:
		if s.exit != nil {
			err = fmt.Errorf("%v (%v)", err, s.exit)
		}
	case <-time.After(5 * time.Second):
	}
	if t := strings.TrimSpace(s.stderr.String()); t != "" {
		return fmt.Errorf("the server's command: %v; it wrote:\n%s", err, t)
	}
	return fmt.Errorf("the server's command: %v", err)
}

// closeGrace is how long a server has to exit once its input is closed;
// the listing is read by then, so a server still running is killed.
const closeGrace = 500 * time.Millisecond

func (s *stdio) close() error {
	s.in.Close()
	select {
	case <-s.exited:
	case <-time.After(closeGrace):
		kill(s.cmd)
		<-s.exited
	}
	return nil
}

// tail keeps the last few kilobytes a command writes.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 4 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = t.buf[len(t.buf)-tailSize:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// splitCommand splits a command line into words as a shell would for
// words, single and double quotes and backslashes, without expansions.
func splitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, fmt.Errorf("-from %q: an unterminated quote or escape", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("-from: an empty command")
	}
	return words, nil
}

// streamable is a server at a Streamable HTTP endpoint.
type streamable struct {
	url, token string
	client     *http.Client
	session    string
	revision   string
	next       int
}

func newHTTP(url, token string) *streamable {
	return &streamable{url: url, token: token, client: &http.Client{Timeout: 60 * time.Second}}
}

func (h *streamable) post(ctx context.Context, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if h.token != "" {
		req.Header.Set("Authorization", "Bearer "+h.token)
	}
	if h.session != "" {
		req.Header.Set("Mcp-Session-Id", h.session)
	}
	if h.revision != "" {
		req.Header.Set("MCP-Protocol-Version", h.revision)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		resp.Body.Close()
		return nil, fmt.Errorf("%s: %s: set $MCPGEN_TOKEN to a bearer token the server accepts", h.url, resp.Status)
	}
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		resp.Body.Close()
		return nil, fmt.Errorf("%s: %s: %s", h.url, resp.Status, strings.TrimSpace(string(b)))
	}
	return resp, nil
}

func (h *streamable) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	h.next++
	id := h.next
	resp, err := h.post(ctx, request(id, method, params))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		h.session = s
	}
	var m *message
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		m, err = readEvents(resp.Body, id)
	} else {
		m = new(message)
		err = json.NewDecoder(resp.Body).Decode(m)
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %v", h.url, err)
	case m.Error != nil:
		return nil, m.Error
	}
	if method == "initialize" {
		var r struct{ ProtocolVersion string }
		json.Unmarshal(m.Result, &r)
		h.revision = r.ProtocolVersion
	}
	return m.Result, nil
}

// readEvents reads server-sent events until the response to id.
func readEvents(r io.Reader, id int) (*message, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	var data []byte
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")...)
			data = append(data, '\n')
		case line == "":
			var m message
			if len(data) > 0 && json.Unmarshal(data, &m) == nil && m.Method == "" && idIs(m.ID, id) {
				return &m, nil
			}
			data = data[:0]
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, errors.New("the event stream ended before the response")
}

func (h *streamable) notify(ctx context.Context, method string) error {
	resp, err := h.post(ctx, request(0, method, nil))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// close ends the session, if the server gave one.
func (h *streamable) close() error {
	if h.session == "" {
		return nil
	}
	req, err := http.NewRequest(http.MethodDelete, h.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Mcp-Session-Id", h.session)
	if h.token != "" {
		req.Header.Set("Authorization", "Bearer "+h.token)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
