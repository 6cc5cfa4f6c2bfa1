package storetest_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
	"github.com/mcpgen/mcpgen/runtime/mcpstore/storetest"
)

// Each broken store wraps a memory store and breaks one clause of its
// contract. TestBrokenStores runs the suite on each in a child process,
// as the suite fails the test it is given, and checks that it fails at
// the clause broken.

// memTasks is the memory task store the broken task stores wrap.
func memTasks() *mcpstore.MemoryTaskStore {
	return &mcpstore.MemoryTaskStore{TaskLimits: mcpstore.TaskLimits{MaxPerOwner: 8, MaxKept: 12}}
}

// Broken task stores.
type (
	dropsMessage  struct{ *mcpstore.MemoryTaskStore }
	anyOwner      struct{ *mcpstore.MemoryTaskStore }
	vagueErrors   struct{ *mcpstore.MemoryTaskStore }
	reopens       struct{ *mcpstore.MemoryTaskStore }
	movesLease    struct{ *mcpstore.MemoryTaskStore }
	reversedPages struct{ *mcpstore.MemoryTaskStore }
	renewsEnded   struct{ *mcpstore.MemoryTaskStore }
	reapsEarly    struct{ *mcpstore.MemoryTaskStore }
	reapedTwice   struct{ *mcpstore.MemoryTaskStore }
	lapsedEarly   struct{ *mcpstore.MemoryTaskStore }
	lapsedNoLimit struct{ *mcpstore.MemoryTaskStore }
	// claims reports bounds lower than those its store keeps.
	claims struct{ *mcpstore.MemoryTaskStore }
)

func (s dropsMessage) Create(ctx context.Context, t *mcpstore.Task) error {
	c := *t
	c.StatusMessage = ""
	return s.MemoryTaskStore.Create(ctx, &c)
}

func (s anyOwner) Get(ctx context.Context, owner, id string) (*mcpstore.Task, error) {
	for _, o := range []string{owner, "a", "b", "", "c"} {
		if t, err := s.MemoryTaskStore.Get(ctx, o, id); err == nil {
			return t, nil
		}
	}
	return nil, mcpstore.ErrTaskNotFound
}

func (s vagueErrors) Renew(ctx context.Context, id, replica string, until time.Time) error {
	if err := s.MemoryTaskStore.Renew(ctx, id, replica, until); errors.Is(err, mcpstore.ErrTaskNotFound) {
		return errors.New("no such task")
	} else {
		return err
	}
}

func (s reopens) Update(ctx context.Context, t *mcpstore.Task) error {
	if err := s.MemoryTaskStore.Update(ctx, t); !errors.Is(err, mcpstore.ErrTaskTerminal) {
		return err
	}
	return nil
}

func (s movesLease) Update(ctx context.Context, t *mcpstore.Task) error {
	if err := s.MemoryTaskStore.Update(ctx, t); err != nil {
		return err
	}
	if t.Runner != "" {
		s.MemoryTaskStore.Renew(ctx, t.ID, t.Runner, t.LeaseUntil)
	}
	return nil
}

func (s reversedPages) List(ctx context.Context, owner, after string, limit int) ([]*mcpstore.Task, string, error) {
	page, next, err := s.MemoryTaskStore.List(ctx, owner, after, limit)
	slices.Reverse(page)
	return page, next, err
}

func (s renewsEnded) Renew(ctx context.Context, id, replica string, until time.Time) error {
	if err := s.MemoryTaskStore.Renew(ctx, id, replica, until); !errors.Is(err, mcpstore.ErrTaskTerminal) {
		return err
	}
	return nil
}

func (s reapsEarly) Reap(ctx context.Context, owner, id string, now time.Time, errObj []byte) (*mcpstore.Task, bool, error) {
	return s.MemoryTaskStore.Reap(ctx, owner, id, now.Add(time.Hour), errObj)
}

func (s reapedTwice) Reap(ctx context.Context, owner, id string, now time.Time, errObj []byte) (*mcpstore.Task, bool, error) {
	t, _, err := s.MemoryTaskStore.Reap(ctx, owner, id, now, errObj)
	return t, err == nil && t.Status == mcpstore.TaskFailed, err
}

