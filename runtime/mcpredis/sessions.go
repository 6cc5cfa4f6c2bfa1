package mcpredis

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// SessionStore is an [mcpstore.SessionStore] in Redis: a hash per
// session and a set of its subscriptions, under the session's hash tag,
// expiring after the idle timeout unless touched.
//
// A session is read on every request. Through rueidis's client-side
// cache (CLIENT TRACKING), a replica that has read a session lately reads
// it again without a round trip, and Redis invalidates its copy when the
// session changes. That invalidation reaches the other replicas
// asynchronously, so a change (a DELETE, a new log level, a subscription)
// returns only once every copy cached before it has expired: after
// CacheTTL. Then a request that follows the change's answer sees it on
// every replica, as it would without a cache, and only the changes, which
// are rare, pay the wait.
type SessionStore struct {
	// CacheTTL bounds how long a replica serves a session from its
	// client-side cache, and so how long a change waits before it
	// returns. Zero means DefaultSessionCacheTTL; a negative value reads
	// Redis on every request and changes do not wait. A backend opened
	// with client_cache=0 (or DisableCache) never caches.
	CacheTTL time.Duration

	b    *Backend
	idle time.Duration // expiry of a new session; <= 0: none
}

// DefaultSessionCacheTTL is how long a session read is cached when
// SessionStore.CacheTTL is zero: long enough that a busy session is
// read from Redis a few times a second at most, short enough that a
// DELETE or logging/setLevel is not noticeably slower.
const DefaultSessionCacheTTL = 50 * time.Millisecond

// settleMargin is added to the wait after a change, for clocks of
// replicas that run at slightly different rates. (rueidis starts a copy's
// life when its read is sent, before Redis reads the session, so a copy
// read before the change expires within CacheTTL of the change.)
const settleMargin = 5 * time.Millisecond

// cacheTTL is how long reads are cached; zero when they are not.
func (s *SessionStore) cacheTTL() time.Duration {
	if s.b.uncached {
		return 0
	}
	switch {
	case s.CacheTTL < 0:
		return 0
	case s.CacheTTL == 0:
		return DefaultSessionCacheTTL
	}
	return s.CacheTTL
}

// settle waits, after a change, until no replica may still serve a copy
// of the session read before it. A context that ends first ends the wait
// with its error: the change is made, but its caller cannot count on it
// being seen everywhere yet.
func (s *SessionStore) settle(ctx context.Context, err error) error {
	ttl := s.cacheTTL()
	if err != nil || ttl == 0 {
		return err
	}
	t := time.NewTimer(ttl + settleMargin)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

var _ mcpstore.SessionStore = (*SessionStore)(nil)

// The fields of a session's hash.
const (
	sRevision  = "rev"
	sCaps      = "caps"
	sLevel     = "level"
	sTaskOwner = "towner"
	sOwner     = "owner"
)

// createScript writes a new session and its subscriptions. KEYS: record,
// subscriptions. ARGV: expiry (ms, 0: none), the number of field, value
// pairs, the pairs, the subscribed URIs.
var createScript = rueidis.NewLuaScript(`
redis.call('DEL', KEYS[1], KEYS[2])
local n = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], unpack(ARGV, 3, 2 + 2 * n))
if #ARGV > 2 + 2 * n then redis.call('SADD', KEYS[2], unpack(ARGV, 3 + 2 * n)) end
if ARGV[1] ~= '0' then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[1])
end
return 1
`)

// levelScript sets the log level of a live session. KEYS: record.
// ARGV: level.
var levelScript = rueidis.NewLuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 'NF' end
redis.call('HSET', KEYS[1], 'level', ARGV[1])
return 'OK'
`)

// subscribeScript adds or removes a subscription of a live session, which
// expires with its record. KEYS: record, subscriptions. ARGV: uri, "1" to
// add.
var subscribeScript = rueidis.NewLuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 'NF' end
if ARGV[2] == '1' then redis.call('SADD', KEYS[2], ARGV[1]) else redis.call('SREM', KEYS[2], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 'OK'
`)

