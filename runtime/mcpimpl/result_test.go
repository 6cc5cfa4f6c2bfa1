package mcpimpl

import (
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// TestCallError: the result says err, and its Err marks it as the
// function's while errors.Is still finds what err wraps.
func TestCallError(t *testing.T) {
	t.Parallel()
	err := errors.Join(errors.New("disk full"), mcprt.ErrNotFound)
	r := CallError(err)
	var fe *FuncError
	if !r.IsError || r.Content[0].Text != err.Error() || !errors.As(r.Err, &fe) || !errors.Is(r.Err, mcprt.ErrNotFound) {
		t.Errorf("CallError = %+v", r)
	}
	if errors.As(mcprt.ErrorResult(err).Err, &fe) {
		t.Error("a result of mcprt.ErrorResult is marked as the function's error")
	}
}