func (s lapsedEarly) Lapsed(ctx context.Context, now time.Time, limit int) ([]*mcpstore.Task, error) {
	return s.MemoryTaskStore.Lapsed(ctx, now.Add(time.Hour), limit)
}

func (s lapsedNoLimit) Lapsed(ctx context.Context, now time.Time, _ int) ([]*mcpstore.Task, error) {
	return s.MemoryTaskStore.Lapsed(ctx, now, 0)
}

func (s claims) Limits() mcpstore.TaskLimits { return mcpstore.TaskLimits{MaxPerOwner: 8, MaxKept: 12} }

// counting bounds each owner's tasks by a count of its own: check
// reports whether one more fits, and add counts one in.
type counting struct {
	claims
	mu    sync.Mutex
	n     map[string]int
	check func(s *counting, owner string) bool
	racy  bool // the count is read, then written: not atomic
}

func (s *counting) Create(ctx context.Context, t *mcpstore.Task) error {
	s.mu.Lock()
	fits := s.check(s, t.Owner)
	s.mu.Unlock()
	if !fits {
		return mcpstore.ErrTooManyTasks
	}
	if s.racy {
		time.Sleep(time.Millisecond) // the other creates read the same count
	}
	if err := s.claims.Create(ctx, t); err != nil {
		return err
	}
	s.mu.Lock()
	s.n[t.Owner]++
	s.mu.Unlock()
	return nil
}

func newCounting(max func(mcpstore.TaskLimits) int, racy bool) *counting {
	under := &mcpstore.MemoryTaskStore{TaskLimits: mcpstore.TaskLimits{MaxPerOwner: 1000, MaxKept: 2000}}
	return &counting{claims: claims{under}, n: map[string]int{}, racy: racy,
		check: func(s *counting, owner string) bool { return s.n[owner] < max(s.Limits()) }}
}

// racyEnd keeps the ends itself, reading whether a task ended, then
// writing its end: two racing ends both succeed.
type racyEnd struct {
	*mcpstore.MemoryTaskStore
	mu    sync.Mutex
	ended map[string]bool
}

func (s *racyEnd) Update(ctx context.Context, t *mcpstore.Task) error {
	if !t.Status.Terminal() {
		return s.MemoryTaskStore.Update(ctx, t)
	}
	s.mu.Lock()
	done := s.ended[t.ID]
	s.mu.Unlock()
	if done {
		return mcpstore.ErrTaskTerminal
	}
	time.Sleep(time.Millisecond)
	s.mu.Lock()
	s.ended[t.ID] = true
	s.mu.Unlock()
	if err := s.MemoryTaskStore.Update(ctx, t); !errors.Is(err, mcpstore.ErrTaskTerminal) {
		return err
	}
	return nil
}

// immortal finds the tasks it created after their TTL.
type immortal struct {
	*mcpstore.MemoryTaskStore
	mu   sync.Mutex
	kept map[string]mcpstore.Task
}

func (s *immortal) Create(ctx context.Context, t *mcpstore.Task) error {
	s.mu.Lock()
	s.kept[t.ID] = *t
	s.mu.Unlock()
	return s.MemoryTaskStore.Create(ctx, t)
}

func (s *immortal) Get(ctx context.Context, owner, id string) (*mcpstore.Task, error) {
	t, err := s.MemoryTaskStore.Get(ctx, owner, id)
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := s.kept[id]; errors.Is(err, mcpstore.ErrTaskNotFound) && ok && k.Owner == owner {
		return &k, nil
	}
	return t, err
}

// answersStay returns every answer ever posted for a task.
type answersStay struct {
	*mcpstore.MemoryTaskStore
	mu   sync.Mutex
	kept map[string]map[string][]byte
}

func (s *answersStay) TakeAnswers(ctx context.Context, id string) (map[string][]byte, error) {
	box, err := s.MemoryTaskStore.TakeAnswers(ctx, id)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kept[id] == nil {
		s.kept[id] = map[string][]byte{}
	}
	for k, v := range box {
		s.kept[id][k] = v
	}
	out := map[string][]byte{}
	for k, v := range s.kept[id] {
		out[k] = v
	}
	return out, err
}