// touchScript extends the life of a live session. KEYS: record,
// subscriptions. ARGV: idle (ms).
var touchScript = rueidis.NewLuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 'NF' end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 'OK'
`)

func sessionVerdict(what string, r rueidis.RedisResult) error {
	v, err := r.ToString()
	switch {
	case err != nil:
		return failed(what, err)
	case v == "NF":
		return mcpstore.ErrSessionNotFound
	}
	return nil
}

// Create implements [mcpstore.SessionStore].
func (s *SessionStore) Create(ctx context.Context, rec *mcpstore.SessionRecord) error {
	expiry := "0"
	if s.idle > 0 {
		expiry = strconv.FormatInt(s.idle.Milliseconds(), 10)
	}
	args := []string{expiry, "5",
		sRevision, rec.Revision, sCaps, string(rec.Capabilities), sLevel, rec.LogLevel,
		sTaskOwner, rec.TaskOwner, sOwner, rec.Owner}
	args = append(args, rec.Subscriptions...)
	err := createScript.Exec(ctx, s.b.client, []string{s.b.sessionKey(rec.ID), s.b.subsKey(rec.ID)}, args).Error()
	return failed("storing the session", err)
}

// Get implements [mcpstore.SessionStore], from the client-side cache
// when the session has not changed since this process last read it, less
// than CacheTTL ago.
func (s *SessionStore) Get(ctx context.Context, id string) (*mcpstore.SessionRecord, error) {
	c := s.b.client
	var res []rueidis.RedisResult
	if ttl := s.cacheTTL(); ttl > 0 {
		res = c.DoMultiCache(ctx,
			rueidis.CT(c.B().Hgetall().Key(s.b.sessionKey(id)).Cache(), ttl),
			rueidis.CT(c.B().Smembers().Key(s.b.subsKey(id)).Cache(), ttl))
	} else {
		res = c.DoMulti(ctx, c.B().Hgetall().Key(s.b.sessionKey(id)).Build(),
			c.B().Smembers().Key(s.b.subsKey(id)).Build())
	}
	h, err := res[0].AsStrMap()
	if err != nil {
		return nil, failed("reading the session", err)
	}
	subs, err := res[1].AsStrSlice()
	if err != nil {
		return nil, failed("reading the session", err)
	}
	if len(h) == 0 {
		return nil, mcpstore.ErrSessionNotFound
	}
	rec := &mcpstore.SessionRecord{ID: id, Revision: h[sRevision], LogLevel: h[sLevel],
		TaskOwner: h[sTaskOwner], Owner: h[sOwner], Subscriptions: subs}
	if caps := h[sCaps]; caps != "" {
		rec.Capabilities = []byte(caps)
	}
	return rec, nil
}

// SetLogLevel implements [mcpstore.SessionStore].
func (s *SessionStore) SetLogLevel(ctx context.Context, id, level string) error {
	return s.settle(ctx, sessionVerdict("setting the log level", levelScript.Exec(ctx, s.b.client,
		[]string{s.b.sessionKey(id)}, []string{level})))
}

// Subscribe implements [mcpstore.SessionStore].
func (s *SessionStore) Subscribe(ctx context.Context, id, uri string, on bool) error {
	flag := "0"
	if on {
		flag = "1"
	}
	return s.settle(ctx, sessionVerdict("subscribing", subscribeScript.Exec(ctx, s.b.client,
		[]string{s.b.sessionKey(id), s.b.subsKey(id)}, []string{uri, flag})))
}

// Touch implements [mcpstore.SessionStore]. It does not wait: a copy
// cached before it expires no later than the session did.
func (s *SessionStore) Touch(ctx context.Context, id string, idle time.Duration) error {
	if idle <= 0 {
		return nil
	}
	return sessionVerdict("touching the session", touchScript.Exec(ctx, s.b.client,
		[]string{s.b.sessionKey(id), s.b.subsKey(id)}, []string{strconv.FormatInt(max(idle.Milliseconds(), 1), 10)}))
}

// Delete implements [mcpstore.SessionStore].
func (s *SessionStore) Delete(ctx context.Context, id string) error {
	err := s.b.client.Do(ctx, s.b.client.B().Del().Key(s.b.sessionKey(id), s.b.subsKey(id)).Build()).Error()
	return s.settle(ctx, failed("deleting the session", err))
}
