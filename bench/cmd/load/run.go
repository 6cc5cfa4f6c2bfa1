package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/bench/servers"
)

// warmCalls is how many calls (in mode tasks, tasks) each client makes
// before the clock starts.
const warmCalls = 20

// taskTTL is how long the servers keep the tasks of mode tasks, so that a
// Redis the run shares does not hold them for the default hour.
const taskTTL = time.Minute

// result is what the clients of one server saw in one mode.
type result struct {
	name      string
	base      string // the target its throughput is compared with
	elapsed   time.Duration
	latencies []time.Duration // of each call or task, sorted
	requests  int             // HTTP requests sent for them
	serverCPU time.Duration   // used by the server's process meanwhile
	clientCPU time.Duration   // used by this process meanwhile
	redisCPU  time.Duration   // used by the redis-server of -redis start meanwhile
	withRedis bool            // redisCPU is known
	errors    int
	firstErr  error
}

func (r result) throughput() float64 {
	return float64(len(r.latencies)) / r.elapsed.Seconds()
}

// percentile is the latency below which a share p of the requests fall.
func (r result) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))]
}

// perOp is d divided among the calls or tasks of r.
func (r result) perOp(d time.Duration) time.Duration {
	return d / time.Duration(max(1, len(r.latencies)))
}

// unit is what one op of mode is, as the reports name it.
func unit(mode string) string {
	if mode == modeTasks {
		return "task"
	}
	return "call"
}

// loadAll loads every target that runs in mode, in turn.
func loadAll(cfg config, mode string) ([]result, error) {
	var res []result
	var errs []error
	for _, t := range cfg.targets {
		if t.skips(mode) != "" {
			continue
		}
		r, err := loadServer(cfg, t, mode)
		r.name, r.base = t.name, t.base
		if err == nil && r.firstErr != nil {
			err = fmt.Errorf("%s: %d %ss failed; first: %v", t.name, r.errors, unit(mode), r.firstErr)
		}
		if err != nil {
			errs = append(errs, err)
		}
		res = append(res, r)
	}
	return res, errors.Join(errs...)
}

// noteSkipped names the targets that do not run in mode, and why.
func noteSkipped(w io.Writer, ts []target, mode string) {
	why := map[string][]string{}
	var order []string
	for _, t := range ts {
		if r := t.skips(mode); r != "" {
			if why[r] == nil {
				order = append(order, r)
			}
			why[r] = append(why[r], t.name)
		}
	}
	for _, r := range order {
		fmt.Fprintf(w, "skipped in %s mode: %s (%s)\n", mode, strings.Join(why[r], ", "), r)
	}
}

// serveFlags are the flags of bench/cmd/serve that mode needs: the SDKs'
// stateless modes, and for tasks, bounds that never refuse a task the run
// creates.
func serveFlags(cfg config, mode string) []string {
	switch mode {
	case modeStateless:
		return []string{"-stateless"}
	case modeTasks:
		return []string{"-stateless", "-max-tasks", strconv.Itoa(cfg.max + warmCalls*cfg.clients), "-task-ttl", taskTTL.String()}
	}
	return nil
}

// loadServer starts t, opens the clients' sessions (in mode sessions),
// warms up, and sends calls or makes tasks from every client until the
// time or the count is up.
func loadServer(cfg config, t target, mode string) (result, error) {
	p, err := start(t, serveFlags(cfg, mode)...)
	if err != nil {
		return result{}, err
	}
	defer p.stop()
	hc := newHTTPClient(cfg.clients)
	defer hc.CloseIdleConnections()
	clients := make([]*client, cfg.clients)
	for i := range clients {
		clients[i] = newClient(hc, p.url, mode)
		if mode == modeSessions {
			if err := clients[i].initialize(t.server); err != nil {
				return result{}, fmt.Errorf("%s: %w", t.name, err)
			}
		}
		for id := range warmCalls {
			if _, err := clients[i].op(id); err != nil {
				return result{}, fmt.Errorf("%s: %w", t.name, err)
			}
		}
	}
	server0, client0, redis0 := p.cpu(), selfCPU(), processCPU(cfg.redisPid)
	r := drive(clients, cfg.duration, cfg.max)
	r.serverCPU, r.clientCPU = p.cpu()-server0, selfCPU()-client0
	if t.redis && cfg.redisPid != 0 {
		r.redisCPU, r.withRedis = processCPU(cfg.redisPid)-redis0, true
	}
	return r, nil
}