var brokenTasks = map[string]func() mcpstore.SharedTaskStore{
	"created task is found with every field": func() mcpstore.SharedTaskStore { return dropsMessage{memTasks()} },
	"tasks are found only by their owner":    func() mcpstore.SharedTaskStore { return anyOwner{memTasks()} },
	"unknown task is not found":              func() mcpstore.SharedTaskStore { return vagueErrors{memTasks()} },
	"terminal status is final":               func() mcpstore.SharedTaskStore { return reopens{memTasks()} },
	"racing terminal updates leave one":      func() mcpstore.SharedTaskStore { return &racyEnd{memTasks(), sync.Mutex{}, map[string]bool{}} },
	"update writes only what a run changes":  func() mcpstore.SharedTaskStore { return movesLease{memTasks()} },
	"list pages in creation order":           func() mcpstore.SharedTaskStore { return reversedPages{memTasks()} },
	"expired task is not found": func() mcpstore.SharedTaskStore {
		return &immortal{memTasks(), sync.Mutex{}, map[string]mcpstore.Task{}}
	},
	"renew moves the lease of an unended task":     func() mcpstore.SharedTaskStore { return renewsEnded{memTasks()} },
	"reap fails only a lapsed lease":               func() mcpstore.SharedTaskStore { return reapsEarly{memTasks()} },
	"lapsed lease is reaped once":                  func() mcpstore.SharedTaskStore { return reapedTwice{memTasks()} },
	"lapsed finds unended tasks whose lease ended": func() mcpstore.SharedTaskStore { return lapsedEarly{memTasks()} },
	"lapsed returns up to limit":                   func() mcpstore.SharedTaskStore { return lapsedNoLimit{memTasks()} },
	"answers are taken once": func() mcpstore.SharedTaskStore {
		return &answersStay{memTasks(), sync.Mutex{}, map[string]map[string][]byte{}}
	},
	// Counts every task created, ended ones too, against MaxPerOwner.
	"owner bound counts unended tasks": func() mcpstore.SharedTaskStore {
		return newCounting(func(l mcpstore.TaskLimits) int { return l.MaxPerOwner }, false)
	},
	// Reads its count, then takes the place.
	"racing creates keep the owner bound": func() mcpstore.SharedTaskStore {
		return newCounting(func(l mcpstore.TaskLimits) int { return l.MaxPerOwner }, true)
	},
	// Claims a MaxKept it does not keep.
	"kept bound counts ended tasks": func() mcpstore.SharedTaskStore {
		return claims{&mcpstore.MemoryTaskStore{TaskLimits: mcpstore.TaskLimits{MaxPerOwner: 8, MaxKept: 2000}}}
	},
	// Counts every task created, expired ones too, against MaxKept.
	"expired tasks free their places": func() mcpstore.SharedTaskStore {
		c := newCounting(func(l mcpstore.TaskLimits) int { return l.MaxKept }, false)
		c.MaxPerOwner = 8
		return c
	},
}

// Broken session stores.
type (
	dropsCaps         struct{ *mcpstore.MemorySessionStore }
	dropsClientInfo   struct{ *mcpstore.MemorySessionStore }
	touchesAnything   struct{ *mcpstore.MemorySessionStore }
	deletesNothing    struct{ *mcpstore.MemorySessionStore }
	levelIgnored      struct{ *mcpstore.MemorySessionStore }
	subscribeOnlyAdds struct{ *mcpstore.MemorySessionStore }
	racySubscribe     struct{ *mcpstore.MemorySessionStore }
	touchForever      struct{ *mcpstore.MemorySessionStore }
)

func (s dropsCaps) Create(ctx context.Context, rec *mcpstore.SessionRecord) error {
	c := *rec
	c.Capabilities = nil
	return s.MemorySessionStore.Create(ctx, &c)
}

func (s dropsClientInfo) Create(ctx context.Context, rec *mcpstore.SessionRecord) error {
	c := *rec
	c.ClientInfo = nil
	return s.MemorySessionStore.Create(ctx, &c)
}

func (s touchesAnything) Touch(ctx context.Context, id string, idle time.Duration) error {
	if err := s.MemorySessionStore.Touch(ctx, id, idle); !errors.Is(err, mcpstore.ErrSessionNotFound) {
		return err
	}
	return nil
}

func (deletesNothing) Delete(context.Context, string) error { return nil }

