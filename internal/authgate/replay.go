package authgate

import (
	"context"
	"sync"
	"time"
)

// MemoryReplayCache is a ReplayCache of one process. An entry is dropped
// once its time has passed, on a sweep made at most every sweepEvery.
type MemoryReplayCache struct {
	mu        sync.Mutex
	until     map[string]time.Time
	lastSweep time.Time
	now       func() time.Time
}

// NewMemoryReplayCache returns an empty cache.
func NewMemoryReplayCache() *MemoryReplayCache {
	return &MemoryReplayCache{until: map[string]time.Time{}, now: time.Now}
}

// sweepEvery is how often expired entries are dropped.
const sweepEvery = 30 * time.Second

// Use records id until the time given and reports whether it was not
// recorded already, or only until a time that has passed.
func (c *MemoryReplayCache) Use(_ context.Context, id string, until time.Time) (bool, error) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if now.Sub(c.lastSweep) > sweepEvery {
		c.lastSweep = now
		for k, t := range c.until {
			if !t.After(now) {
				delete(c.until, k)
			}
		}
	}
	if t, ok := c.until[id]; ok && t.After(now) {
		return false, nil
	}
	c.until[id] = until
	return true, nil
}

// Len returns how many entries the cache holds, expired ones not yet
// swept included.
func (c *MemoryReplayCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.until)
}
