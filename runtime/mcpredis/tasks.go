package mcpredis

import (
	"context"
	"errors"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// TaskStore is an [mcpstore.SharedTaskStore] in Redis. A task is a hash
// under its id's hash tag, with its posted answers beside it, expiring at
// the end of its TTL; each owner has an index of its tasks in creation
// order (for tasks/list and the per-owner bound) under the owner's tag.
// Every transition is one Lua script.
//
// The unended tasks with a lease are also in one sorted set by the end of
// their lease, for Lapsed. It lives in a slot of its own, so on Redis
// Cluster no script of a task's slot may touch it: it is written beside
// the scripts, before a task is created and after its lease is renewed or
// it ends, so that it never holds a later end than the task does nor
// misses a task that has a lease. On one server, the scripts that create
// and end a task write it, and the owner's index, themselves: a life is
// then a round trip to create, one to end, and one a read. Lapsed
// corrects what it finds out of step (a lease renewed since, a task
// ended or gone), and Reap, on the task's hash, decides.
type TaskStore struct {
	// TaskLimits bound each owner's tasks, as in the memory store.
	mcpstore.TaskLimits
	// EndedCache is how many ended tasks a replica keeps in memory, as it
	// created, ended or read them, to answer reads of them without Redis: an
	// ended task changes no more, so no copy goes stale. Zero means
	// DefaultEndedCache; a negative value keeps none.
	EndedCache int

	// WaitReplicas, when above zero, makes the write that ends a task
	// (Update to a terminal status, Reap, or the Create of a task that
	// has ended) wait until that many replicas of its Redis have it
	// (WAIT), for at most WaitTimeout. An end not acknowledged in time
	// is still stored, and returns no error.
	// So an end the server announced (tasks/result, notifications) is on
	// a replica, and survives the promotion of one. Zero, the default,
	// does not wait: Redis replicates asynchronously.
	WaitReplicas int
	// WaitTimeout bounds the wait of WaitReplicas; zero means
	// DefaultWaitTimeout.
	WaitTimeout time.Duration

	b    *Backend
	now  func() time.Time
	kept endedCache
}

// DefaultEndedCache is how many ended tasks a replica keeps when
// TaskStore.EndedCache is zero: enough for the tasks/get that follows
// each of the calls of a busy moment.
const DefaultEndedCache = 1024

// maxCachedResult bounds the result or error of an ended task kept in
// memory; a larger one is read from Redis every time.
const maxCachedResult = 16 << 10

// endedCache holds copies of ended tasks by id, the oldest replaced
// first.
type endedCache struct {
	mu   sync.Mutex
	byID map[string]*mcpstore.Task
	ring []string // the ids kept, in the order they came
	next int      // the place in ring of the next one
}

// keep remembers t, which has ended, unless it is too large. The cache
// holds size tasks at most, the oldest forgotten first (size <= 0: none).
func (c *endedCache) keep(t *mcpstore.Task, size int) {
	if size <= 0 || len(t.Result)+len(t.Error) > maxCachedResult {
		return
	}
	cp := *t
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID, c.ring = make(map[string]*mcpstore.Task, size), make([]string, size)
	}
	if _, ok := c.byID[t.ID]; ok {
		return
	}
	if old := c.ring[c.next]; old != "" {
		delete(c.byID, old)
	}
	c.ring[c.next], c.byID[t.ID] = t.ID, &cp
	c.next = (c.next + 1) % len(c.ring)
}

// find returns a copy of the ended task id, or nil.
func (c *endedCache) find(id string) *mcpstore.Task {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.byID[id]
	if t == nil {
		return nil
	}
	cp := *t
	return &cp
}

func (s *TaskStore) keptSize() int {
	if s.EndedCache == 0 {
		return DefaultEndedCache
	}
	return s.EndedCache
}

var _ mcpstore.SharedTaskStore = (*TaskStore)(nil)

func (s *TaskStore) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// The fields of a task's hash.
const (
	fOwner   = "owner"
	fTool    = "tool"
	fStatus  = "status"
	fMessage = "msg"
	fCreated = "created"
	fUpdated = "updated"
	fTTL     = "ttl"
	fPoll    = "poll"
	fResult  = "result"
	fError   = "error"
	fInput   = "input"
	fRunner  = "runner"
	fLease   = "lease"
)

