package mcpredis

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// SessionStore is an [mcpserver.SessionStore] in Redis: a hash per
// session and a set of its subscriptions, under the session's hash tag,
// expiring after the idle timeout unless touched. A session is read on
// every request, one round trip (both keys in one pipeline).
type SessionStore struct {
	// CacheTTL, when positive, reads sessions through rueidis's
	// client-side cache for up to that long, which Redis invalidates on
	// every change (CLIENT TRACKING): no round trip for a session this
	// replica has read. The invalidation reaches the other replicas
	// asynchronously, so a request arriving there right after a change
	// (a DELETE, a new log level) may still see the session as it was;
	// zero, the default, reads Redis every time.
	CacheTTL time.Duration

	b    *Backend
	idle time.Duration // expiry of a new session; <= 0: none
}

var _ mcpserver.SessionStore = (*SessionStore)(nil)

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
		return mcpserver.ErrSessionNotFound
	}
	return nil
}

// Create implements [mcpserver.SessionStore].
func (s *SessionStore) Create(ctx context.Context, rec *mcpserver.SessionRecord) error {
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

// Get implements [mcpserver.SessionStore], from the client-side cache
// when CacheTTL allows it and the session has not changed since this
// process last read it.
func (s *SessionStore) Get(ctx context.Context, id string) (*mcpserver.SessionRecord, error) {
	c := s.b.client
	var res []rueidis.RedisResult
	if ttl := s.CacheTTL; ttl > 0 {
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
		return nil, mcpserver.ErrSessionNotFound
	}
	rec := &mcpserver.SessionRecord{ID: id, Revision: h[sRevision], LogLevel: h[sLevel],
		TaskOwner: h[sTaskOwner], Owner: h[sOwner], Subscriptions: subs}
	if caps := h[sCaps]; caps != "" {
		rec.Capabilities = []byte(caps)
	}
	return rec, nil
}

// SetLogLevel implements [mcpserver.SessionStore].
func (s *SessionStore) SetLogLevel(ctx context.Context, id, level string) error {
	return sessionVerdict("setting the log level", levelScript.Exec(ctx, s.b.client,
		[]string{s.b.sessionKey(id)}, []string{level}))
}

// Subscribe implements [mcpserver.SessionStore].
func (s *SessionStore) Subscribe(ctx context.Context, id, uri string, on bool) error {
	flag := "0"
	if on {
		flag = "1"
	}
	return sessionVerdict("subscribing", subscribeScript.Exec(ctx, s.b.client,
		[]string{s.b.sessionKey(id), s.b.subsKey(id)}, []string{uri, flag}))
}

// Touch implements [mcpserver.SessionStore].
func (s *SessionStore) Touch(ctx context.Context, id string, idle time.Duration) error {
	if idle <= 0 {
		return nil
	}
	return sessionVerdict("touching the session", touchScript.Exec(ctx, s.b.client,
		[]string{s.b.sessionKey(id), s.b.subsKey(id)}, []string{strconv.FormatInt(max(idle.Milliseconds(), 1), 10)}))
}

// Delete implements [mcpserver.SessionStore].
func (s *SessionStore) Delete(ctx context.Context, id string) error {
	err := s.b.client.Do(ctx, s.b.client.B().Del().Key(s.b.sessionKey(id), s.b.subsKey(id)).Build()).Error()
	return failed("deleting the session", err)
}
