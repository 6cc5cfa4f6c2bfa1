package servertest

import (
	"context"
	"errors"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Confirm is a form of one field, whether the user is sure, written by
// hand in the shape mcpgen generates.
type Confirm struct {
	Sure bool
}

var confirmFields = []string{"sure"}

// MCPFormSchema implements mcprt.Form.
func (*Confirm) MCPFormSchema() []byte {
	return []byte(`{"type":"object","properties":{"sure":{"type":"boolean"}},"required":["sure"]}`)
}

// MCPDecodeForm implements mcprt.Form.
func (v *Confirm) MCPDecodeForm(ctx context.Context, content []byte) error {
	var d mcpimpl.Decoder
	d.Start(ctx, content)
	if d.Object() {
		var seen [1]bool
		for d.NextField() {
			switch string(d.Key()) {
			case "sure":
				if !d.Repeated(&seen[0]) {
					v.Sure = d.Bool()
				}
			default:
				d.UnknownField(confirmFields)
			}
		}
		d.Require(seen[:], confirmFields, 0)
	}
	return d.Finish()
}

// DeleteTask deletes task 7 once the user confirms; a client that cannot
// be asked confirms with the tool's argument instead: {"confirm":true}.
var DeleteTask = mcprt.Tool{Name: "delete_task", InputSchema: []byte(`{"type":"object","properties":{"confirm":{"type":"boolean"}}}`), Handler: func(ctx context.Context, args []byte) mcprt.Result {
	c, action, err := mcprt.ElicitForm[Confirm](ctx, "Delete task 7?")
	switch {
	case errors.Is(err, mcprt.ErrNotSupported):
		var in struct{ Confirm bool }
		d := mcpimpl.Decoder{}
		d.Start(ctx, args)
		if d.Object() {
			for d.NextField() {
				if string(d.Key()) == "confirm" {
					in.Confirm = d.Bool()
				}
			}
		}
		if err := d.Finish(); err != nil {
			return mcprt.ErrorResult(err)
		}
		if !in.Confirm {
			return mcprt.Errorf("the client cannot ask the user: call delete_task again with confirm set to true to delete task 7")
		}
		return mcprt.TextResult("deleted task 7 (confirmed by argument)")
	case err != nil:
		return mcprt.ErrorResult(err)
	case action != mcprt.ActionAccept || !c.Sure:
		return mcprt.TextResult("kept task 7")
	}
	return mcprt.TextResult("deleted task 7 (confirmed by the user)")
}}
