package mcpimpl

import "github.com/mcpgen/mcpgen/runtime/mcprt"

// CallError is the failed result of a call whose function returned err,
// or whose result could not be encoded; its text is err's. A server that
// masks errors (mcpserver.Server.MaskErrors) sends a generic message with
// a correlation id instead, and logs err. A result the function built
// itself, with mcprt.ErrorResult or mcprt.Errorf, is meant for the model
// and goes through, and so do the argument problems of the decoder.
func CallError(err error) mcprt.Result {
	return mcprt.Result{Content: []mcprt.Content{mcprt.Text(err.Error())}, IsError: true, Err: &FuncError{Err: err}}
}

// FuncError is the Err of a [CallError] result: the error of the
// function itself, which a server may mask. errors.Is and errors.As see
// Err through it.
type FuncError struct {
	Err error
}

func (e *FuncError) Error() string { return e.Err.Error() }

func (e *FuncError) Unwrap() error { return e.Err }