// isTerminal is the Lua test of a terminal status, shared by the scripts.
const isTerminal = `local function terminal(st) return st == 'completed' or st == 'failed' or st == 'cancelled' end
`

// reserve is the Lua function that takes a place in the owner's index:
// it drops the entries whose TTL ended, refuses a place beyond the
// bounds (of tasks not ended, unless the task has ended, and of tasks
// kept), and keeps the index at least as long as its longest-lived task
// (see indexExpiry). k: index by creation, index by end, counter, the
// tasks not ended (by end of TTL). a: id, end (ms or +inf), now (ms),
// bound of tasks not ended, bound of tasks kept, "1" for a task created
// ended.
const reserve = `local function reserve(k, a)
  local gone = redis.call('ZRANGEBYSCORE', k[2], '-inf', '(' .. a[3], 'LIMIT', 0, 256)
  for _, id in ipairs(gone) do
    redis.call('ZREM', k[1], id)
    redis.call('ZREM', k[2], id)
  end
  local ended, running = a[6] == '1', 0
  if not ended then
    redis.call('ZREMRANGEBYSCORE', k[4], '-inf', '(' .. a[3])
    running = redis.call('ZCARD', k[4])
    if running >= tonumber(a[4]) then return false end
  end
  if redis.call('ZCARD', k[1]) >= tonumber(a[5]) then return false end
  local at = redis.call('PEXPIRETIME', k[2])
  local n = redis.call('INCR', k[3])
  redis.call('ZADD', k[1], n, a[1])
  redis.call('ZADD', k[2], a[2], a[1])
  if not ended then redis.call('ZADD', k[4], a[2], a[1]) end
  if a[2] == '+inf' then
    if at ~= -1 then
      for i = 1, 4 do redis.call('PERSIST', k[i]) end
    end
  elseif at == -2 or at >= 0 and at < tonumber(a[2]) + 1000 then
    local upto = math.ceil((tonumber(a[2]) + 1000) / ` + indexExpiry + `) * ` + indexExpiry + `
    for i = 1, 4 do redis.call('PEXPIREAT', k[i], upto) end
  elseif running == 0 and not ended and at >= 0 then
    redis.call('PEXPIREAT', k[4], at)
  end
  return true
end
`

// indexExpiry is the step, in milliseconds, to which the expiry of an
// owner's index is rounded up: the index lives up to that much longer
// than its longest-lived task, and a create whose task ends within it
// writes no expiry. (PEXPIRETIME: -1 no expiry, -2 no key.)
const indexExpiry = "60000"

// write is the Lua function that stores a new task and its expiry. k:
// task. a: expiry (ms, 0: none), then field, value pairs from index from.
const write = `local function write(key, expire, a, from)
  redis.call('DEL', key)
  redis.call('HSET', key, unpack(a, from))
  if expire ~= '0' then redis.call('PEXPIREAT', key, expire) end
end
`

// reserveScript takes a task's place in its owner's index (see reserve)
// and returns 1, or 0 when the bounds refuse it. KEYS and ARGV: those of
// reserve.
var reserveScript = rueidis.NewLuaScript(reserve + `
if reserve(KEYS, ARGV) then return 1 end
return 0
`)

// writeScript stores a new task and its expiry in one step. KEYS: task.
// ARGV: expiry (ms, 0: none), then field, value pairs.
var writeScript = newEndScript(write + `
write(KEYS[1], ARGV[1], ARGV, 2)
return 1
`)

// createTaskScript creates a task in one step where every key may be
// touched by one script (not on Redis Cluster): its place in the owner's
// index, its entry in the index of leases, and the task. It returns 1,
// or 0 when the bounds refuse it. KEYS: those of reserve, the task, the
// index of leases. ARGV: those of reserve, expiry (ms, 0: none), the
// lease's score ("" for none), then field, value pairs.
var createTaskScript = newEndScript(reserve + write + `
if not reserve(KEYS, ARGV) then return 0 end
if ARGV[8] ~= '' then redis.call('ZADD', KEYS[6], ARGV[8], ARGV[1]) end
write(KEYS[5], ARGV[7], ARGV, 9)
return 1
`)

// DefaultWaitTimeout bounds the wait of TaskStore.WaitReplicas when
// WaitTimeout is zero.
const DefaultWaitTimeout = time.Second

// endScript is a script that may end a task, with its source, which the
// wait of WaitReplicas sends with EVAL.
type endScript struct {
	*rueidis.Lua
	src string
}