// drive makes every client do its ops at once until d has passed or max
// ops have begun.
func drive(clients []*client, d time.Duration, max int) result {
	lat := make([][]time.Duration, len(clients))
	errs := make([]error, len(clients))
	nerr := make([]int, len(clients))
	nreq := make([]int, len(clients))
	var sent atomic.Int64
	begin := time.Now()
	deadline := begin.Add(d)
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Go(func() {
			for id := warmCalls; sent.Add(1) <= int64(max) && time.Now().Before(deadline); id++ {
				t0 := time.Now()
				n, err := c.op(id)
				lat[i] = append(lat[i], time.Since(t0))
				nreq[i] += n
				if err != nil {
					nerr[i]++
					errs[i] = cmpErr(errs[i], err)
				}
			}
		})
	}
	wg.Wait()
	r := result{elapsed: time.Since(begin), latencies: slices.Concat(lat...)}
	slices.Sort(r.latencies)
	for i := range clients {
		r.errors += nerr[i]
		r.requests += nreq[i]
		r.firstErr = cmpErr(r.firstErr, errs[i])
	}
	return r
}

// cmpErr keeps the first error.
func cmpErr(first, next error) error {
	if first != nil {
		return first
	}
	return next
}

// column is a column of a report: its heading and its value for a result
// beside the floor's and its base's in the same round (either nil where
// it did not run), false where it has none.
type column struct {
	head      string
	value     func(r, floor, base *result) (float64, bool)
	format    func(float64) string
	roundOnly bool // a count of one round, not summarized
}

// columns are the columns of mode's reports, those that compare with the
// floor or a base only when res holds one.
func columns(mode string, rounds [][]result) []column {
	var floor, base, redis bool
	for _, res := range rounds {
		for _, r := range res {
			floor = floor || r.name == servers.Floor
			base = base || r.base != ""
			redis = redis || r.withRedis
		}
	}
	u := unit(mode)
	cols := []column{
		{head: u + "s", value: func(r, _, _ *result) (float64, bool) { return float64(len(r.latencies)), true }, format: count, roundOnly: true},
		{head: u + "s/s", value: func(r, _, _ *result) (float64, bool) { return r.throughput(), true }, format: count},
	}
	if mode != modeTasks {
		cols[0].head, cols[1].head = "requests", "req/s"
	}
	if floor {
		cols = append(cols, column{head: "vs floor", value: ratio((*result).throughput, false), format: times})
	}
	if base {
		cols = append(cols, column{head: "vs mcpserver", value: ratio((*result).throughput, true), format: times})
	}
	if mode == modeTasks {
		cols = append(cols,
			column{head: "req/s", value: func(r, _, _ *result) (float64, bool) { return float64(r.requests) / r.elapsed.Seconds(), true }, format: count},
			column{head: "gets/task", value: func(r, _, _ *result) (float64, bool) {
				return float64(r.requests-len(r.latencies)) / float64(len(r.latencies)), true
			}, format: func(v float64) string { return fmt.Sprintf("%.2f", v) }})
	}
	cols = append(cols,
		column{head: "p50", value: latency(0.50), format: duration},
		column{head: "p99", value: latency(0.99), format: duration})
	if floor {
		cols = append(cols, column{head: "p99 vs floor", value: ratio(func(r *result) float64 { return float64(r.percentile(0.99)) }, false), format: times})
	}
	serverCPU := func(r *result) float64 { return float64(r.perOp(r.serverCPU)) }
	cols = append(cols, column{head: "server CPU/" + u, value: func(r, _, _ *result) (float64, bool) { return serverCPU(r), true }, format: duration})
	if floor {
		cols = append(cols, column{head: "server CPU vs floor", value: ratio(serverCPU, false), format: times})
	}
	cols = append(cols,
		column{head: "client CPU/" + u, value: func(r, _, _ *result) (float64, bool) { return float64(r.perOp(r.clientCPU)), true }, format: duration})
	if redis {
		cols = append(cols, column{head: "Redis CPU/" + u, value: func(r, _, _ *result) (float64, bool) { return float64(r.perOp(r.redisCPU)), r.withRedis }, format: duration})
	}
	return append(cols, column{head: "errors", value: func(r, _, _ *result) (float64, bool) { return float64(r.errors), true }, format: count, roundOnly: true})
}

