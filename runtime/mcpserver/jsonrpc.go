package mcpserver

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonx"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// JSON-RPC and MCP error codes.
const (
	codeParseError          = -32700
	codeInvalidRequest      = -32600
	codeMethodNotFound      = -32601
	codeInvalidParams       = -32602
	codeInternalError       = -32603
	codeResourceNotFound    = -32002
	codeHeaderMismatch      = -32020
	codeMissingCapability   = -32021
	codeUnsupportedProtocol = -32022
)

// errParse answers a message that is not JSON.
var errParse = errorf(codeParseError, "parse error")

// rpcError is a JSON-RPC error object. data, when set, is raw JSON.
type rpcError struct {
	code    int
	message string
	data    []byte
}

func errorf(code int, message string) *rpcError { return &rpcError{code: code, message: message} }

// message is one decoded JSON-RPC message. A request has an id and a
// method, a notification a method only, a response an id and a result or an
// error. id and params are kept as the raw bytes the peer sent, so ids are
// echoed byte for byte and params are decoded only by the method that reads
// them.
type message struct {
	id     json.RawMessage
	method string
	params json.RawMessage
	result json.RawMessage
	error  json.RawMessage
	meta   requestMeta // read from params by parseInto
	// rawMeta is the text of params._meta, for interceptors. It is kept
	// here rather than in meta, which every tool call copies.
	rawMeta []byte
}

func (m *message) isRequest() bool      { return m.id != nil && m.method != "" }
func (m *message) isNotification() bool { return m.id == nil && m.method != "" }
func (m *message) isResponse() bool     { return m.method == "" }

// parseMessage decodes one JSON-RPC message (not a batch). On failure it
// returns the error to answer with, and the id when one could be read (nil
// otherwise: answered as null).
func parseMessage(b []byte) (*message, json.RawMessage, *rpcError) {
	m := new(message)
	if id, err := parseInto(b, m); err != nil {
		return nil, id, err
	}
	return m, nil, nil
}

// parseInto decodes one JSON-RPC message into m, as parseMessage does. It
// is the only place that reads the envelope: one pass with [rawScanner]
// checks the syntax of the whole message and, on the way, reads from
// params what the server needs of every request (_meta) and of tools/call
// (name and arguments), so no later step walks params again.
func parseInto(b []byte, m *message) (json.RawMessage, *rpcError) {
	return parseWith(rawScanner{b: b}, m)
}

// parseCheckedInto is parseInto for a transport that checks a call's
// arguments before anything else (HTTP): one pass checks them where
// parseInto skips them and checkArgs then scans them again. A message it
// refuses is parsed again by parseInto, so the error is the one parseInto
// gives.
func parseCheckedInto(b []byte, m *message) (json.RawMessage, *rpcError) {
	if _, rerr := parseWith(rawScanner{b: b, checkArgs: true}, m); rerr == nil {
		return nil, nil
	}
	*m = message{}
	return parseInto(b, m)
}