func (s levelIgnored) SetLogLevel(ctx context.Context, id, _ string) error {
	_, err := s.Get(ctx, id)
	return err
}

func (s subscribeOnlyAdds) Subscribe(ctx context.Context, id, uri string, on bool) error {
	if !on {
		_, err := s.Get(ctx, id)
		return err
	}
	return s.MemorySessionStore.Subscribe(ctx, id, uri, on)
}

// Subscribe reads the record, then writes it whole.
func (s racySubscribe) Subscribe(ctx context.Context, id, uri string, on bool) error {
	rec, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	time.Sleep(time.Millisecond) // the other changes read the same record
	rec.Subscriptions = slices.DeleteFunc(rec.Subscriptions, func(u string) bool { return u == uri })
	if on {
		rec.Subscriptions = append(rec.Subscriptions, uri)
	}
	return s.Create(ctx, rec)
}

func (s touchForever) Touch(ctx context.Context, id string, _ time.Duration) error {
	return s.MemorySessionStore.Touch(ctx, id, 0)
}

var brokenSessions = map[string]func() mcpstore.SessionStore{
	"created session is found with every field": func() mcpstore.SessionStore { return dropsCaps{&mcpstore.MemorySessionStore{}} },
	"client info round-trips":                   func() mcpstore.SessionStore { return dropsClientInfo{&mcpstore.MemorySessionStore{}} },
	"unknown session is not found":              func() mcpstore.SessionStore { return touchesAnything{&mcpstore.MemorySessionStore{}} },
	"deleted session is not found":              func() mcpstore.SessionStore { return deletesNothing{&mcpstore.MemorySessionStore{}} },
	"log level is set":                          func() mcpstore.SessionStore { return levelIgnored{&mcpstore.MemorySessionStore{}} },
	"subscribe adds and removes a uri":          func() mcpstore.SessionStore { return subscribeOnlyAdds{&mcpstore.MemorySessionStore{}} },
	"changes made at once keep each other":      func() mcpstore.SessionStore { return racySubscribe{&mcpstore.MemorySessionStore{}} },
	"idle session expires after its touch":      func() mcpstore.SessionStore { return touchForever{&mcpstore.MemorySessionStore{}} },
}

// memLog is the memory log the broken logs wrap, with a small bound so
// that the bound's clause is quick.
func memLog() *mcpstore.MemoryEventLog { return &mcpstore.MemoryEventLog{MaxEvents: 16} }

// logState is what a broken log remembers of its streams.
type logState struct {
	mu       sync.Mutex
	last     map[string]string    // stream: the last id given
	sessions map[string]bool      // every session appended to
	deadline map[string]time.Time // held streams: when their hold lapses
	wills    map[string][]byte    // held streams: their first will
}

func newLogState() *logState {
	return &logState{last: map[string]string{}, sessions: map[string]bool{},
		deadline: map[string]time.Time{}, wills: map[string][]byte{}}
}

// Broken event logs.
type (
	reusedIDs struct {
		*mcpstore.MemoryEventLog
		*logState
	}
	sessionBlind struct {
		*mcpstore.MemoryEventLog
		*logState
	}
	lenientCheck     struct{ *mcpstore.MemoryEventLog }
	skipsFirst       struct{ *mcpstore.MemoryEventLog }
	endIgnored       struct{ *mcpstore.MemoryEventLog }
	cancelIsNil      struct{ *mcpstore.MemoryEventLog }
	swallowsFnErrors struct{ *mcpstore.MemoryEventLog }
	closeIgnored     struct{ *mcpstore.MemoryEventLog }
	noWill           struct{ *mcpstore.MemoryEventLog }
	lapseOnLook      struct {
		*mcpstore.MemoryEventLog
		*logState
	}
	renewIgnored struct {
		*mcpstore.MemoryEventLog
		*logState
	}
	heldNeverEnds struct {
		*mcpstore.MemoryEventLog
		*logState
	}
	holdsAll struct {
		*mcpstore.MemoryEventLog
		*logState
	}
	firstWill struct {
		*mcpstore.MemoryEventLog
		*logState
	}
	defaultWill struct{ *mcpstore.MemoryEventLog }
)