func newEndScript(src string) endScript { return endScript{rueidis.NewLuaScript(src), src} }

// end runs script on the keys of one task. With WaitReplicas, WAIT
// follows it on the same connection: WAIT counts the replicas that have
// the connection's writes.
func (s *TaskStore) end(ctx context.Context, script endScript, keys, args []string) rueidis.RedisResult {
	c := s.b.client
	if s.WaitReplicas <= 0 {
		return script.Exec(ctx, c, keys, args)
	}
	timeout := s.WaitTimeout
	if timeout <= 0 {
		timeout = DefaultWaitTimeout
	}
	res := c.DoMulti(ctx,
		c.B().Eval().Script(script.src).Numkeys(int64(len(keys))).Key(keys...).Arg(args...).Build(),
		c.B().Wait().Numreplicas(int64(s.WaitReplicas)).Timeout(max(timeout.Milliseconds(), 1)).Build().SetSlot(keys[0]))
	return res[0]
}

// updateScript replaces what a task's run changes, unless the stored
// status is terminal; a terminal status drops the unread answers, and
// where KEYS[3] is given (not on Redis Cluster) takes the task out of the
// index of leases and out of its owner's tasks not ended, when KEYS[4]
// is its owner's. KEYS: task, answers, and the index of leases and the
// given owner's tasks not ended, or none. ARGV: status, message, updated,
// result, error, input, tool, poll, id, the given owner. It returns
// 'NF', 'TERM' or 'OK', and for an end what the run does not write, as
// stored: 'DONE' for an end it put right in the indexes, or 'END' for
// one it did not, then owner, created, ttl, runner and lease.
var updateScript = newEndScript(isTerminal + `
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return 'NF' end
if terminal(st) then return 'TERM' end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'msg', ARGV[2], 'updated', ARGV[3],
  'result', ARGV[4], 'error', ARGV[5], 'input', ARGV[6], 'tool', ARGV[7], 'poll', ARGV[8])
if terminal(ARGV[1]) then
  redis.call('DEL', KEYS[2])
  local kept = redis.call('HMGET', KEYS[1], 'owner', 'created', 'ttl', 'runner', 'lease')
  local verdict = 'END'
  if KEYS[3] and (kept[1] or '') == ARGV[10] then
    redis.call('ZREM', KEYS[3], ARGV[9])
    redis.call('ZREM', KEYS[4], ARGV[9])
    verdict = 'DONE'
  end
  return {verdict, kept[1] or '', kept[2] or '', kept[3] or '', kept[4] or '', kept[5] or ''}
end
return 'OK'
`)

// renewScript extends the runner's lease of a task that has not ended.
// KEYS: task. ARGV: replica, until (ns).
var renewScript = rueidis.NewLuaScript(isTerminal + `
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return 'NF' end
if terminal(st) then return 'TERM' end
redis.call('HSET', KEYS[1], 'runner', ARGV[1], 'lease', ARGV[2])
return 'OK'
`)

// reapScript fails a task whose lease lapsed before now and returns
// whether it did (1 or 0) and the task as stored afterwards (empty when
// it is not the owner's). KEYS: task, answers. ARGV: owner, now (ns),
// error object, status message.
var reapScript = newEndScript(isTerminal + `
local t = redis.call('HMGET', KEYS[1], 'owner', 'status', 'lease')
if not t[2] or t[1] ~= ARGV[1] then return {0, {}} end
local lease = tonumber(t[3] or '0') or 0
local reaped = 0
if not terminal(t[2]) and lease ~= 0 and lease < tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'status', 'failed', 'msg', ARGV[4], 'input', '',
    'error', ARGV[3], 'updated', ARGV[2])
  redis.call('DEL', KEYS[2])
  reaped = 1
end
return {reaped, redis.call('HGETALL', KEYS[1])}
`)

// postScript keeps answers for a task that has not ended, expiring with
// it. KEYS: task, answers. ARGV: key, response pairs.
var postScript = rueidis.NewLuaScript(isTerminal + `
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return 'NF' end
if terminal(st) then return 'TERM' end
redis.call('HSET', KEYS[2], unpack(ARGV))
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 'OK'
`)

// takeScript returns and forgets the answers of a task. KEYS: answers.
var takeScript = rueidis.NewLuaScript(`
local a = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
return a
`)