// parseWith is parseInto with the scanner s, which says whether a call's
// arguments are checked or skipped.
func parseWith(s rawScanner, m *message) (json.RawMessage, *rpcError) {
	var version, id, method []byte
	b := s.b
	s.space()
	if s.i >= len(b) || b[s.i] != '{' {
		_, valid := s.value()
		s.space()
		if valid && s.i == len(b) {
			return nil, errorf(codeInvalidRequest, "invalid request: not a JSON-RPC object")
		}
		return nil, errParse
	}
	ok := s.fields(func(key []byte) bool {
		if string(key) == "params" {
			return m.readParams(&s)
		}
		val, ok := s.value()
		switch string(key) {
		case "jsonrpc":
			version = val
		case "id":
			id = val
		case "method":
			method = val
		case "result":
			m.result = val
		case "error":
			m.error = val
		}
		return ok
	})
	s.space()
	if !ok || s.i != len(b) {
		return nil, errParse
	}
	// Only a tools/call request takes its arguments to a tool's decoder;
	// any other message has them checked now.
	call := string(method) == `"tools/call"` && id != nil && !isNull(id)
	if !call && !m.meta.checkArgs() {
		return nil, errParse
	}
	if id != nil && !isNull(id) {
		if !validID(id) {
			return nil, errorf(codeInvalidRequest, "invalid request: id must be a string or a number")
		}
		m.id = id
	}
	if string(version) != `"2.0"` {
		return m.id, errorf(codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if method != nil {
		name, ok := methodName(method)
		if !ok || name == "" {
			return m.id, errorf(codeInvalidRequest, "invalid request: method must be a non-empty string")
		}
		m.method = name
		return nil, nil
	}
	if m.id != nil && (m.result != nil || m.error != nil) {
		return nil, nil
	}
	return m.id, errorf(codeInvalidRequest, "invalid request: method is missing")
}

// methodName returns the method named by the JSON string raw. The names
// the server knows come from a table, without allocating.
func methodName(raw []byte) (string, bool) {
	if name, ok := knownMethods[string(raw)]; ok {
		return name, true
	}
	return stringValue(raw)
}

// knownMethods maps the JSON text of the methods the server serves or
// reads to their names.
var knownMethods = func() map[string]string {
	m := make(map[string]string)
	for _, name := range []string{
		"initialize", "ping", "tools/list", "tools/call", "logging/setLevel",
		"completion/complete", "server/discover", "notifications/initialized",
		"notifications/cancelled", "notifications/progress",
		"prompts/list", "prompts/get", "resources/list", "resources/templates/list",
		"resources/read", "resources/subscribe", "resources/unsubscribe",
	} {
		m[`"`+name+`"`] = name
	}
	return m
}()

func isNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

// validID reports whether raw is a JSON string or number.
func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	switch c := raw[0]; {
	case c == '"':
		return true
	case c == '-' || (c >= '0' && c <= '9'):
		return true
	}
	return false
}

// splitBatch reports whether b is a JSON array and, if so, returns its
// elements as raw messages. A malformed array is a parse error.
func splitBatch(b []byte) (items []json.RawMessage, isBatch bool, err *rpcError) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '[' {
		return nil, false, nil
	}
	var elems []json.RawMessage
	if e := json.Unmarshal(b, &elems); e != nil {
		return nil, true, errorf(codeParseError, "parse error")
	}
	return elems, true, nil
}

// appendResponse appends a success response carrying result (raw JSON).
func appendResponse(dst []byte, id json.RawMessage, result []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, id...)
	dst = append(dst, `,"result":`...)
	dst = append(dst, result...)
	return append(dst, '}')
}

// appendError appends an error response; a nil id is written as null.
func appendError(dst []byte, id json.RawMessage, e *rpcError) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, id...)
	}
	dst = appendErrorObject(append(dst, `,"error":`...), e)
	return append(dst, '}')
}

// appendErrorObject appends e as a JSON-RPC error object.
func appendErrorObject(dst []byte, e *rpcError) []byte {
	dst = append(dst, `{"code":`...)
	dst = strconv.AppendInt(dst, int64(e.code), 10)
	dst = append(dst, `,"message":`...)
	dst = jsonx.AppendString(dst, e.message)
	if e.data != nil {
		dst = append(dst, `,"data":`...)
		dst = append(dst, e.data...)
	}
	return append(dst, '}')
}

// appendNotification appends a notification whose params are raw JSON.
func appendNotification(dst []byte, method string, params []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","method":`...)
	dst = jsonx.AppendString(dst, method)
	if params != nil {
		dst = append(dst, `,"params":`...)
		dst = append(dst, params...)
	}
	return append(dst, '}')
}

