package mcpredis

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/redis/rueidis"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// Bus is an [mcpstore.Bus] on one Redis stream that every replica tails
// from the last entry it read, so that a replica whose connection blips
// misses nothing the stream still holds (publish/subscribe would drop
// it). An event is delivered to this process's subscribers at once, when
// published, and skipped when the tail reads it back.
type Bus struct {
	// MaxEvents bounds the entries the stream keeps (approximately).
	// Zero means DefaultBusSize.
	MaxEvents int
	// Errors, when set, is told of each failure of the tail, which retries
	// after RetryDelay.
	Errors func(error)

	b       *Backend
	mu      sync.Mutex
	subs    map[*func(mcpstore.BusEvent)]struct{}
	tailing bool
}

var _ mcpstore.Bus = (*Bus)(nil)

// DefaultBusSize is how many events the bus stream keeps when MaxEvents
// is zero: enough for a replica to catch up after a short outage.
const DefaultBusSize = 10000

// RetryDelay is how long the tail waits after Redis failed before it
// reads again.
const RetryDelay = 250 * time.Millisecond

// The fields of a bus entry: the publishing process, the event as JSON.
const (
	bOrigin = "o"
	bEvent  = "e"
)

// Publish implements [mcpstore.Bus]: the event is in the stream when it
// returns, and this process's subscribers have had it.
func (bus *Bus) Publish(ctx context.Context, e mcpstore.BusEvent) error {
	data, err := json.Marshal(e)
	if err != nil {
		return failed("publishing", err)
	}
	bus.deliver(e)
	c, limit := bus.b.client, bus.MaxEvents
	if limit <= 0 {
		limit = DefaultBusSize
	}
	err = c.Do(ctx, c.B().Xadd().Key(bus.b.busKey()).Maxlen().Almost().Threshold(strconv.Itoa(limit)).Id("*").
		FieldValue().FieldValue(bOrigin, bus.b.token).FieldValue(bEvent, string(data)).Build()).Error()
	return failed("publishing", err)
}

// Subscribe implements [mcpstore.Bus]. The first subscriber starts the
// tail of the stream, from its current end; when Redis does not answer,
// from the end the tail finds once it does, so that a replica started
// during an outage still hears the others afterwards.
func (bus *Bus) Subscribe(fn func(mcpstore.BusEvent)) (func(), error) {
	key := &fn
	bus.mu.Lock()
	defer bus.mu.Unlock()
	if !bus.tailing {
		start, err := bus.end(context.Background())
		if err != nil {
			start = "" // found by the tail
		}
		bus.tailing = true
		bus.b.wg.Add(1)
		go bus.tail(start)
	}
	if bus.subs == nil {
		bus.subs = map[*func(mcpstore.BusEvent)]struct{}{}
	}
	bus.subs[key] = struct{}{}
	return func() {
		bus.mu.Lock()
		delete(bus.subs, key)
		bus.mu.Unlock()
	}, nil
}

// pause reports err and waits RetryDelay before the tail reads again;
// false when the backend is closing instead.
func (bus *Bus) pause(ctx context.Context, err error) bool {
	if ctx.Err() != nil || closed(err) {
		return false
	}
	if bus.Errors != nil {
		bus.Errors(err)
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(RetryDelay):
		return true
	}
}

// end returns the id of the stream's last entry, "0-0" when it is empty.
func (bus *Bus) end(ctx context.Context) (string, error) {
	c := bus.b.client
	last, err := c.Do(ctx, c.B().Xrevrange().Key(bus.b.busKey()).End("+").Start("-").Count(1).Build()).AsXRange()
	if err != nil {
		return "", failed("subscribing", err)
	}
	if len(last) == 0 {
		return "0-0", nil
	}
	return last[0].ID, nil
}

func (bus *Bus) deliver(e mcpstore.BusEvent) {
	bus.mu.Lock()
	fns := make([]func(mcpstore.BusEvent), 0, len(bus.subs))
	for fn := range bus.subs {
		fns = append(fns, *fn)
	}
	bus.mu.Unlock()
	for _, fn := range fns {
		fn(e)
	}
}

// tail reads the stream after last until the backend closes, handing
// other processes' events to the subscribers.
func (bus *Bus) tail(last string) {
	defer bus.b.wg.Done()
	c, key := bus.b.client, bus.b.busKey()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-bus.b.done
		cancel()
	}()
	for ctx.Err() == nil {
		if last == "" {
			var err error
			if last, err = bus.end(ctx); err != nil {
				if !bus.pause(ctx, err) {
					return
				}
				continue
			}
		}
		read, err := c.Do(ctx, c.B().Xread().Count(512).Block(followBlock.Milliseconds()).
			Streams().Key(key).Id(last).Build()).AsXRead()
		if rueidis.IsRedisNil(err) {
			continue
		}
		if err != nil {
			if !bus.pause(ctx, failed("reading the bus", err)) {
				return
			}
			continue
		}
		for _, entry := range read[key] {
			last = entry.ID
			if entry.FieldValues[bOrigin] == bus.b.token {
				continue
			}
			var e mcpstore.BusEvent
			if json.Unmarshal([]byte(entry.FieldValues[bEvent]), &e) == nil {
				bus.deliver(e)
			}
		}
	}
}
