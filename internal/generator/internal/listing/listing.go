// Package listing fetches what an MCP server publishes, for mcpgen
// -client -from: its tools, prompts, resources and resource templates,
// as one JSON object in the shape mcpgen -list prints. The source is a
// saved listing, an HTTP URL (Streamable HTTP) or a command serving
// stdio. It speaks JSON-RPC itself, keeping each schema's bytes and the
// order of its members, which a decoded map would lose.
package listing

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/internal/generator/internal/jsonv"
)

// Revision is the protocol revision the fetch asks for: the newest with
// sessions, on which servers publish titles, output schemas and task
// support.
const Revision = "2025-11-25"

// Source says where a listing comes from.
type Source struct {
	Text  string // as given to -from
	Dir   string // the directory a file or command is relative to
	Token string // bearer token for an HTTP server; empty for none
}

// Listing is what a server publishes.
type Listing struct {
	// JSON is indented, in the shape mcpgen -list prints, with the
	// serverInfo of the server's initialize result first when it was
	// fetched from the server.
	JSON []byte
}

// Fetch reads the listing of src.
func Fetch(ctx context.Context, src Source) (*Listing, error) {
	switch {
	case strings.HasPrefix(src.Text, "http://") || strings.HasPrefix(src.Text, "https://"):
		h := newHTTP(src.Text, src.Token)
		defer h.close()
		return fetchLive(ctx, h)
	case isFile(src):
		path := src.Text
		if !filepath.IsAbs(path) {
			path = filepath.Join(src.Dir, path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		js, err := FromFile(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Text, err)
		}
		return &Listing{JSON: js}, nil
	}
	argv, err := splitCommand(src.Text)
	if err != nil {
		return nil, err
	}
	conn, err := startCommand(ctx, argv, src.Dir)
	if err != nil {
		return nil, err
	}
	defer conn.close()
	return fetchLive(ctx, conn)
}

// isFile reports whether src names a file that exists; a command is
// anything else.
func isFile(src Source) bool {
	path := src.Text
	if !filepath.IsAbs(path) {
		path = filepath.Join(src.Dir, path)
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// FromFile reads a saved listing: a tools/list result (prompts and
// resourceTemplates beside tools, as -list prints them), or a JSON-RPC
// response holding one.
func FromFile(data []byte) ([]byte, error) {
	v, err := jsonv.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	obj, ok := v.(jsonv.Object)
	if ok && !obj.Has("tools") {
		if res, ok := obj.Object("result"); ok {
			obj = res
		}
	}
	if !ok || !obj.Has("tools") {
		return nil, errors.New(`not a tools/list result: want an object with "tools"`)
	}
	out := jsonv.Object{}
	for _, k := range []string{"serverInfo", "tools", "prompts", "resources", "resourceTemplates"} {
		if v, ok := obj.Get(k); ok {
			out = append(out, jsonv.Member{Key: k, Value: v})
		}
	}
	return indent(out), nil
}

func indent(v any) []byte {
	var b bytes.Buffer
	json.Indent(&b, jsonv.Marshal(v), "", "  ") // jsonv writes valid JSON
	b.WriteByte('\n')
	return b.Bytes()
}

// conn is a JSON-RPC connection to a server.
type conn interface {
	// call sends a request and returns its result; a JSON-RPC error is
	// an error.
	call(ctx context.Context, method string, params any) (json.RawMessage, error)
	notify(ctx context.Context, method string) error
	close() error
}

// rpcError is a JSON-RPC error the server answered.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

// clientCapabilities are those the fetch declares: a server may list
// some tools only to clients that can be asked for roots, a sample or
// input, and the client is generated for those too. The fetch answers
// none of those requests; it only lists.
var clientCapabilities = map[string]any{
	"roots":       map[string]any{},
	"sampling":    map[string]any{},
	"elicitation": map[string]any{"form": map[string]any{}, "url": map[string]any{}},
}

// fetchLive opens a session on c and lists everything the server's
// capabilities say it has.
func fetchLive(ctx context.Context, c conn) (*Listing, error) {
	res, err := c.call(ctx, "initialize", map[string]any{
		"protocolVersion": Revision,
		"capabilities":    clientCapabilities,
		"clientInfo":      map[string]any{"name": "mcpgen", "version": "1"},
	})
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	var init struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &init); err != nil {
		return nil, fmt.Errorf("initialize: malformed result: %v", err)
	}
	v, _ := jsonv.Parse(res)
	info, _ := v.(jsonv.Object).Object("serverInfo")
	if err := c.notify(ctx, "notifications/initialized"); err != nil {
		return nil, err
	}
	out := jsonv.Object{}
	if info != nil {
		out = append(out, jsonv.Member{Key: "serverInfo", Value: info})
	}
	lists := []struct{ cap, method, member string }{
		{"tools", "tools/list", "tools"},
		{"prompts", "prompts/list", "prompts"},
		{"resources", "resources/list", "resources"},
		{"resources", "resources/templates/list", "resourceTemplates"},
	}
	for _, l := range lists {
		if _, ok := init.Capabilities[l.cap]; !ok {
			if l.member == "tools" {
				out = append(out, jsonv.Member{Key: "tools", Value: []any{}})
			}
			continue
		}
		items, err := listAll(ctx, c, l.method, l.member)
		if err != nil {
			return nil, err
		}
		out = append(out, jsonv.Member{Key: l.member, Value: items})
	}
	return &Listing{JSON: indent(out)}, nil
}

// maxPages bounds a paginated list, against a server whose cursor never
// ends.
const maxPages = 1000

// listAll returns every item of a paginated list.
func listAll(ctx context.Context, c conn, method, member string) ([]any, error) {
	var all []any
	var cursor string
	for range maxPages {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		res, err := c.call(ctx, method, params)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		v, err := jsonv.Parse(res)
		obj, ok := v.(jsonv.Object)
		if err != nil || !ok {
			return nil, fmt.Errorf("%s: malformed result", method)
		}
		all = append(all, obj.Array(member)...)
		if cursor = obj.String("nextCursor"); cursor == "" {
			return all, nil
		}
	}
	return nil, fmt.Errorf("%s: more than %d pages", method, maxPages)
}