// appendRequest appends a server-initiated request with a numeric id.
func appendRequest(dst []byte, id []byte, method string, params []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, id...)
	dst = append(dst, `,"method":`...)
	dst = jsonx.AppendString(dst, method)
	dst = append(dst, `,"params":`...)
	dst = append(dst, params...)
	return append(dst, '}')
}

// requestMeta is what the server reads from a request's params._meta.
type requestMeta struct {
	ProgressToken      json.RawMessage `json:"progressToken"`
	ProtocolVersion    string          `json:"io.modelcontextprotocol/protocolVersion"`
	ClientCapabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
	LogLevel           mcprt.LogLevel  `json:"io.modelcontextprotocol/logLevel"`
	ClientInfo         json.RawMessage `json:"io.modelcontextprotocol/clientInfo"`

	// The same pass over params keeps the members tools/call and
	// tools/list need, so params are walked once; uri and taskID are the
	// names of resources/read and tasks/* requests, for the Mcp-Name header.
	toolName, toolArgs, cursor, uri, taskID []byte
	// inputResponses and requestState are a 2026-07-28 retry's answers to
	// the questions of its earlier rounds, and the state of those rounds.
	inputResponses, requestState []byte
	// task is the task param of a 2025-11-25 tools/call that asks to run as
	// a task.
	task []byte
	// argsUnchecked says toolArgs is an object whose syntax is not checked
	// yet: the pass found its end by matching brackets and left the rest
	// to the tool's decoder, which reads it anyway. Whatever else the
	// server does with the message first calls checkArgs, so malformed
	// arguments are a parse error all the same.
	argsUnchecked bool
	// tool is the tool a tools/call names, once toolLooked: the scope
	// check, the Mcp-Param headers and the call share one look-up (see
	// [Server.toolOf]).
	tool       *toolEntry
	toolLooked bool
}

// readParams consumes the value of params at s, keeping its text in
// m.params and, when it is an object, reading its _meta, name and
// arguments into m.meta. A later params member replaces an earlier one.
func (m *message) readParams(s *rawScanner) bool {
	s.space()
	start := s.i
	m.meta, m.rawMeta = requestMeta{}, nil
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		var ok bool
		m.params, ok = s.value()
		return ok
	}
	meta := &m.meta
	ok := s.fields(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "_meta":
			if s.space(); s.i < len(s.b) && s.b[s.i] == '{' {
				start := s.i
				ok := s.fields(func(key []byte) bool {
					val, ok := s.value()
					meta.member(key, val)
					return ok
				})
				m.rawMeta = s.b[start:s.i]
				return ok
			}
			_, ok = s.value()
		case "name":
			meta.toolName, ok = s.value()
		case "cursor":
			meta.cursor, ok = s.value()
		case "uri":
			meta.uri, ok = s.value()
		case "taskId":
			meta.taskID, ok = s.value()
		case "inputResponses":
			meta.inputResponses, ok = s.value()
		case "requestState":
			meta.requestState, ok = s.value()
		case "task":
			meta.task, ok = s.value()
		case "arguments":
			if s.space(); !s.checkArgs && s.i < len(s.b) && s.b[s.i] == '{' {
				start := s.i
				ok = s.skipUnchecked()
				meta.toolArgs, meta.argsUnchecked = s.b[start:s.i], ok
				break
			}
			meta.toolArgs, ok = s.value()
			meta.argsUnchecked = false
		default:
			_, ok = s.value()
		}
		return ok
	})
	if !ok {
		return false
	}
	if meta.ProgressToken != nil && !validID(meta.ProgressToken) {
		meta.ProgressToken = nil
	}
	m.params = s.b[start:s.i]
	return true
}

// checkArgs checks the syntax of arguments the parse left unchecked, and
// reports whether they are well-formed; from then on they count as checked.
func (meta *requestMeta) checkArgs() bool {
	if !meta.argsUnchecked {
		return true
	}
	if !validArgs(meta.toolArgs) {
		return false
	}
	meta.argsUnchecked = false
	return true
}

