package servertest

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Order is a form of two required fields, written by hand in the shape
// mcpgen generates for a //mcp:form type.
type Order struct {
	Count   int
	Express bool
}

var orderFields = []string{"count", "express"}

// MCPFormSchema implements mcprt.Form.
func (*Order) MCPFormSchema() []byte {
	return []byte(`{"type":"object","properties":{"count":{"type":"integer"},"express":{"type":"boolean"}},"required":["count","express"]}`)
}

// MCPDecodeForm implements mcprt.Form, with the checks tool arguments get.
func (v *Order) MCPDecodeForm(ctx context.Context, content []byte) error {
	var d mcpimpl.Decoder
	d.Start(ctx, content)
	if d.Object() {
		var seen [2]bool
		for d.NextField() {
			switch string(d.Key()) {
			case "count":
				if !d.Repeated(&seen[0]) {
					v.Count = int(d.Int(64))
				}
			case "express":
				if !d.Repeated(&seen[1]) {
					v.Express = d.Bool()
				}
			default:
				d.UnknownField(orderFields)
			}
		}
		d.Require(seen[:], orderFields, 0, 1)
	}
	return d.Finish()
}

// OrderTool asks the user to fill in an Order and reports it, or the
// error ElicitForm returned.
var OrderTool = mcprt.Tool{Name: "order", InputSchema: []byte(`{"type":"object"}`), Handler: func(ctx context.Context, _ []byte) mcprt.Result {
	o, action, err := mcprt.ElicitForm[Order](ctx, "How many?")
	if err != nil {
		return mcprt.ErrorResult(err)
	}
	return mcprt.TextResult(fmt.Sprintf("%s %d %v", action, o.Count, o.Express))
}}

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
