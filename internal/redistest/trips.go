package redistest

import (
	"context"
	"sync/atomic"

	"github.com/redis/rueidis"
)

// Trips is a Redis client that counts the round trips made through it:
// one a Do, one a DoMulti (to one server, its commands go in one write).
type Trips struct {
	rueidis.Client
	n atomic.Int64
}

// Do counts one round trip and sends cmd.
func (c *Trips) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	c.n.Add(1)
	return c.Client.Do(ctx, cmd)
}

// DoMulti counts one round trip and sends cmds.
func (c *Trips) DoMulti(ctx context.Context, cmds ...rueidis.Completed) []rueidis.RedisResult {
	c.n.Add(1)
	return c.Client.DoMulti(ctx, cmds...)
}

// Count is how many round trips were made so far.
func (c *Trips) Count() int64 { return c.n.Load() }
