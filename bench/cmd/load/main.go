// Command load is a bounded HTTP load run on loopback of the reference
// tool bulk_price_update, served over Streamable HTTP by each server the
// benchmarks compare (bench/servers), each a process of its own started
// from bench/cmd/serve, one after the other: mcpgen's built-in server,
// go-sdk, mcp-go with and without validation, and a floor, a net/http
// server answering every POST with a fixed body.
//
// For each server and each mode, -clients concurrent clients send the
// reference call for -duration (at most -max requests), and it reports
// throughput and latency percentiles beside the floor's, as ratios:
//
//   - sessions: 2025-11-25 sessions, one a client, opened by initialize
//     before the clock starts;
//   - stateless: 2026-07-28 requests with no session, carrying the
//     MCP-Protocol-Version, Mcp-Method and Mcp-Name headers and the
//     revision and client capabilities in _meta (go-sdk and mcp-go run in
//     their stateless modes).
//
// Then, unless -idle is 0, it opens -idle sessions on a fresh process of
// each server that keeps sessions and reports the heap and stacks in use,
// and the resident memory, each session adds. With -rounds above 1 it
// runs every server again, in the same order, reports each round, and
// then the medians over the rounds: on a machine that other work shares,
// many short rounds and their medians say more than one long one.
//
//	go run ./bench/cmd/load -clients 50 -duration 2s -rounds 8 -idle 10000
//
// It exits 1 if any request failed.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/bench/servers"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	clients  int
	duration time.Duration
	max      int
	rounds   int
	idle     int
	modes    []string
	targets  []target
	cleanup  func() // removes the build of bench/cmd/serve, if any
}

// target is a server to load: a build of bench/cmd/serve and the server
// it runs.
type target struct {
	name, bin, server string
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return 2
	}
	if cfg.cleanup != nil {
		defer cfg.cleanup()
	}
	failed := false
	rounds := make(map[string][][]result)
	for round := 1; round <= cfg.rounds; round++ {
		for _, mode := range cfg.modes {
			fmt.Fprintf(stdout, "\nround %d, %s, %d clients, %s or %d requests per server\n", round, mode, cfg.clients, cfg.duration, cfg.max)
			res, err := loadAll(cfg, mode)
			report(stdout, res)
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
			summarize(stdout, rounds[mode])
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
	fs.IntVar(&cfg.max, "max", 1_000_000, "most requests sent to a server in one mode")
	fs.IntVar(&cfg.rounds, "rounds", 1, "how many times every server is loaded, in turn")
	fs.IntVar(&cfg.idle, "idle", 10_000, "idle sessions opened to measure their memory; 0 skips it")
	modes := fs.String("modes", "sessions,stateless", "modes to run: sessions (2025-11-25), stateless (2026-07-28)")
	only := fs.String("servers", strings.Join(servers.Names, ","), "servers to load, the floor first")
	bin := fs.String("serve", "", "a build of bench/cmd/serve; empty builds one from this tree")
	ab := fs.String("ab", "", "other `builds` of bench/cmd/serve, as label=path[,...]; their built-in server runs after this tree's as mcpserver-label")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.modes = strings.Split(*modes, ",")
	if cfg.clients < 1 || cfg.duration <= 0 || cfg.max < 1 || cfg.rounds < 1 || cfg.idle < 0 {
		err := errors.New("need -clients, -duration, -max and -rounds above 0 and -idle at least 0")
		fmt.Fprintln(stderr, "load:", err)
		return cfg, err
	}
	if *bin == "" {
		path, cleanup, err := buildServe()
		if err != nil {
			fmt.Fprintln(stderr, "load:", err)
			return cfg, err
		}
		cfg.cleanup, *bin = cleanup, path
	}
	cfg.targets = targets(strings.Split(*only, ","), *bin, *ab)
	return cfg, nil
}

// targets are the servers named, each from bin, and after the built-in
// server, the builds of ab.
func targets(names []string, bin, ab string) []target {
	var ts []target
	for _, name := range names {
		ts = append(ts, target{name: name, bin: bin, server: name})
		if name != servers.Builtin {
			continue
		}
		for entry := range strings.SplitSeq(ab, ",") {
			if label, path, ok := strings.Cut(entry, "="); ok {
				ts = append(ts, target{name: name + "-" + label, bin: path, server: name})
			}
		}
	}
	return ts
}
