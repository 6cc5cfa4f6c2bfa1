package mcprt

import (
	"context"
	"fmt"
)

// Form is a struct type marked with //mcp:form: mcpgen generates these two
// methods, the form's requested schema and the reader of a filled-in form,
// which checks the answer as tool arguments are checked.
type Form interface {
	MCPFormSchema() []byte
	MCPDecodeForm(ctx context.Context, content []byte) error
}

// The actions a user can take on an elicitation.
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// ElicitForm asks the client's user to fill in the form T, a struct type
// marked //mcp:form:
//
//	ans, action, err := mcprt.ElicitForm[Confirm](ctx, "Apply 10 price changes?")
//
// It returns the user's action, ActionAccept, ActionDecline or ActionCancel,
// and on ActionAccept the form as filled in. The client's answer is checked
// as tool arguments are (required fields, types, enums, bounds); an answer
// that does not fit the form is an error listing every problem. It fails
// when the server does not enable elicitation or the client did not declare
// it.
func ElicitForm[T any, P interface {
	*T
	Form
}](ctx context.Context, message string) (T, string, error) {
	var v T
	res, err := Elicit(ctx, message, P(&v).MCPFormSchema())
	if err != nil || res.Action != ActionAccept {
		return v, res.Action, err
	}
	if err := P(&v).MCPDecodeForm(ctx, res.Content); err != nil {
		return v, res.Action, fmt.Errorf("the answer to the form does not fit it: %w", err)
	}
	return v, res.Action, nil
}
