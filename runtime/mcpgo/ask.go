package mcpgo

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/internal/mrtr"
)

// This file lets handlers ask the client on 2026-07-28, where mcp-go
// forbids requests to the client: a question the client has not answered
// ends the handler's run, and the handler's result is mcp-go's
// input-required result (InputRequests and RequestState), which lists
// every question asked without an answer. The client's retry carries the
// answers, and the handler runs again from the start. The questions, their
// keys and the sealed request state are those of the built-in server.
//
// Tools and prompts may ask; a resource read may not, since mcp-go's read
// handlers return contents, not a result that could ask for input.

// SetStateKeys sets the keys that seal the request states of s's
// 2026-07-28 questions: the first seals, any opens, so that a key can be
// rotated. Every replica serving the same clients needs the same keys.
// Without them a server has a random key of its own.
func SetStateKeys(s *server.MCPServer, keys ...[]byte) {
	registryOf(s).keys.SetKeys(keys)
}

// sealer returns the sealer of reg's request states.
func (r *registry) sealer() *mrtr.Sealer { return r.keys.Sealer() }

// startRound starts the run of a handler for c's request of method about
// name, with the answers of the earlier rounds (the request state of mt)
// and those of the retry, and has c ask through it. mcp-go answers the
// error of a state this server did not seal as an internal error.
func (r *registry) startRound(ctx context.Context, c *caller, method, name string, mt *mcp.MultiRoundTripParams) (*mrtr.Run, error) {
	rd, err := mrtr.StartRun(ctx, r.sealer(), method, name, mt.RequestState, mt.InputResponses, c.Client().Capabilities, c.sw.elicitation, c.sw.sampling)
	if err != nil {
		return nil, errors.New("invalid params: " + err.Error())
	}
	c.ask = rd.Ask
	return rd, nil
}

// endRound ends the run: the questions still open as mcp-go's input
// requests, with the request state of the next round; or the error of an
// answer that was no valid result, which mcp-go answers as an internal
// error. Both nil: the run's own result stands. mcp-go has no way for a
// handler to answer MissingRequiredClientCapability, so a run that failed
// for want of a capability stays a failure of its own.
func endRound(rd *mrtr.Run) (mcp.InputRequests, string, error) {
	o := rd.Ask.Outcome()
	if o.Bad != nil {
		return nil, "", errors.New("invalid params: " + o.Bad.Error())
	}
	qs, state := rd.Next(o)
	if len(qs) == 0 {
		return nil, "", nil
	}
	reqs := make(mcp.InputRequests, len(qs))
	for _, q := range qs {
		ir, err := inputRequest(q)
		if err != nil {
			return nil, "", err
		}
		reqs[q.Key] = ir
	}
	return reqs, state, nil
}

// inputRequest maps a question onto mcp-go's types. A requested schema
// keeps its bytes, so that its fields keep their order.
func inputRequest(q mrtr.Question) (mcp.InputRequest, error) {
	switch q.Method {
	case "elicitation/create":
		var p mcp.ElicitationParams
		var schema struct {
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		if err := json.Unmarshal(q.Params, &p); err != nil {
			return mcp.InputRequest{}, err
		}
		if err := json.Unmarshal(q.Params, &schema); err != nil {
			return mcp.InputRequest{}, err
		}
		if schema.RequestedSchema != nil {
			p.RequestedSchema = schema.RequestedSchema
		}
		return mcp.NewElicitationInputRequest(p), nil
	case "sampling/createMessage":
		var p mcp.CreateMessageParams
		var schemas struct {
			Tools []struct {
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(q.Params, &p); err != nil {
			return mcp.InputRequest{}, err
		}
		if err := json.Unmarshal(q.Params, &schemas); err != nil {
			return mcp.InputRequest{}, err
		}
		for i := range p.Tools {
			// mcp-go's schema type would add members: the tool's own.
			p.Tools[i].InputSchema, p.Tools[i].RawInputSchema = mcp.ToolInputSchema{}, schemas.Tools[i].InputSchema
		}
		return mcp.NewSamplingInputRequest(p), nil
	}
	return mcp.NewRootsInputRequest(), nil
}