// Create implements [mcpstore.TaskStore]. On one Redis server it is one
// script. On Redis Cluster, whose scripts touch one slot, it reserves the
// task's place in its owner's index, enters its lease in the index of
// leases, then writes it, so that it is found before Create returns.
func (s *TaskStore) Create(ctx context.Context, t *mcpstore.Task) error {
	b := s.b
	end, expireAt := "+inf", "0"
	if t.TTL > 0 {
		ms := strconv.FormatInt(t.CreatedAt.Add(t.TTL).UnixMilli()+1, 10)
		end, expireAt = ms, ms
	}
	ended, lease := "0", ""
	if t.Status.Terminal() {
		ended = "1"
	} else if !t.LeaseUntil.IsZero() {
		lease = strconv.FormatInt(t.LeaseUntil.UnixMilli(), 10)
	}
	lim := s.Limits()
	reserveArgs := []string{t.ID, end, strconv.FormatInt(s.clock().UnixMilli(), 10), strconv.Itoa(lim.MaxPerOwner), strconv.Itoa(lim.MaxKept), ended}
	keys := []string{b.ownerKey(t.Owner, "i"), b.ownerKey(t.Owner, "e"), b.ownerKey(t.Owner, "n"), b.ownerKey(t.Owner, "r")}
	if !b.cluster() {
		args := append(append(reserveArgs, expireAt, lease), taskFields(t)...)
		n, err := s.write(ctx, t, createTaskScript, append(keys, b.taskKey(t.ID), b.leasesKey()), args).AsInt64()
		switch {
		case err != nil:
			return failed("creating the task", err)
		case n == 0:
			return mcpstore.ErrTooManyTasks
		}
		s.created(t)
		return nil
	}
	n, err := reserveScript.Exec(ctx, b.client, keys, reserveArgs).AsInt64()
	if err != nil {
		return failed("creating the task", err)
	}
	if n == 0 {
		return mcpstore.ErrTooManyTasks
	}
	if lease != "" {
		// Indexed before it exists: an entry without a task costs Lapsed a
		// read, a task without an entry would never be reaped.
		if err := b.client.Do(ctx, b.client.B().Zadd().Key(b.leasesKey()).ScoreMember().
			ScoreMember(leaseScore(t.LeaseUntil), t.ID).Build()).Error(); err != nil {
			s.giveBack(ctx, keys, t.ID)
			return failed("creating the task", err)
		}
	}
	args := append([]string{expireAt}, taskFields(t)...)
	if err := s.write(ctx, t, writeScript, []string{b.taskKey(t.ID)}, args).Error(); err != nil {
		// Give the place back; a failure here leaves an index entry
		// without a task, which List skips and its TTL removes.
		s.giveBack(ctx, keys, t.ID)
		return failed("creating the task", err)
	}
	s.created(t)
	return nil
}

// write runs script, which writes the new task t: for a task created
// ended, as the end of one it waits for replicas (see WaitReplicas).
func (s *TaskStore) write(ctx context.Context, t *mcpstore.Task, script endScript, keys, args []string) rueidis.RedisResult {
	if t.Status.Terminal() {
		return s.end(ctx, script, keys, args)
	}
	return script.Exec(ctx, s.b.client, keys, args)
}

// created remembers t, just created, when it has ended already.
func (s *TaskStore) created(t *mcpstore.Task) {
	if t.Status.Terminal() {
		s.kept.keep(t, s.keptSize())
	}
}

// giveBack takes task id out of its owner's indexes keys, for a create
// that failed after its reservation.
func (s *TaskStore) giveBack(ctx context.Context, keys []string, id string) {
	c := s.b.client
	c.DoMulti(context.WithoutCancel(ctx), c.B().Zrem().Key(keys[0]).Member(id).Build(),
		c.B().Zrem().Key(keys[1]).Member(id).Build(), c.B().Zrem().Key(keys[3]).Member(id).Build())
}

