package wire

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

func TestLogLevelRank(t *testing.T) {
	t.Parallel()
	if !(LevelRank(mcprt.LevelDebug) < LevelRank(mcprt.LevelInfo) && LevelRank(mcprt.LevelAlert) < LevelRank(mcprt.LevelEmergency)) {
		t.Error("levels out of order")
	}
	if ValidLevel("verbose") {
		t.Error(`"verbose" is not a level`)
	}
}
