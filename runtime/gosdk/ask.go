package gosdk

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/mrtr"
	"github.com/mcpgen/mcpgen/internal/wire"
)

// This file lets handlers ask the client on 2026-07-28, where go-sdk
// forbids requests to the client: a question the client has not answered
// ends the handler's run, and the handler's result is go-sdk's
// input-required result (InputRequests and RequestState), which lists
// every question asked without an answer. The client's retry carries the
// answers, and the handler runs again from the start. The questions, their
// keys and the sealed request state are those of the built-in server.

// SetStateKeys sets the keys that seal the request states of s's
// 2026-07-28 questions: the first seals, any opens, so that a key can be
// rotated. Every replica serving the same clients needs the same keys.
// Without them a server has a random key of its own.
func SetStateKeys(s *mcp.Server, keys ...[]byte) {
	registryOf(s).keys.SetKeys(keys)
}

// sealer returns the sealer of reg's request states.
func (r *registry) sealer() *mrtr.Sealer { return r.keys.Sealer() }

// startRound starts the run of a handler for c's request of method about
// name, with the answers of the earlier rounds (state) and those of the
// retry (responses), and has c ask through it. A state this server did
// not seal for the request is invalid params.
func (r *registry) startRound(ctx context.Context, c *caller, method, name, state string, responses mcp.InputResponseMap) (*mrtr.Run, error) {
	rd, err := mrtr.StartRun(ctx, r.sealer(), method, name, state, responses, c.Client().Capabilities, c.sw.elicitation, c.sw.sampling)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: " + err.Error()}
	}
	c.ask = rd.Ask
	return rd, nil
}

// endRound ends the run: the questions still open as go-sdk's input
// requests, with the request state of the next round; or the error of the
// request: an answer that was no valid result is invalid params, and a run
// that failed with the error of a question it could not ask (failed: one
// matching mcprt.ErrNotSupported) is MissingRequiredClientCapability when
// the client did not declare what it asked. All nil: the run's own result
// stands.
func endRound(rd *mrtr.Run, failed bool) (mcp.InputRequestMap, string, error) {
	o := rd.Ask.Outcome()
	if o.Bad != nil {
		return nil, "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: " + o.Bad.Error()}
	}
	if qs, state := rd.Next(o); len(qs) > 0 {
		reqs := make(mcp.InputRequestMap, len(qs))
		for _, q := range qs {
			ir, err := inputRequest(q)
			if err != nil {
				return nil, "", err
			}
			reqs[q.Key] = ir
		}
		return reqs, state, nil
	}
	if o.Missing != "" && failed {
		return nil, "", &jsonrpc.Error{Code: wire.CodeMissingCapability, Message: wire.MissingCapabilityMessage(o.Missing), Data: wire.MissingCapabilityData(o.Missing)}
	}
	return nil, "", nil
}

// inputRequest maps a question onto go-sdk's types. A requested schema
// keeps its bytes, so that its fields keep their order.
func inputRequest(q mrtr.Question) (mcp.InputRequest, error) {
	switch q.Method {
	case "elicitation/create":
		var p struct {
			Mode            string          `json:"mode"`
			Message         string          `json:"message"`
			URL             string          `json:"url"`
			ElicitationID   string          `json:"elicitationId"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		if err := json.Unmarshal(q.Params, &p); err != nil {
			return nil, err
		}
		ep := &mcp.ElicitParams{Mode: p.Mode, Message: p.Message, URL: p.URL, ElicitationID: p.ElicitationID}
		if p.RequestedSchema != nil {
			ep.RequestedSchema = p.RequestedSchema
		}
		return ep, nil
	case "sampling/createMessage":
		p := new(mcp.CreateMessageWithToolsParams)
		if err := json.Unmarshal(q.Params, p); err != nil {
			return nil, err
		}
		return p, nil
	}
	return &mcp.ListRootsParams{}, nil
}
