package mcpgo

import (
	"context"
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"
)

// TestFlushWaits: a result waits for its call's last notification to be
// marshalled, then over stdio a grace more; for no longer than flushWait
// when mcp-go never writes it, or until the call's context ends.
func TestFlushWaits(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var n notes
		start := time.Now()
		n.flush(context.Background())
		if d := time.Since(start); d != 0 {
			t.Errorf("a call that queued nothing waited %v", d)
		}

		v, m := newMarked([]byte(`1`))
		n.queued(m, false)
		go func() {
			time.Sleep(10 * time.Millisecond)
			if js, err := json.Marshal(v); err != nil || string(js) != "1" {
				t.Errorf("marshalled %s %v", js, err)
			}
		}()
		start = time.Now()
		n.flush(context.Background())
		if d := time.Since(start); d != 10*time.Millisecond {
			t.Errorf("flush waited %v for a notification written after 10ms", d)
		}

		_, m = newMarked([]byte(`2`))
		n.queued(m, true)
		start = time.Now()
		n.flush(context.Background())
		if d := time.Since(start); d != flushWait {
			t.Errorf("flush waited %v for a notification never written, want %v", d, flushWait)
		}

		v, m = newMarked([]byte(`3`))
		n.queued(m, true)
		_, _ = json.Marshal(v)
		start = time.Now()
		n.flush(context.Background())
		if d := time.Since(start); d != stdioGrace {
			t.Errorf("over stdio flush waited %v after the mark, want %v", d, stdioGrace)
		}

		_, m = newMarked([]byte(`4`))
		n.queued(m, false)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		defer cancel()
		start = time.Now()
		n.flush(ctx)
		if d := time.Since(start); d != 5*time.Millisecond {
			t.Errorf("flush waited %v past its context's end", d)
		}
	})
}
