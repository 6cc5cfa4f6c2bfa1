package mcpredis

import (
	"context"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// EventLog is an [mcpstore.EventLog] on Redis Streams: one stream per SSE
// stream of a session, under the session's hash tag, trimmed to about
// MaxEvents entries (XADD MAXLEN ~). An event id is the SSE stream's
// name, "/", the Redis entry id, "." and a tag of the session (Redis
// numbers each stream's entries by the time alone, so two sessions'
// streams give the same entry ids); resuming reads the entries after
// it, then blocks on the stream (XREAD BLOCK) whichever replica appends
// to it.
// The end of a stream is an entry of its own, so followers on every
// replica see it in order.
//
// A held stream has two more keys under the tag: its will, kept as long
// as the stream, and its hold, which expires with the lease. A follower
// whose XREAD found nothing new runs one script that, when the hold is
// gone and the stream neither ended nor lost its will, appends the will
// and the end: atomic, so two followers cannot both append them.
type EventLog struct {
	// MaxEvents bounds the events kept per stream (approximately, as
	// Redis trims whole nodes). Zero means mcpstore.DefaultEventLogSize.
	MaxEvents int

	b    *Backend
	idle time.Duration // the session idle timeout; streams live twice as long
	// block is how long one XREAD of Follow waits; zero means followBlock.
	// Tests on miniredis, whose clock they move, shorten it.
	block time.Duration
}

var _ mcpstore.EventLog = (*EventLog)(nil)

// The fields of a stream entry: an event's data, or the end of the stream.
const (
	eData = "d"
	eEnd  = "x"
)

// followBlock is how long one XREAD of Follow waits before it looks
// whether the stream is still there and its context still live.
const followBlock = time.Second

// closedKeep is how long the streams of a closed session stay, so that
// followers on every replica read their end.
const closedKeep = time.Minute

func (l *EventLog) keep() int64 {
	if l.idle <= 0 {
		return 0
	}
	return (2 * l.idle).Milliseconds()
}

// Append implements [mcpstore.EventLog].
func (l *EventLog) Append(ctx context.Context, session, stream string, data []byte) (string, error) {
	c, key := l.b.client, l.b.streamKey(session, stream)
	limit := l.MaxEvents
	if limit <= 0 {
		limit = mcpstore.DefaultEventLogSize
	}
	cmds := rueidis.Commands{
		c.B().Xadd().Key(key).Maxlen().Almost().Threshold(strconv.Itoa(limit)).Id("*").
			FieldValue().FieldValue(eData, string(data)).Build(),
		c.B().Sadd().Key(l.b.streamsKey(session)).Member(stream).Build(),
	}
	if keep := l.keep(); keep > 0 {
		cmds = append(cmds, c.B().Pexpire().Key(key).Milliseconds(keep).Build(),
			c.B().Pexpire().Key(l.b.streamsKey(session)).Milliseconds(keep).Build())
	}
	res := c.DoMulti(ctx, cmds...)
	id, err := res[0].ToString()
	if err != nil {
		return "", failed("appending an event", err)
	}
	for _, r := range res[1:] {
		if err := r.Error(); err != nil {
			return "", failed("appending an event", err)
		}
	}
	return eventID(session, stream, id), nil
}

// eventID is the id of the entry entry of session's stream.
func eventID(session, stream, entry string) string {
	return stream + "/" + entry + "." + sessionTag(session)
}

// sessionTag is the tag that ends the ids of session's events, so that
// an id of one session is unknown in every other.
func sessionTag(session string) string {
	h := fnv.New32a()
	h.Write([]byte(session))
	return strconv.FormatUint(uint64(h.Sum32()), 36)
}

// End implements [mcpstore.EventLog]. The stream's hold and will go in
// the same round trip: an ended stream never lapses.
func (l *EventLog) End(ctx context.Context, session, stream string) error {
	c := l.b.client
	res := c.DoMulti(ctx,
		c.B().Xadd().Key(l.b.streamKey(session, stream)).Nomkstream().Id("*").
			FieldValue().FieldValue(eEnd, "").Build(),
		c.B().Del().Key(l.b.willKey(session, stream), l.b.holdKey(session, stream)).Build())
	for _, r := range res {
		if err := r.Error(); err != nil && !rueidis.IsRedisNil(err) { // nil: no such stream
			return failed("ending a stream", err)
		}
	}
	return nil
}

// Hold implements [mcpstore.EventLog]: the will and the hold in one
// round trip, which rueidis pipelines with the commands made meanwhile,
// as the priming event's.
func (l *EventLog) Hold(ctx context.Context, session, stream string, ttl time.Duration, will []byte) error {
	c := l.b.client
	w := c.B().Set().Key(l.b.willKey(session, stream)).Value(string(will))
	var setWill rueidis.Completed
	if keep := l.keep(); keep > 0 {
		setWill = w.PxMilliseconds(keep).Build()
	} else {
		setWill = w.Build()
	}
	res := c.DoMulti(ctx, setWill,
		c.B().Set().Key(l.b.holdKey(session, stream)).Value("1").PxMilliseconds(max(ttl.Milliseconds(), 1)).Build())
	for _, r := range res {
		if err := r.Error(); err != nil {
			return failed("holding a stream", err)
		}
	}
	return nil
}

// lapseScript looks at a stream a follower found idle. KEYS: the stream,
// its will, its hold. ARGV: the bound of the stream. It returns 0 when
// the stream is gone (its session closed or expired), 2 when the hold
// had lapsed and it appended the will (unless empty) and the end, 1 when
// there was nothing to do: held, never held, or ended.
var lapseScript = rueidis.NewLuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('EXISTS', KEYS[3]) == 1 then return 1 end
local will = redis.call('GET', KEYS[2])
if not will then return 1 end
redis.call('DEL', KEYS[2])
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if last and last[2][1] == '` + eEnd + `' then return 1 end
if will ~= '' then
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', '` + eData + `', will)
end
redis.call('XADD', KEYS[1], '*', '` + eEnd + `', '')
return 2
`)

// lapse runs lapseScript on stream; it returns false when the stream is
// gone.
func (l *EventLog) lapse(ctx context.Context, session, stream string) (bool, error) {
	limit := l.MaxEvents
	if limit <= 0 {
		limit = mcpstore.DefaultEventLogSize
	}
	keys := []string{l.b.streamKey(session, stream), l.b.willKey(session, stream), l.b.holdKey(session, stream)}
	n, err := lapseScript.Exec(ctx, l.b.client, keys, []string{strconv.Itoa(limit)}).AsInt64()
	return n != 0, err
}

// position returns the Redis entry id an event id of session's stream
// names, or false when it names none of that stream's.
func position(session, stream, id string) (string, bool) {
	name, rest, ok := strings.Cut(id, "/")
	if !ok || name != stream {
		return "", false
	}
	pos, tag, ok := strings.Cut(rest, ".")
	if !ok || tag != sessionTag(session) {
		return "", false
	}
	ms, seq, ok := strings.Cut(pos, "-")
	if !ok {
		return "", false
	}
	if _, err := strconv.ParseUint(ms, 10, 64); err != nil {
		return "", false
	}
	if _, err := strconv.ParseUint(seq, 10, 64); err != nil {
		return "", false
	}
	return pos, true
}

// Check implements [mcpstore.EventLog]: the event must still be kept.
func (l *EventLog) Check(ctx context.Context, session, stream, id string) error {
	pos, ok := position(session, stream, id)
	if !ok {
		return mcpstore.ErrUnknownEvent
	}
	c := l.b.client
	got, err := c.Do(ctx, c.B().Xrange().Key(l.b.streamKey(session, stream)).Start(pos).End(pos).Build()).AsXRange()
	if err != nil {
		return failed("reading the event log", err)
	}
	if len(got) != 1 {
		return mcpstore.ErrUnknownEvent
	}
	if _, end := got[0].FieldValues[eEnd]; end {
		return mcpstore.ErrUnknownEvent
	}
	return nil
}

// Follow implements [mcpstore.EventLog].
func (l *EventLog) Follow(ctx context.Context, session, stream, after string, fn func(id string, data []byte) error) error {
	if err := l.Check(ctx, session, stream, after); err != nil {
		return err
	}
	last, _ := position(session, stream, after)
	c, key := l.b.client, l.b.streamKey(session, stream)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		block := followBlock
		if l.block > 0 {
			block = l.block
		}
		read, err := c.Do(ctx, c.B().Xread().Count(256).Block(block.Milliseconds()).
			Streams().Key(key).Id(last).Build()).AsXRead()
		if rueidis.IsRedisNil(err) {
			// Nothing new: is the stream still there, and its writer?
			live, err := l.lapse(ctx, session, stream)
			if err != nil {
				return ctxOr(ctx, failed("following the event log", err))
			}
			if !live {
				return nil // the session was closed, or expired
			}
			continue
		}
		if err != nil {
			return ctxOr(ctx, failed("following the event log", err))
		}
		for _, e := range read[key] {
			last = e.ID
			if _, end := e.FieldValues[eEnd]; end {
				return nil
			}
			if err := fn(eventID(session, stream, e.ID), []byte(e.FieldValues[eData])); err != nil {
				return err
			}
		}
	}
}

// ctxOr returns ctx's error when it is done, which is why a command
// failed, else err.
func ctxOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// Close implements [mcpstore.EventLog]: each stream of the session gets
// its end, so that followers stop, and expires shortly after.
func (l *EventLog) Close(ctx context.Context, session string) error {
	c := l.b.client
	names, err := c.Do(ctx, c.B().Smembers().Key(l.b.streamsKey(session)).Build()).AsStrSlice()
	if err != nil {
		return failed("closing the event log", err)
	}
	cmds := make(rueidis.Commands, 0, 3*len(names)+1)
	for _, name := range names {
		key := l.b.streamKey(session, name)
		cmds = append(cmds,
			c.B().Xadd().Key(key).Nomkstream().Id("*").FieldValue().FieldValue(eEnd, "").Build(),
			c.B().Pexpire().Key(key).Milliseconds(closedKeep.Milliseconds()).Build(),
			c.B().Del().Key(l.b.willKey(session, name), l.b.holdKey(session, name)).Build())
	}
	cmds = append(cmds, c.B().Del().Key(l.b.streamsKey(session)).Build())
	for _, r := range c.DoMulti(ctx, cmds...) {
		if err := r.Error(); err != nil && !rueidis.IsRedisNil(err) {
			return failed("closing the event log", err)
		}
	}
	return nil
}
