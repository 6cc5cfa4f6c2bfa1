package wire

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func handlerA(context.Context, []byte) mcprt.Result { return mcprt.Result{} }
func handlerB(context.Context, []byte) mcprt.Result { return mcprt.Result{} }

// TestDuplicate checks that the error names the functions of both.
func TestDuplicate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		first, second mcprt.Handler
		want          string
	}{
		{handlerA, handlerB, `tool "add" is added twice: first with github.com/mcpgen/mcpgen/internal/wire.handlerA, then with github.com/mcpgen/mcpgen/internal/wire.handlerB`},
		{handlerA, handlerA, `tool "add" is added twice, both times with github.com/mcpgen/mcpgen/internal/wire.handlerA`},
		{nil, handlerB, `tool "add" is added twice: first with no function, then with github.com/mcpgen/mcpgen/internal/wire.handlerB`},
	} {
		if got := Duplicate("tool", "add", tt.first, tt.second).Error(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}
