package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/bench/servers"
)

// warmCalls is how many calls each client sends before the clock starts.
const warmCalls = 20

// result is what the clients of one server saw in one mode.
type result struct {
	name      string
	elapsed   time.Duration
	latencies []time.Duration // sorted
	serverCPU time.Duration   // used by the server's process meanwhile
	clientCPU time.Duration   // used by this process meanwhile
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

// loadAll loads every target in turn in mode.
func loadAll(cfg config, mode string) ([]result, error) {
	var res []result
	var errs []error
	for _, t := range cfg.targets {
		r, err := loadServer(cfg, t, mode)
		if err == nil && r.firstErr != nil {
			err = fmt.Errorf("%s: %d requests failed; first: %v", t.name, r.errors, r.firstErr)
		}
		if err != nil {
			errs = append(errs, err)
		}
		res = append(res, r)
	}
	return res, errors.Join(errs...)
}

// loadServer starts t, opens the clients' sessions (in mode sessions),
// warms up, and sends calls from every client until the time or the
// count is up.
func loadServer(cfg config, t target, mode string) (result, error) {
	p, err := start(t, mode == modeStateless)
	if err != nil {
		return result{name: t.name}, err
	}
	defer p.stop()
	hc := newHTTPClient(cfg.clients)
	defer hc.CloseIdleConnections()
	clients := make([]*client, cfg.clients)
	for i := range clients {
		clients[i] = newClient(hc, p.url, mode)
		if mode == modeSessions {
			if err := clients[i].initialize(t.server); err != nil {
				return result{name: t.name}, fmt.Errorf("%s: %w", t.name, err)
			}
		}
		for id := range warmCalls {
			if err := clients[i].call(id); err != nil {
				return result{name: t.name}, fmt.Errorf("%s: %w", t.name, err)
			}
		}
	}
	server0, client0 := p.cpu(), selfCPU()
	r := drive(t.name, clients, cfg.duration, cfg.max)
	r.serverCPU, r.clientCPU = p.cpu()-server0, selfCPU()-client0
	return r, nil
}

// perRequest is d divided among the requests of r.
func (r result) perRequest(d time.Duration) time.Duration {
	return d / time.Duration(max(1, len(r.latencies)))
}

// drive sends calls from every client at once until d has passed or max
// calls have been sent.
func drive(name string, clients []*client, d time.Duration, max int) result {
	lat := make([][]time.Duration, len(clients))
	errs := make([]error, len(clients))
	nerr := make([]int, len(clients))
	var sent atomic.Int64
	begin := time.Now()
	deadline := begin.Add(d)
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Go(func() {
			for id := warmCalls; sent.Add(1) <= int64(max) && time.Now().Before(deadline); id++ {
				t0 := time.Now()
				err := c.call(id)
				lat[i] = append(lat[i], time.Since(t0))
				if err != nil {
					nerr[i]++
					errs[i] = cmpErr(errs[i], err)
				}
			}
		})
	}
	wg.Wait()
	r := result{name: name, elapsed: time.Since(begin), latencies: slices.Concat(lat...)}
	slices.Sort(r.latencies)
	for i := range clients {
		r.errors += nerr[i]
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

// report prints the results of one mode beside the floor's, if it ran.
func report(w io.Writer, res []result) {
	floor := floorOf(res)
	fmt.Fprintf(w, "| server | requests | req/s | vs floor | p50 | p99 | p99 vs floor | server CPU/req | client CPU/req | errors |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range res {
		if len(r.latencies) == 0 {
			fmt.Fprintf(w, "| %s | failed | | | | | | | | %v |\n", r.name, r.firstErr)
			continue
		}
		tput, p99 := "", ""
		if floor != nil {
			tput = fmt.Sprintf("%.2fx", r.throughput()/floor.throughput())
			p99 = fmt.Sprintf("%.2fx", float64(r.percentile(0.99))/float64(floor.percentile(0.99)))
		}
		fmt.Fprintf(w, "| %s | %d | %.0f | %s | %s | %s | %s | %s | %s | %d |\n", r.name, len(r.latencies), r.throughput(), tput,
			round(r.percentile(0.50)), round(r.percentile(0.99)), p99, round(r.perRequest(r.serverCPU)), round(r.perRequest(r.clientCPU)), r.errors)
	}
}

// round shortens d to three significant digits.
func round(d time.Duration) time.Duration {
	for p := time.Duration(1); ; p *= 10 {
		if d < 1000*p {
			return d.Round(p)
		}
	}
}

// summarize prints, for each server, the medians over rounds of its
// throughput, p50 and p99 and of their ratios to the floor's in the same
// round.
func summarize(w io.Writer, rounds [][]result) {
	fmt.Fprintf(w, "| server | req/s | vs floor | p50 | p99 | p99 vs floor | server CPU/req | client CPU/req |\n|---|---|---|---|---|---|---|---|\n")
	for i, first := range rounds[0] {
		var tput, tputRatio, p50, p99, p99Ratio, scpu, ccpu []float64
		for _, res := range rounds {
			r, floor := res[i], floorOf(res)
			if len(r.latencies) == 0 {
				continue
			}
			tput = append(tput, r.throughput())
			p50 = append(p50, float64(r.percentile(0.50)))
			p99 = append(p99, float64(r.percentile(0.99)))
			scpu = append(scpu, float64(r.perRequest(r.serverCPU)))
			ccpu = append(ccpu, float64(r.perRequest(r.clientCPU)))
			if floor != nil {
				tputRatio = append(tputRatio, r.throughput()/floor.throughput())
				p99Ratio = append(p99Ratio, float64(r.percentile(0.99))/float64(floor.percentile(0.99)))
			}
		}
		fmt.Fprintf(w, "| %s | %.0f | %.2fx | %s | %s | %.2fx | %s | %s |\n", first.name, median(tput), median(tputRatio),
			round(time.Duration(median(p50))), round(time.Duration(median(p99))), median(p99Ratio),
			round(time.Duration(median(scpu))), round(time.Duration(median(ccpu))))
	}
}

// floorOf is the floor's result among res, nil if it did not run.
func floorOf(res []result) *result {
	for i := range res {
		if res[i].name == servers.Floor && len(res[i].latencies) > 0 {
			return &res[i]
		}
	}
	return nil
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
