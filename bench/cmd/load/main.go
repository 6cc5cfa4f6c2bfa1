// Command load is a bounded HTTP load run on loopback of the reference
// tool bulk_price_update, served over Streamable HTTP by each server the
// benchmarks compare (bench/servers), each a process of its own started
// from bench/cmd/serve, one after the other: mcpgen's built-in server,
// go-sdk, mcp-go with and without validation, and a floor, a net/http
// server answering every POST with a fixed body.
//
// For each server and each mode, -clients concurrent clients send the
// reference call for -duration (at most -max calls), and it reports
// throughput and latency percentiles beside the floor's, as ratios:
//
//   - sessions: 2025-11-25 sessions, one a client, opened by initialize
//     before the clock starts;
//   - stateless: 2026-07-28 requests with no session, carrying the
//     MCP-Protocol-Version, Mcp-Method and Mcp-Name headers and the
//     revision and client capabilities in _meta (go-sdk and mcp-go run in
//     their stateless modes);
//   - tasks: 2026-07-28 calls of the reference tool as a task, from
//     clients that declare the tasks extension, each followed by tasks/get
//     until the task has completed; it reports task lives a second beside
//     requests a second, and the latency of a life, create to end. Only
//     the built-in server serves a task tool; the others are skipped.
//
// With -redis URL, the built-in server runs a second time with the Redis
// backend attached, as mcpserver-redis, reading a session from Redis on
// every request, and a third time serving sessions from the client-side
// cache for up to -session-cache (the backend's default), as
// mcpserver-redis-cached, in sessions mode only, both right after
// mcpserver, and their throughput is also given as a ratio to
// mcpserver's: what sharing the state with other replicas costs. With
// -redis start, it starts a redis-server of its own on a free loopback
// port, without persistence, and kills it when it ends.
//
// Then, unless -idle is 0, it opens -idle sessions on a fresh process of
// each server that keeps sessions and reports the heap and stacks in use,
// and the resident memory, each session adds. With -rounds above 1 it
// runs every server again, in the same order, reports each round, and
// then the medians over the rounds: on a machine that other work shares,
// many short rounds and their medians say more than one long one.
//
//	go run ./bench/cmd/load -clients 50 -duration 2s -rounds 8 -idle 10000
//	go run ./bench/cmd/load -servers mcpserver -redis start -clients 50 -duration 2s -rounds 3 -idle 0 -modes sessions,stateless,tasks
//
// It exits 1 if any request failed, 2 for bad flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/bench/servers"
	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/mcpredis"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	clients      int
	duration     time.Duration
	max          int
	rounds       int
	idle         int
	modes        []string
	servers      []string
	serve        string        // a build of bench/cmd/serve; empty: build one
	ab           string        // label=path[,...]
	redis        string        // a Redis URL, "start", or empty for none
	sessionCache time.Duration // of mcpserver-redis-cached; 0: no such target
	targets      []target      // set by setUp
	redisURL     string        // set by setUp: -redis, or the URL of the redis-server it started
	redisPid     int           // of the redis-server of -redis start, 0 for none
}

// target is a server to load: a build of bench/cmd/serve, the server it
// runs and the flags it runs it with.
type target struct {
	name, bin, server string
	args              []string // more flags of bench/cmd/serve
	base              string   // the target its throughput is compared with; "" for none
	sessionsOnly      bool     // runs in mode sessions only
	redis             bool     // runs with the Redis backend attached
}

// skips says why t does not run in mode, "" when it does.
func (t target) skips(mode string) string {
	switch {
	case mode == modeTasks && t.server != servers.Builtin:
		return "serves no task tool"
	case mode != modeSessions && t.sessionsOnly:
		return "caches 2025 sessions, which this mode has none of"
	}
	return ""
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return 2
	}
	cleanup, err := setUp(&cfg)
	if err != nil {
		fmt.Fprintln(stderr, "load:", err)
		return 1
	}
	defer cleanup()
	stopSignals := cleanUpOnSignal(cleanup)
	defer stopSignals()
	if cfg.redisPid != 0 {
		fmt.Fprintf(stdout, "redis-server at %s, process %d, stopped when the run ends\n", cfg.redisURL, cfg.redisPid)
	}
	failed := false
	rounds := make(map[string][][]result)
	for round := 1; round <= cfg.rounds; round++ {
		for _, mode := range cfg.modes {
			fmt.Fprintf(stdout, "\nround %d, %s, %d clients, %s or %d %s per server\n", round, mode, cfg.clients, cfg.duration, cfg.max, unit(mode)+"s")
			noteSkipped(stdout, cfg.targets, mode)
			res, err := loadAll(cfg, mode)
			report(stdout, mode, res)
			rounds[mode] = append(rounds[mode], res)
			failed = failed || err != nil
			if err != nil {
				fmt.Fprintln(stderr, "load:", err)
			}
		}
	}
	if cfg.rounds > 1 {
		for _, mode := range cfg.modes {
			fmt.Fprintf(stdout, "\n%s, medians of %d rounds (ratios: the median of each round's ratio)\n", mode, cfg.rounds)
			noteSkipped(stdout, cfg.targets, mode)
			summarize(stdout, mode, rounds[mode])
		}
	}
	if cfg.idle > 0 {
		fmt.Fprintf(stdout, "\nmemory of %d idle 2025-11-25 sessions\n", cfg.idle)
		mem, err := idleAll(cfg)
		reportMemory(stdout, mem)
		if err != nil {
			fmt.Fprintln(stderr, "load:", err)
			failed = true
		}
	}
	if failed {
		return 1
	}
	return 0
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	fs.IntVar(&cfg.clients, "clients", 50, "concurrent clients")
	fs.DurationVar(&cfg.duration, "duration", 5*time.Second, "how long each server is loaded in each mode")
	fs.IntVar(&cfg.max, "max", 1_000_000, "most calls (in mode tasks, tasks) sent to a server in one mode")
	fs.IntVar(&cfg.rounds, "rounds", 1, "how many times every server is loaded, in turn")
	fs.IntVar(&cfg.idle, "idle", 10_000, "idle sessions opened to measure their memory; 0 skips it")
	modeList := fs.String("modes", modeSessions+","+modeStateless, "modes to run: sessions (2025-11-25), stateless (2026-07-28), tasks (2026-07-28 tasks)")
	only := fs.String("servers", strings.Join(servers.Names, ","), "servers to load, the floor first")
	fs.StringVar(&cfg.serve, "serve", "", "a build of bench/cmd/serve; empty builds one from this tree")
	fs.StringVar(&cfg.ab, "ab", "", "other `builds` of bench/cmd/serve, as label=path[,...]; their built-in server runs after this tree's as mcpserver-label")
	fs.StringVar(&cfg.redis, "redis", "", "also run the built-in server with the Redis backend attached, on the Redis at `URL` (redis://host:port/db), or on a redis-server of its own with start; the run writes sessions and tasks there")
	fs.DurationVar(&cfg.sessionCache, "session-cache", mcpredis.DefaultSessionCacheTTL, "with -redis, how long mcpserver-redis-cached serves a session from the client-side cache; 0 leaves that server out")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.modes, cfg.servers = strings.Split(*modeList, ","), strings.Split(*only, ",")
	if err := cfg.check(); err != nil {
		fmt.Fprintln(stderr, "load:", err)
		return cfg, err
	}
	return cfg, nil
}

