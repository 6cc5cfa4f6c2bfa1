package mcpredis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

// ReplayCache remembers the DPoP proofs the replicas took
// (mcpstore.ReplayCache): one key per proof, set with SET NX and an
// expiry, so that of the replicas a proof reaches only the first takes
// it, and Redis forgets it once its window has passed.
type ReplayCache struct{ b *Backend }

// Use records id until the time given and reports whether this is its
// first use on any replica.
func (c *ReplayCache) Use(ctx context.Context, id string, until time.Time) (bool, error) {
	ms := time.Until(until).Milliseconds()
	if ms < 1 {
		ms = 1
	}
	cl := c.b.client
	err := cl.Do(ctx, cl.B().Set().Key(c.b.replayKey(id)).Value("1").Nx().PxMilliseconds(ms).Build()).Error()
	switch {
	case rueidis.IsRedisNil(err):
		return false, nil
	case err != nil:
		return false, failed("DPoP replay cache", err)
	}
	return true, nil
}