// ratio is the value of f for a result over the floor's, or with base
// over its base's.
func ratio(f func(*result) float64, base bool) func(r, floor, b *result) (float64, bool) {
	return func(r, floor, b *result) (float64, bool) {
		ref := floor
		if base {
			ref = b
		}
		if ref == nil {
			return 0, false
		}
		return f(r) / f(ref), true
	}
}

func latency(p float64) func(r, _, _ *result) (float64, bool) {
	return func(r, _, _ *result) (float64, bool) { return float64(r.percentile(p)), true }
}

func count(v float64) string    { return strconv.FormatFloat(v, 'f', 0, 64) }
func times(v float64) string    { return fmt.Sprintf("%.2fx", v) }
func duration(v float64) string { return round(time.Duration(v)).String() }

// header prints the heading of a table of cols.
func header(w io.Writer, cols []column) {
	fmt.Fprint(w, "| server |")
	for _, c := range cols {
		fmt.Fprintf(w, " %s |", c.head)
	}
	fmt.Fprint(w, "\n|---|"+strings.Repeat("---|", len(cols))+"\n")
}

// report prints the results of one round of mode, beside the floor's and
// their bases' where those ran.
func report(w io.Writer, mode string, res []result) {
	cols := columns(mode, [][]result{res})
	header(w, cols)
	for i := range res {
		r := &res[i]
		if len(r.latencies) == 0 {
			fmt.Fprintf(w, "| %s | failed |%s %v |\n", r.name, strings.Repeat(" |", len(cols)-2), r.firstErr)
			continue
		}
		fmt.Fprintf(w, "| %s |", r.name)
		for _, c := range cols {
			v, ok := c.value(r, ran(res, servers.Floor), ran(res, r.base))
			fmt.Fprintf(w, " %s |", cell(c, v, ok))
		}
		fmt.Fprintln(w)
	}
}

// summarize prints, for each server, the medians over rounds of its
// values and of their ratios to the floor's and its base's in the same
// round.
func summarize(w io.Writer, mode string, rounds [][]result) {
	if len(rounds) == 0 || len(rounds[0]) == 0 {
		return
	}
	var cols []column
	for _, c := range columns(mode, rounds) {
		if !c.roundOnly {
			cols = append(cols, c)
		}
	}
	header(w, cols)
	for i, first := range rounds[0] {
		fmt.Fprintf(w, "| %s |", first.name)
		for _, c := range cols {
			var vs []float64
			for _, res := range rounds {
				r := &res[i]
				if len(r.latencies) == 0 {
					continue
				}
				if v, ok := c.value(r, ran(res, servers.Floor), ran(res, r.base)); ok {
					vs = append(vs, v)
				}
			}
			fmt.Fprintf(w, " %s |", cell(c, median(vs), len(vs) > 0))
		}
		fmt.Fprintln(w)
	}
}

func cell(c column, v float64, ok bool) string {
	if !ok {
		return ""
	}
	return c.format(v)
}

// ran is the result of the target named name among res, nil if it did
// not run or failed.
func ran(res []result, name string) *result {
	for i := range res {
		if name != "" && res[i].name == name && len(res[i].latencies) > 0 {
			return &res[i]
		}
	}
	return nil
}

// round shortens d to three significant digits.
func round(d time.Duration) time.Duration {
	for p := time.Duration(1); ; p *= 10 {
		if d < 1000*p {
			return d.Round(p)
		}
	}
}

// median is the median of xs, 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if n := len(xs); n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
	return xs[len(xs)/2]
}
