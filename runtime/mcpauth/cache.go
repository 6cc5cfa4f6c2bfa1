package mcpauth

import (
	"container/list"
	"crypto/sha256"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// DefaultCacheSize is how many accepted tokens a verifier remembers when
// its options leave CacheSize zero.
const DefaultCacheSize = 1024

// DefaultCacheTTL is how long an accepted token is remembered when the
// options leave CacheTTL zero. Short, so that a revoked key or token
// stops working soon.
const DefaultCacheTTL = time.Minute

// tokenCache remembers accepted tokens, least recently used out first.
// Entries are keyed by the SHA-256 of the token, so the cache never holds
// a token itself.
type tokenCache struct {
	mu      sync.Mutex
	max     int
	ttl     time.Duration
	entries map[[sha256.Size]byte]*list.Element
	order   list.List // of *cacheEntry, most recently used first
}

type cacheEntry struct {
	key   [sha256.Size]byte
	info  mcprt.TokenInfo
	until time.Time
}

// newTokenCache returns a cache of size entries, each kept at most ttl;
// zero values mean the defaults, and a negative size means no cache (nil).
func newTokenCache(size int, ttl time.Duration) *tokenCache {
	if size < 0 {
		return nil
	}
	if size == 0 {
		size = DefaultCacheSize
	}
	if ttl <= 0 {
		ttl = DefaultCacheTTL
	}
	return &tokenCache{max: size, ttl: ttl, entries: make(map[[sha256.Size]byte]*list.Element)}
}

// get returns what token was accepted as, if it was accepted lately and
// has not expired since. The result is a copy its caller may change.
func (c *tokenCache) get(token string, now time.Time) (mcprt.TokenInfo, bool) {
	if c == nil {
		return mcprt.TokenInfo{}, false
	}
	key := hashToken(token)
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return mcprt.TokenInfo{}, false
	}
	e := el.Value.(*cacheEntry)
	if !now.Before(e.until) {
		c.order.Remove(el)
		delete(c.entries, key)
		return mcprt.TokenInfo{}, false
	}
	c.order.MoveToFront(el)
	return cloneInfo(e.info), true
}

// put remembers that token was accepted as info, until the token expires
// or the cache's TTL passes, whichever is first.
func (c *tokenCache) put(token string, info mcprt.TokenInfo, now time.Time) {
	if c == nil {
		return
	}
	until := now.Add(c.ttl)
	if !info.Expires.IsZero() && info.Expires.Before(until) {
		until = info.Expires
	}
	if !now.Before(until) {
		return
	}
	key := hashToken(token)
	e := &cacheEntry{key: key, info: cloneInfo(info), until: until}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.entries[key] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.entries, last.Value.(*cacheEntry).key)
	}
}

// hashToken returns the SHA-256 of token. A token of usual size is
// copied to the stack, since converting it to a byte slice for
// sha256.Sum256 would cost a heap allocation per request.
func hashToken(token string) [sha256.Size]byte {
	var buf [4096]byte
	if len(token) <= len(buf) {
		n := copy(buf[:], token)
		return sha256.Sum256(buf[:n])
	}
	return sha256.Sum256([]byte(token))
}

// len reports how many tokens the cache holds.
func (c *tokenCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// cloneInfo copies the slice and map of info, so that a handler changing
// its token's scopes or claims changes nobody else's.
func cloneInfo(info mcprt.TokenInfo) mcprt.TokenInfo {
	info.Scopes = slices.Clone(info.Scopes)
	info.Claims = maps.Clone(info.Claims)
	return info
}