// member reads one member of _meta.
func (meta *requestMeta) member(key, val []byte) {
	switch string(key) {
	case "progressToken":
		meta.ProgressToken = val
	case "io.modelcontextprotocol/protocolVersion":
		meta.ProtocolVersion = revisionValue(val)
	case "io.modelcontextprotocol/clientCapabilities":
		meta.ClientCapabilities = val
	case "io.modelcontextprotocol/logLevel":
		level, _ := stringValue(val)
		meta.LogLevel = mcprt.LogLevel(level)
	case "io.modelcontextprotocol/clientInfo":
		meta.ClientInfo = val
	}
}

// revisionValue is the value of the JSON string raw ("" when it is not
// one), the revisions the server knows without a copy.
func revisionValue(raw []byte) string {
	if len(raw) >= 2 && raw[0] == '"' {
		for _, r := range wire.Revisions {
			if string(raw[1:len(raw)-1]) == string(r) {
				return string(r)
			}
		}
	}
	v, _ := stringValue(raw)
	return v
}

// clientCaps is what the server needs to know of a client's capabilities.
type clientCaps struct {
	elicitation    bool
	elicitationURL bool // elicitation.url: URL mode (2025-11-25 on)
	sampling       bool
	samplingTools  bool // sampling.tools: tools in sampling requests
	roots          bool
	tasks          bool // the 2026-07-28 tasks extension
	// taskSampling and taskElicitation: the client runs sampling and
	// elicitation requests as tasks (2025-11-25).
	taskSampling, taskElicitation bool
}

// parseClientCaps reads a ClientCapabilities object as encoding/json
// decodes it into fields of those names (see lastAt), and nothing from
// text that is not one well-formed object. It walks the text rather than
// decoding it, since every 2026-07-28 request carries the object.
func parseClientCaps(raw json.RawMessage) clientCaps {
	var elicitation, sampling, roots, tasks, extension []byte
	ok, _ := jsonx.Members(raw, func(_, name, val []byte) {
		switch {
		case bytes.EqualFold(name, []byte("elicitation")):
			elicitation = val
		case bytes.EqualFold(name, []byte("sampling")):
			sampling = val
		case bytes.EqualFold(name, []byte("roots")):
			roots = val
		case bytes.EqualFold(name, []byte("tasks")):
			tasks = val
		case bytes.EqualFold(name, []byte("extensions")):
			// A map: a later extensions object adds to an earlier one, null
			// clears it, another kind leaves it.
			if isNull(val) {
				extension = nil
				break
			}
			jsonx.Members(val, func(_, id, v []byte) {
				if string(id) == TasksExtension {
					extension = v
				}
			})
		}
	})
	if !ok {
		return clientCaps{}
	}
	present := func(v []byte) bool { return v != nil && !isNull(v) }
	return clientCaps{
		elicitation:     present(elicitation),
		elicitationURL:  present(elicitation) && present(lastAt(elicitation, "url")),
		sampling:        present(sampling),
		samplingTools:   present(sampling) && present(lastAt(sampling, "tools")),
		roots:           present(roots),
		tasks:           present(extension),
		taskSampling:    present(lastAt(tasks, "requests", "sampling", "createMessage")),
		taskElicitation: present(lastAt(tasks, "requests", "elicitation", "create")),
	}
}

// lastAt returns the value at path in the checked JSON text obj as
// encoding/json decodes it into nested struct fields of those names:
// names matched without regard to case, objects of one name merged, the
// last value at the end of the path winning; nil when there is none.
func lastAt(obj []byte, path ...string) []byte {
	var found []byte
	jsonx.Members(obj, func(_, name, val []byte) {
		switch {
		case !bytes.EqualFold(name, []byte(path[0])):
		case len(path) == 1:
			found = val
		default:
			if v := lastAt(val, path[1:]...); v != nil {
				found = v
			}
		}
	})
	return found
}
