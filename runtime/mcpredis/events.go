package mcpredis

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/runtime/mcpserver"
)

// EventLog is an [mcpserver.EventLog] on Redis Streams: one stream per SSE
// stream of a session, under the session's hash tag, trimmed to about
// MaxEvents entries (XADD MAXLEN ~). An event id is the SSE stream's name,
// "/", and the Redis entry id; resuming reads the entries after it, then
// blocks on the stream (XREAD BLOCK) whichever replica appends to it.
// The end of a stream is an entry of its own, so followers on every
// replica see it in order.
type EventLog struct {
	// MaxEvents bounds the events kept per stream (approximately, as
	// Redis trims whole nodes). Zero means mcpserver.DefaultEventLogSize.
	MaxEvents int

	b    *Backend
	idle time.Duration // the session idle timeout; streams live twice as long
}

var _ mcpserver.EventLog = (*EventLog)(nil)

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

// Append implements [mcpserver.EventLog].
func (l *EventLog) Append(ctx context.Context, session, stream string, data []byte) (string, error) {
	c, key := l.b.client, l.b.streamKey(session, stream)
	limit := l.MaxEvents
	if limit <= 0 {
		limit = mcpserver.DefaultEventLogSize
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
	return stream + "/" + id, nil
}

// End implements [mcpserver.EventLog].
func (l *EventLog) End(ctx context.Context, session, stream string) error {
	c := l.b.client
	err := c.Do(ctx, c.B().Xadd().Key(l.b.streamKey(session, stream)).Nomkstream().Id("*").
		FieldValue().FieldValue(eEnd, "").Build()).Error()
	if rueidis.IsRedisNil(err) {
		return nil // no such stream
	}
	return failed("ending a stream", err)
}

// position returns the Redis entry id an event id of stream names, or
// false when it names none of stream's.
func position(stream, id string) (string, bool) {
	name, pos, ok := strings.Cut(id, "/")
	if !ok || name != stream {
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

// Check implements [mcpserver.EventLog]: the event must still be kept.
func (l *EventLog) Check(ctx context.Context, session, stream, id string) error {
	pos, ok := position(stream, id)
	if !ok {
		return mcpserver.ErrUnknownEvent
	}
	c := l.b.client
	got, err := c.Do(ctx, c.B().Xrange().Key(l.b.streamKey(session, stream)).Start(pos).End(pos).Build()).AsXRange()
	if err != nil {
		return failed("reading the event log", err)
	}
	if len(got) != 1 {
		return mcpserver.ErrUnknownEvent
	}
	if _, end := got[0].FieldValues[eEnd]; end {
		return mcpserver.ErrUnknownEvent
	}
	return nil
}

// Follow implements [mcpserver.EventLog].
func (l *EventLog) Follow(ctx context.Context, session, stream, after string, fn func(id string, data []byte) error) error {
	if err := l.Check(ctx, session, stream, after); err != nil {
		return err
	}
	last, _ := position(stream, after)
	c, key := l.b.client, l.b.streamKey(session, stream)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		read, err := c.Do(ctx, c.B().Xread().Count(256).Block(followBlock.Milliseconds()).
			Streams().Key(key).Id(last).Build()).AsXRead()
		if rueidis.IsRedisNil(err) { // nothing new: is the stream still there?
			n, err := c.Do(ctx, c.B().Exists().Key(key).Build()).AsInt64()
			if err != nil {
				return ctxOr(ctx, failed("following the event log", err))
			}
			if n == 0 {
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
			if err := fn(stream+"/"+e.ID, []byte(e.FieldValues[eData])); err != nil {
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

// Close implements [mcpserver.EventLog]: each stream of the session gets
// its end, so that followers stop, and expires shortly after.
func (l *EventLog) Close(ctx context.Context, session string) error {
	c := l.b.client
	names, err := c.Do(ctx, c.B().Smembers().Key(l.b.streamsKey(session)).Build()).AsStrSlice()
	if err != nil {
		return failed("closing the event log", err)
	}
	cmds := make(rueidis.Commands, 0, 2*len(names)+1)
	for _, name := range names {
		key := l.b.streamKey(session, name)
		cmds = append(cmds,
			c.B().Xadd().Key(key).Nomkstream().Id("*").FieldValue().FieldValue(eEnd, "").Build(),
			c.B().Pexpire().Key(key).Milliseconds(closedKeep.Milliseconds()).Build())
	}
	cmds = append(cmds, c.B().Del().Key(l.b.streamsKey(session)).Build())
	for _, r := range c.DoMulti(ctx, cmds...) {
		if err := r.Error(); err != nil && !rueidis.IsRedisNil(err) {
			return failed("closing the event log", err)
		}
	}
	return nil
}