// Append gives the event "two" the id of the event before it.
func (l reusedIDs) Append(ctx context.Context, session, stream string, data []byte) (string, error) {
	id, err := l.MemoryEventLog.Append(ctx, session, stream, data)
	l.mu.Lock()
	defer l.mu.Unlock()
	if string(data) == "two" {
		return l.last[stream], err
	}
	l.last[stream] = id
	return id, err
}

func (l sessionBlind) Append(ctx context.Context, session, stream string, data []byte) (string, error) {
	l.mu.Lock()
	l.sessions[session] = true
	l.mu.Unlock()
	return l.MemoryEventLog.Append(ctx, session, stream, data)
}

// owner returns a session whose stream holds the event id.
func (l sessionBlind) owner(ctx context.Context, session, stream, id string) string {
	if l.MemoryEventLog.Check(ctx, session, stream, id) == nil {
		return session
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for s := range l.sessions {
		if l.MemoryEventLog.Check(ctx, s, stream, id) == nil {
			return s
		}
	}
	return session
}

func (l sessionBlind) Check(ctx context.Context, session, stream, id string) error {
	return l.MemoryEventLog.Check(ctx, l.owner(ctx, session, stream, id), stream, id)
}

func (l sessionBlind) Follow(ctx context.Context, session, stream, after string, fn func(string, []byte) error) error {
	return l.MemoryEventLog.Follow(ctx, l.owner(ctx, session, stream, after), stream, after, fn)
}

func (l lenientCheck) Check(ctx context.Context, session, stream, id string) error {
	if id == stream {
		return nil
	}
	return l.MemoryEventLog.Check(ctx, session, stream, id)
}

func (l skipsFirst) Follow(ctx context.Context, session, stream, after string, fn func(string, []byte) error) error {
	first := true
	return l.MemoryEventLog.Follow(ctx, session, stream, after, func(id string, data []byte) error {
		if first {
			first = false
			return nil
		}
		return fn(id, data)
	})
}

func (endIgnored) End(context.Context, string, string) error { return nil }

func (l cancelIsNil) Follow(ctx context.Context, session, stream, after string, fn func(string, []byte) error) error {
	if err := l.MemoryEventLog.Follow(ctx, session, stream, after, fn); !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

func (l swallowsFnErrors) Follow(ctx context.Context, session, stream, after string, fn func(string, []byte) error) error {
	return l.MemoryEventLog.Follow(ctx, session, stream, after, func(id string, data []byte) error {
		fn(id, data)
		return ctx.Err()
	})
}

func (closeIgnored) Close(context.Context, string) error { return nil }

func (l noWill) Hold(ctx context.Context, session, stream string, ttl time.Duration, _ []byte) error {
	return l.MemoryEventLog.Hold(ctx, session, stream, ttl, nil)
}

// Hold keeps the lapse to itself; a follower that comes after it makes
// the log lapse, while those waiting never learn of it.
func (l lapseOnLook) Hold(ctx context.Context, session, stream string, ttl time.Duration, will []byte) error {
	l.mu.Lock()
	l.deadline[session+stream] = time.Now().Add(ttl)
	l.mu.Unlock()
	return l.MemoryEventLog.Hold(ctx, session, stream, 1000*ttl, will)
}

func (l lapseOnLook) Follow(ctx context.Context, session, stream, after string, fn func(string, []byte) error) error {
	l.mu.Lock()
	until, held := l.deadline[session+stream]
	l.mu.Unlock()
	if held && time.Now().After(until) {
		l.MemoryEventLog.Hold(ctx, session, stream, time.Nanosecond, nil)
	}
	return l.MemoryEventLog.Follow(ctx, session, stream, after, fn)
}

// Hold takes the first hold of a stream; renewals change nothing.
func (l renewIgnored) Hold(ctx context.Context, session, stream string, ttl time.Duration, will []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, held := l.deadline[session+stream]; held {
		return nil
	}
	l.deadline[session+stream] = time.Now().Add(ttl)
	return l.MemoryEventLog.Hold(ctx, session, stream, ttl, will)
}

func (l heldNeverEnds) Hold(ctx context.Context, session, stream string, ttl time.Duration, will []byte) error {
	l.mu.Lock()
	l.deadline[session+stream] = time.Now().Add(ttl)
	l.mu.Unlock()
	return l.MemoryEventLog.Hold(ctx, session, stream, ttl, will)
}

// End leaves a held stream to its hold.
func (l heldNeverEnds) End(ctx context.Context, session, stream string) error {
	l.mu.Lock()
	_, held := l.deadline[session+stream]
	l.mu.Unlock()
	if held {
		return nil
	}
	return l.MemoryEventLog.End(ctx, session, stream)
}

// Append holds every stream, as if a writer did.
func (l holdsAll) Append(ctx context.Context, session, stream string, data []byte) (string, error) {
	id, err := l.MemoryEventLog.Append(ctx, session, stream, data)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, held := l.deadline[session+stream]; !held && err == nil {
		l.deadline[session+stream] = time.Now()
		l.MemoryEventLog.Hold(ctx, session, stream, time.Minute, nil)
	}
	return id, err
}

func (l firstWill) Hold(ctx context.Context, session, stream string, ttl time.Duration, will []byte) error {
	l.mu.Lock()
	if w, ok := l.wills[session+stream]; ok {
		will = w
	} else {
		l.wills[session+stream] = will
	}
	l.mu.Unlock()
	return l.MemoryEventLog.Hold(ctx, session, stream, ttl, will)
}

func (l defaultWill) Hold(ctx context.Context, session, stream string, ttl time.Duration, will []byte) error {
	if len(will) == 0 {
		will = []byte(`"gone"`)
	}
	return l.MemoryEventLog.Hold(ctx, session, stream, ttl, will)
}

var brokenLogs = map[string]func() mcpstore.EventLog{
	"ids name their stream and differ":                            func() mcpstore.EventLog { return reusedIDs{memLog(), newLogState()} },
	"an id of one session is unknown in another":                  func() mcpstore.EventLog { return sessionBlind{memLog(), newLogState()} },
	"bad ids are refused":                                         func() mcpstore.EventLog { return lenientCheck{memLog()} },
	"follow replays what followed then follows live":              func() mcpstore.EventLog { return skipsFirst{memLog()} },
	"an ended stream ends its followers":                          func() mcpstore.EventLog { return endIgnored{memLog()} },
	"follow stops when its context ends":                          func() mcpstore.EventLog { return cancelIsNil{memLog()} },
	"follow stops with the error of its function":                 func() mcpstore.EventLog { return swallowsFnErrors{memLog()} },
	"closing a session ends its followers and forgets its events": func() mcpstore.EventLog { return closeIgnored{memLog()} },
	"a stream keeps a bounded number of events": func() mcpstore.EventLog {
		return &mcpstore.MemoryEventLog{MaxEvents: 100 * mcpstore.DefaultEventLogSize}
	},
	"hold lapses leaves will":                       func() mcpstore.EventLog { return noWill{memLog()} },
	"a waiting follower gets the will at the lapse": func() mcpstore.EventLog { return lapseOnLook{memLog(), newLogState()} },
	"renewed hold does not lapse":                   func() mcpstore.EventLog { return renewIgnored{memLog(), newLogState()} },
	"ended stream never lapses":                     func() mcpstore.EventLog { return heldNeverEnds{memLog(), newLogState()} },
	"stream never held never lapses":                func() mcpstore.EventLog { return holdsAll{memLog(), newLogState()} },
	"each hold sets the will":                       func() mcpstore.EventLog { return firstWill{memLog(), newLogState()} },
	"empty will ends the stream without an event":   func() mcpstore.EventLog { return defaultWill{memLog()} },
}

// Broken buses.
type (
	firstSubscriberOnly struct {
		*mcpstore.MemoryBus
		subscribed *bool
	}
	dropsData   struct{ *mcpstore.MemoryBus }
	replaysPast struct {
		*mcpstore.MemoryBus
		mu   *sync.Mutex
		past *[]mcpstore.BusEvent
	}
	stopIgnored struct{ *mcpstore.MemoryBus }
)

func (b firstSubscriberOnly) Subscribe(fn func(mcpstore.BusEvent)) (func(), error) {
	if *b.subscribed {
		return func() {}, nil
	}
	*b.subscribed = true
	return b.MemoryBus.Subscribe(fn)
}

func (b dropsData) Publish(ctx context.Context, e mcpstore.BusEvent) error {
	e.Data = nil
	return b.MemoryBus.Publish(ctx, e)
}

func (b replaysPast) Publish(ctx context.Context, e mcpstore.BusEvent) error {
	b.mu.Lock()
	*b.past = append(*b.past, e)
	b.mu.Unlock()
	return b.MemoryBus.Publish(ctx, e)
}

func (b replaysPast) Subscribe(fn func(mcpstore.BusEvent)) (func(), error) {
	b.mu.Lock()
	past := slices.Clone(*b.past)
	b.mu.Unlock()
	for _, e := range past {
		fn(e)
	}
	return b.MemoryBus.Subscribe(fn)
}

func (b stopIgnored) Subscribe(fn func(mcpstore.BusEvent)) (func(), error) {
	_, err := b.MemoryBus.Subscribe(fn)
	return func() {}, err
}

var brokenBuses = map[string]func() mcpstore.Bus{
	"every subscriber gets every event": func() mcpstore.Bus { return firstSubscriberOnly{&mcpstore.MemoryBus{}, new(bool)} },
	"events arrive with every field":    func() mcpstore.Bus { return dropsData{&mcpstore.MemoryBus{}} },
	"a subscriber gets only what follows its subscribe": func() mcpstore.Bus {
		return replaysPast{&mcpstore.MemoryBus{}, &sync.Mutex{}, new([]mcpstore.BusEvent)}
	},
	"a stopped subscriber gets no more": func() mcpstore.Bus { return stopIgnored{&mcpstore.MemoryBus{}} },
}

// brokenEnv marks the child process that runs the suite on the broken
// stores.
const brokenEnv = "STORETEST_BROKEN_STORES"

// TestBrokenStoresHelper runs the suite on every broken store, in the
// child process of TestBrokenStores.
func TestBrokenStoresHelper(t *testing.T) {
	t.Parallel()
	if os.Getenv(brokenEnv) != "1" {
		t.Skip("run by TestBrokenStores")
	}
	for _, c := range []struct {
		contract string
		run      func(t *testing.T, clause string)
	}{
		{"tasks", func(t *testing.T, clause string) {
			storetest.TaskStore(t, func(*testing.T) mcpstore.SharedTaskStore { return brokenTasks[clause]() })
		}},
		{"sessions", func(t *testing.T, clause string) {
			storetest.SessionStore(t, func(*testing.T) mcpstore.SessionStore { return brokenSessions[clause]() })
		}},
		{"events", func(t *testing.T, clause string) {
			storetest.EventLog(t, func(*testing.T) mcpstore.EventLog { return brokenLogs[clause]() })
		}},
		{"bus", func(t *testing.T, clause string) {
			storetest.Bus(t, func(*testing.T) mcpstore.Bus { return brokenBuses[clause]() })
		}},
	} {
		t.Run(c.contract, func(t *testing.T) {
			for _, clause := range brokenClauses()[c.contract] {
				t.Run(clause, func(t *testing.T) { c.run(t, clause) })
			}
		})
	}
}

// brokenClauses returns the clauses broken, by contract.
func brokenClauses() map[string][]string {
	return map[string][]string{
		"tasks":    slices.Sorted(maps.Keys(brokenTasks)),
		"sessions": slices.Sorted(maps.Keys(brokenSessions)),
		"events":   slices.Sorted(maps.Keys(brokenLogs)),
		"bus":      slices.Sorted(maps.Keys(brokenBuses)),
	}
}

// TestBrokenStores: a store that breaks one clause fails the suite, and
// the subtest that fails is named after the clause broken.
func TestBrokenStores(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenStoresHelper$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), brokenEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the suite passed on every broken store:\n%s", out)
	}
	failed := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "--- FAIL: "); ok {
			name, _, _ = strings.Cut(name, " ")
			failed[name] = true
		}
	}
	for contract, clauses := range brokenClauses() {
		for _, clause := range clauses {
			name := strings.ReplaceAll(clause, " ", "_")
			if want := "TestBrokenStoresHelper/" + contract + "/" + name + "/" + name; !failed[want] {
				t.Errorf("the %s store that breaks %q passed that clause", contract, clause)
			}
		}
	}
	if t.Failed() {
		t.Logf("the suite on the broken stores:\n%s", out)
	}
}