// taskFields returns the hash fields of t, as field, value pairs: those
// that are empty or zero are left out, which a read takes as such.
func taskFields(t *mcpstore.Task) []string {
	f := make([]string, 0, 26)
	f = append(f, fOwner, t.Owner, fTool, t.Tool, fStatus, string(t.Status),
		fCreated, stamp(t.CreatedAt), fUpdated, stamp(t.UpdatedAt),
		fTTL, strconv.FormatInt(int64(t.TTL), 10), fPoll, strconv.FormatInt(int64(t.PollInterval), 10))
	for _, kv := range [...]struct{ k, v string }{
		{fMessage, t.StatusMessage}, {fResult, string(t.Result)}, {fError, string(t.Error)},
		{fInput, string(t.InputRequests)}, {fRunner, t.Runner},
	} {
		if kv.v != "" {
			f = append(f, kv.k, kv.v)
		}
	}
	if !t.LeaseUntil.IsZero() {
		f = append(f, fLease, stamp(t.LeaseUntil))
	}
	return f
}

// stamp writes a time as Unix nanoseconds, "0" for the zero time.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "0"
	}
	return strconv.FormatInt(t.UnixNano(), 10)
}

func unstamp(s string) time.Time {
	n, _ := strconv.ParseInt(s, 10, 64)
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func bytesOrNil(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}

// parseTask reads a task from its hash; nil for an empty (missing) one.
func parseTask(id string, h map[string]string) *mcpstore.Task {
	if h[fStatus] == "" {
		return nil
	}
	ttl, _ := strconv.ParseInt(h[fTTL], 10, 64)
	poll, _ := strconv.ParseInt(h[fPoll], 10, 64)
	return &mcpstore.Task{
		ID: id, Owner: h[fOwner], Tool: h[fTool], Status: mcpstore.TaskStatus(h[fStatus]),
		StatusMessage: h[fMessage], CreatedAt: unstamp(h[fCreated]), UpdatedAt: unstamp(h[fUpdated]),
		TTL: time.Duration(ttl), PollInterval: time.Duration(poll),
		Result: bytesOrNil(h[fResult]), Error: bytesOrNil(h[fError]), InputRequests: bytesOrNil(h[fInput]),
		Runner: h[fRunner], LeaseUntil: unstamp(h[fLease]),
	}
}

// live reports whether t is there and has not outlived its TTL at now
// (Redis removes it within a millisecond of that; this makes it exact).
func live(t *mcpstore.Task, now time.Time) bool {
	return t != nil && (t.TTL <= 0 || now.Sub(t.CreatedAt) <= t.TTL)
}

// Get implements [mcpstore.TaskStore]. An ended task this replica
// created or read before is answered from memory.
func (s *TaskStore) Get(ctx context.Context, owner, id string) (*mcpstore.Task, error) {
	t := s.kept.find(id)
	if t == nil {
		h, err := s.b.client.Do(ctx, s.b.client.B().Hgetall().Key(s.b.taskKey(id)).Build()).AsStrMap()
		if err != nil {
			return nil, failed("reading the task", err)
		}
		if t = parseTask(id, h); t != nil && t.Status.Terminal() {
			s.kept.keep(t, s.keptSize())
		}
	}
	if !live(t, s.clock()) || t.Owner != owner {
		return nil, mcpstore.ErrTaskNotFound
	}
	return t, nil
}

// verdict turns the answer of a transition script into the store's error.
func verdict(what string, r rueidis.RedisResult) error {
	v, err := r.ToString()
	switch {
	case err != nil:
		return failed(what, err)
	case v == "NF":
		return mcpstore.ErrTaskNotFound
	case v == "TERM":
		return mcpstore.ErrTaskTerminal
	}
	return nil
}

// Update implements [mcpstore.TaskStore]. Owner, creation time, TTL,
// runner and lease stay as stored. A task that has ended leaves the index
// of leases and its owner's tasks not ended: in the same script on one
// Redis server, in a second round trip on Redis Cluster.
func (s *TaskStore) Update(ctx context.Context, t *mcpstore.Task) error {
	keys := []string{s.b.taskKey(t.ID), s.b.answersKey(t.ID)}
	if t.Status.Terminal() && !s.b.cluster() {
		keys = append(keys, s.b.leasesKey(), s.b.ownerKey(t.Owner, "r"))
	}
	args := []string{string(t.Status), t.StatusMessage, stamp(t.UpdatedAt), string(t.Result), string(t.Error),
		string(t.InputRequests), t.Tool, strconv.FormatInt(int64(t.PollInterval), 10), t.ID, t.Owner}
	var r rueidis.RedisResult
	if t.Status.Terminal() {
		r = s.end(ctx, updateScript, keys, args)
	} else {
		r = updateScript.Exec(ctx, s.b.client, keys, args)
	}
	if kept, err := r.AsStrSlice(); err == nil && len(kept) == 6 {
		if kept[0] != "DONE" {
			s.ended(ctx, kept[1], t.ID)
		}
		// The task as stored now, which changes no more.
		ttl, _ := strconv.ParseInt(kept[3], 10, 64)
		done := *t
		done.Owner, done.CreatedAt, done.TTL, done.Runner, done.LeaseUntil = kept[1], unstamp(kept[2]), time.Duration(ttl), kept[4], unstamp(kept[5])
		s.kept.keep(&done, s.keptSize())
		return nil
	}
	err := verdict("updating the task", r)
	if t.Status.Terminal() && (errors.Is(err, mcpstore.ErrTaskTerminal) || errors.Is(err, mcpstore.ErrTaskNotFound)) {
		s.unlease(ctx, t.ID) // whoever ended it took it out of its owner's
	}
	return err
}

// ended takes task id, which has just ended, out of the index of leases
// and out of owner's tasks not ended, in one round trip. A failure leaves
// an entry of the leases that Lapsed removes, and one of the owner's that
// the task's TTL does.
func (s *TaskStore) ended(ctx context.Context, owner, id string) {
	c := s.b.client
	c.DoMulti(context.WithoutCancel(ctx), c.B().Zrem().Key(s.b.leasesKey()).Member(id).Build(),
		c.B().Zrem().Key(s.b.ownerKey(owner, "r")).Member(id).Build())
}

// unlease takes task id, ended or gone, out of the index of leases.
func (s *TaskStore) unlease(ctx context.Context, id string) {
	s.b.client.Do(context.WithoutCancel(ctx), s.b.client.B().Zrem().Key(s.b.leasesKey()).Member(id).Build())
}

// leaseScore is a lease's end as a score of the index of leases, in
// milliseconds (a float64 holds nanoseconds of today only approximately),
// rounded down so that an entry never ends later than its lease.
func leaseScore(t time.Time) float64 { return float64(t.UnixMilli()) }

// Renew implements [mcpstore.SharedTaskStore]. The index of leases
// follows the renewal, and only raises an entry still there.
func (s *TaskStore) Renew(ctx context.Context, id, replica string, until time.Time) error {
	err := verdict("renewing the lease", renewScript.Exec(ctx, s.b.client,
		[]string{s.b.taskKey(id)}, []string{replica, stamp(until)}))
	if err == nil {
		s.b.client.Do(ctx, s.b.client.B().Zadd().Key(s.b.leasesKey()).Xx().Gt().ScoreMember().
			ScoreMember(leaseScore(until), id).Build())
	}
	return err
}

// Reap implements [mcpstore.SharedTaskStore].
func (s *TaskStore) Reap(ctx context.Context, owner, id string, now time.Time, errObj []byte) (*mcpstore.Task, bool, error) {
	r, err := s.end(ctx, reapScript, []string{s.b.taskKey(id), s.b.answersKey(id)},
		[]string{owner, stamp(now), string(errObj), mcpstore.ReapedMessage}).ToArray()
	if err == nil && len(r) != 2 {
		err = errors.New("unexpected reply")
	}
	if err != nil {
		return nil, false, failed("reaping the task", err)
	}
	n, err1 := r[0].AsInt64()
	h, err2 := r[1].AsStrMap()
	if err := errors.Join(err1, err2); err != nil {
		return nil, false, failed("reaping the task", err)
	}
	t := parseTask(id, h)
	if !live(t, s.clock()) {
		return nil, false, mcpstore.ErrTaskNotFound
	}
	if n == 1 {
		s.ended(ctx, t.Owner, id)
	}
	return t, n == 1, nil
}

// Lapsed implements [mcpstore.SharedTaskStore]: it reads the index of
// leases up to now and the tasks it names, in one pipeline, and puts
// right the entries of tasks renewed, ended or gone since.
func (s *TaskStore) Lapsed(ctx context.Context, now time.Time, limit int) ([]*mcpstore.Task, error) {
	b := s.b
	count := int64(limit)
	if limit <= 0 {
		count = -1 // Redis: all from the offset on
	}
	ids, err := b.client.Do(ctx, b.client.B().Zrangebyscore().Key(b.leasesKey()).Min("-inf").
		Max("("+strconv.FormatInt(now.UnixMilli(), 10)).Limit(0, count).Build()).AsStrSlice()
	if err != nil {
		return nil, failed("finding lapsed leases", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	cmds := make(rueidis.Commands, len(ids))
	for i, id := range ids {
		cmds[i] = b.client.B().Hgetall().Key(b.taskKey(id)).Build()
	}
	var lapsed []*mcpstore.Task
	var fix rueidis.Commands
	clock := s.clock()
	for i, r := range b.client.DoMulti(ctx, cmds...) {
		h, err := r.AsStrMap()
		if err != nil {
			return nil, failed("finding lapsed leases", err)
		}
		switch t := parseTask(ids[i], h); {
		case !live(t, clock) || t.Status.Terminal() || t.LeaseUntil.IsZero():
			fix = append(fix, b.client.B().Zrem().Key(b.leasesKey()).Member(ids[i]).Build())
		case !t.LeaseUntil.Before(now):
			fix = append(fix, b.client.B().Zadd().Key(b.leasesKey()).Xx().Gt().ScoreMember().
				ScoreMember(leaseScore(t.LeaseUntil), ids[i]).Build())
		default:
			lapsed = append(lapsed, t)
		}
	}
	if len(fix) > 0 {
		b.client.DoMulti(ctx, fix...)
	}
	return lapsed, nil
}

// PostAnswers implements [mcpstore.SharedTaskStore].
func (s *TaskStore) PostAnswers(ctx context.Context, id string, answers map[string][]byte) error {
	if len(answers) == 0 {
		return nil
	}
	args := make([]string, 0, 2*len(answers))
	for k, v := range answers {
		args = append(args, k, string(v))
	}
	return verdict("posting the answers", postScript.Exec(ctx, s.b.client,
		[]string{s.b.taskKey(id), s.b.answersKey(id)}, args))
}

// TakeAnswers implements [mcpstore.SharedTaskStore].
func (s *TaskStore) TakeAnswers(ctx context.Context, id string) (map[string][]byte, error) {
	h, err := takeScript.Exec(ctx, s.b.client, []string{s.b.answersKey(id)}, nil).AsStrMap()
	if err != nil {
		return nil, failed("taking the answers", err)
	}
	if len(h) == 0 {
		return nil, nil
	}
	box := make(map[string][]byte, len(h))
	for k, v := range h {
		box[k] = []byte(v)
	}
	return box, nil
}

// List implements [mcpstore.TaskStore]: it reads the owner's index from
// the task after after, and the tasks it names in one pipeline per page.
func (s *TaskStore) List(ctx context.Context, owner, after string, limit int) ([]*mcpstore.Task, string, error) {
	b := s.b
	idx := b.ownerKey(owner, "i")
	start := int64(0)
	if after != "" {
		rank, err := b.client.Do(ctx, b.client.B().Zrank().Key(idx).Member(after).Build()).AsInt64()
		switch {
		case rueidis.IsRedisNil(err):
			return nil, "", mcpstore.ErrTaskNotFound
		case err != nil:
			return nil, "", failed("listing the tasks", err)
		}
		start = rank + 1
	}
	want := math.MaxInt
	if limit > 0 {
		want = limit + 1 // one more tells whether there is a next page
	}
	chunk := int64(min(want, 100))
	now := s.clock()
	var page []*mcpstore.Task
	for len(page) < want {
		ids, err := b.client.Do(ctx, b.client.B().Zrange().Key(idx).Min(strconv.FormatInt(start, 10)).
			Max(strconv.FormatInt(start+chunk-1, 10)).Build()).AsStrSlice()
		if err != nil {
			return nil, "", failed("listing the tasks", err)
		}
		if len(ids) == 0 {
			break
		}
		start += int64(len(ids))
		cmds := make(rueidis.Commands, len(ids))
		for i, id := range ids {
			cmds[i] = b.client.B().Hgetall().Key(b.taskKey(id)).Build()
		}
		for i, r := range b.client.DoMulti(ctx, cmds...) {
			h, err := r.AsStrMap()
			if err != nil {
				return nil, "", failed("listing the tasks", err)
			}
			if t := parseTask(ids[i], h); live(t, now) && t.Owner == owner && len(page) < want {
				page = append(page, t)
			}
		}
	}
	if limit > 0 && len(page) > limit {
		return page[:limit], page[limit-1].ID, nil
	}
	return page, "", nil
}