// check refuses flags that mean nothing.
func (cfg config) check() error {
	if cfg.clients < 1 || cfg.duration <= 0 || cfg.max < 1 || cfg.rounds < 1 || cfg.idle < 0 || cfg.sessionCache < 0 {
		return errors.New("need -clients, -duration, -max and -rounds above 0 and -idle and -session-cache at least 0")
	}
	for _, m := range cfg.modes {
		if !slices.Contains(modes, m) {
			return fmt.Errorf("-modes: unknown mode %q: want some of %s", m, strings.Join(modes, ","))
		}
	}
	for _, s := range cfg.servers {
		if !slices.Contains(servers.Names, s) {
			return fmt.Errorf("-servers: unknown server %q: want some of %s", s, strings.Join(servers.Names, ","))
		}
	}
	for entry := range strings.SplitSeq(cfg.ab, ",") {
		if label, path, ok := strings.Cut(entry, "="); entry != "" && (!ok || label == "" || path == "") {
			return fmt.Errorf("-ab: want label=path, got %q", entry)
		}
	}
	if (cfg.redis != "" || cfg.ab != "") && !slices.Contains(cfg.servers, servers.Builtin) {
		return fmt.Errorf("-redis and -ab run other builds or stores of the built-in server beside it: -servers must name %s", servers.Builtin)
	}
	return nil
}

// setUp starts Redis for -redis start, builds bench/cmd/serve unless
// -serve names a build, and sets cfg's targets. It returns what undoes it.
func setUp(cfg *config) (func(), error) {
	var undo []func()
	cleanup := func() {
		for _, f := range slices.Backward(undo) {
			f()
		}
	}
	cfg.redisURL = cfg.redis
	if cfg.redis == "start" {
		rs, err := redistest.Launch()
		if err != nil {
			return nil, fmt.Errorf("-redis start: %w", err)
		}
		undo = append(undo, rs.Stop)
		cfg.redisURL, cfg.redisPid = rs.URL(), rs.Pid()
	}
	bin := cfg.serve
	if bin == "" {
		path, remove, err := buildServe()
		if err != nil {
			cleanup()
			return nil, err
		}
		undo = append(undo, remove)
		bin = path
	}
	cfg.targets = targets(cfg.servers, bin, cfg.ab, cfg.redisURL, cfg.sessionCache)
	return sync.OnceFunc(cleanup), nil
}

// cleanUpOnSignal runs cleanup and exits on an interrupt or SIGTERM, so
// that a redis-server it started does not outlive the run (the servers
// stop by themselves when their standard input closes). It returns what
// stops watching.
func cleanUpOnSignal(cleanup func()) func() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	stop := make(chan struct{})
	go func() {
		select {
		case <-sig:
			cleanup()
			os.Exit(1)
		case <-stop:
		}
	}()
	return func() { signal.Stop(sig); close(stop) }
}

// targets are the servers named, each from bin, and after the built-in
// server, its runs with Redis (when redisURL is set) and the builds of ab.
func targets(names []string, bin, ab, redisURL string, sessionCache time.Duration) []target {
	var ts []target
	for _, name := range names {
		ts = append(ts, target{name: name, bin: bin, server: name})
		if name != servers.Builtin {
			continue
		}
		if redisURL != "" {
			ts = append(ts, target{name: name + "-redis", bin: bin, server: name, args: []string{"-redis", redisURL, "-session-cache", "0"}, base: name, redis: true})
			if sessionCache > 0 {
				ts = append(ts, target{name: name + "-redis-cached", bin: bin, server: name, base: name, sessionsOnly: true, redis: true,
					args: []string{"-redis", redisURL, "-session-cache", sessionCache.String()}})
			}
		}
		for entry := range strings.SplitSeq(ab, ",") {
			if label, path, ok := strings.Cut(entry, "="); ok {
				ts = append(ts, target{name: name + "-" + label, bin: path, server: name, base: name})
			}
		}
	}
	return ts
}
