package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/bench/servers"
	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/mcpredis"
)

// TestParseFlags checks the flags a run is configured with.
func TestParseFlags(t *testing.T) {
	var stderr bytes.Buffer
	cfg, err := parseFlags([]string{"-servers", "mcpserver", "-modes", "sessions,tasks", "-redis", "start", "-session-cache", "30s", "-serve", "/bin/serve"}, &stderr)
	if err != nil {
		t.Fatalf("parseFlags: %v; %s", err, stderr.Bytes())
	}
	if !slices.Equal(cfg.modes, []string{modeSessions, modeTasks}) || !slices.Equal(cfg.servers, []string{servers.Builtin}) ||
		cfg.redis != "start" || cfg.sessionCache != 30*time.Second || cfg.serve != "/bin/serve" {
		t.Errorf("parseFlags gave modes %v, servers %v, redis %q, session cache %s, serve %q", cfg.modes, cfg.servers, cfg.redis, cfg.sessionCache, cfg.serve)
	}
	cfg, err = parseFlags(nil, &stderr)
	if err != nil || cfg.redis != "" || cfg.sessionCache != mcpredis.DefaultSessionCacheTTL || !slices.Equal(cfg.modes, []string{modeSessions, modeStateless}) {
		t.Errorf("defaults: redis %q, session cache %s, modes %v, err %v", cfg.redis, cfg.sessionCache, cfg.modes, err)
	}
}

// TestParseFlagsRefuses checks that flags that mean nothing are refused
// with a message naming the flag.
func TestParseFlagsRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-modes", "sessions,task"}, `-modes: unknown mode "task": want some of sessions,stateless,tasks`},
		{[]string{"-servers", "floor,mcp"}, `-servers: unknown server "mcp"`},
		{[]string{"-servers", "floor", "-redis", "start"}, "-servers must name mcpserver"},
		{[]string{"-servers", "gosdk-typed", "-ab", "old=/bin/serve"}, "-servers must name mcpserver"},
		{[]string{"-ab", "old"}, `-ab: want label=path, got "old"`},
		{[]string{"-session-cache", "-1s"}, "-session-cache at least 0"},
		{[]string{"-clients", "0"}, "need -clients"},
	} {
		var stderr bytes.Buffer
		if _, err := parseFlags(tc.args, &stderr); err == nil || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("parseFlags(%q): %v; stderr %q, want it to say %q", tc.args, err, stderr.String(), tc.want)
		}
	}
}

// TestTargets checks that the built-in server's runs with Redis come
// right after it, before the other builds, each compared with it.
func TestTargets(t *testing.T) {
	got := targets([]string{servers.Floor, servers.Builtin, servers.GoSDK}, "/bin/serve", "old=/bin/old", "redis://127.0.0.1:6379/0", time.Minute)
	want := []target{
		{name: "floor", bin: "/bin/serve", server: "floor"},
		{name: "mcpserver", bin: "/bin/serve", server: "mcpserver"},
		{name: "mcpserver-redis", bin: "/bin/serve", server: "mcpserver", args: []string{"-redis", "redis://127.0.0.1:6379/0", "-session-cache", "0"}, base: "mcpserver", redis: true},
		{name: "mcpserver-redis-cached", bin: "/bin/serve", server: "mcpserver", args: []string{"-redis", "redis://127.0.0.1:6379/0", "-session-cache", "1m0s"},
			base: "mcpserver", sessionsOnly: true, redis: true},
		{name: "mcpserver-old", bin: "/bin/old", server: "mcpserver", base: "mcpserver"},
		{name: "gosdk-typed", bin: "/bin/serve", server: "gosdk-typed"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(target{})); diff != "" {
		t.Errorf("targets (-want +got):\n%s", diff)
	}
	names := func(ts []target) (n []string) {
		for _, t := range ts {
			n = append(n, t.name)
		}
		return n
	}
	if got := names(targets([]string{servers.Builtin}, "/bin/serve", "", "redis://127.0.0.1:6379/0", 0)); !slices.Equal(got, []string{"mcpserver", "mcpserver-redis"}) {
		t.Errorf("without a session cache: %v, want mcpserver and mcpserver-redis", got)
	}
}

// TestSkips checks which targets run in which mode.
func TestSkips(t *testing.T) {
	ts := targets([]string{servers.Floor, servers.Builtin, servers.MCPGoTyped}, "serve", "", "redis://r/0", time.Minute)
	runs := map[string][]string{}
	for _, mode := range modes {
		for _, t := range ts {
			if t.skips(mode) == "" {
				runs[mode] = append(runs[mode], t.name)
			}
		}
	}
	want := map[string][]string{
		modeSessions:  {"floor", "mcpserver", "mcpserver-redis", "mcpserver-redis-cached", "mcpgo-typed"},
		modeStateless: {"floor", "mcpserver", "mcpserver-redis", "mcpgo-typed"},
		modeTasks:     {"mcpserver", "mcpserver-redis"},
	}
	if diff := cmp.Diff(want, runs); diff != "" {
		t.Errorf("targets run (-want +got):\n%s", diff)
	}
}

// TestStringField checks the search for task ids and statuses in answers.
func TestStringField(t *testing.T) {
	answer := []byte(`{"jsonrpc":"2.0","id":3,"result":{"taskId":"AB2C","status":"working","statusMessage":"a \"b\""}}`)
	for key, want := range map[string]string{"taskId": "AB2C", "status": "working", "statusMessage": "", "id": "", "missing": ""} {
		if got := stringField(answer, key); got != want {
			t.Errorf("stringField(%s) = %q, want %q", key, got, want)
		}
	}
}

var (
	serveOnce sync.Once
	serveBin  string
	serveErr  error
)

// serveBuild builds bench/cmd/serve once for the tests that run servers,
// which -short leaves out.
func serveBuild(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs servers")
	}
	serveOnce.Do(func() {
		var remove func()
		serveBin, remove, serveErr = buildServe()
		if serveErr == nil {
			cleanups = append(cleanups, remove)
		}
	})
	if serveErr != nil {
		t.Fatal(serveErr)
	}
	return serveBin
}

var cleanups []func()

// loadArgsEnv, when set, makes the test binary run the command with these
// arguments (separated by spaces) instead of the tests, for a test that
// signals the run.
const loadArgsEnv = "LOAD_TEST_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(loadArgsEnv); args != "" {
		os.Exit(run(strings.Fields(args), os.Stdout, os.Stderr))
	}
	code := m.Run()
	for _, f := range cleanups {
		f()
	}
	os.Exit(code)
}

// runLoad runs the command with args, a short run of two clients on the
// tests' build, and returns its output; it fails the test unless the run
// exits 0.
func runLoad(t *testing.T, args ...string) string {
	t.Helper()
	args = append([]string{"-serve", serveBuild(t), "-duration", "200ms", "-clients", "2", "-idle", "0"}, args...)
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("load %q exited %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.String()
}

// rows are the rows of the report tables of out that follow the line
// starting with title, by server: each row's cells by column heading.
func rows(t *testing.T, out, title string) map[string]map[string]string {
	t.Helper()
	_, rest, ok := strings.Cut(out, "\n"+title)
	if !ok {
		t.Fatalf("no %q in the output:\n%s", title, out)
	}
	var head []string
	got := map[string]map[string]string{}
	for line := range strings.Lines(rest) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "|---"):
		case strings.HasPrefix(line, "| server |"):
			head = cells(line)
		case strings.HasPrefix(line, "|"):
			c := cells(line)
			row := map[string]string{}
			for i, h := range head {
				if i < len(c) {
					row[h] = c[i]
				}
			}
			got[c[0]] = row
		case head != nil:
			return got
		}
	}
	return got
}

func cells(line string) []string {
	c := strings.Split(strings.Trim(line, "|"), "|")
	for i := range c {
		c[i] = strings.TrimSpace(c[i])
	}
	return c
}

// positive fails unless row's cell under head is a count above 0.
func positive(t *testing.T, what string, row map[string]string, head string) {
	t.Helper()
	n, err := strconv.ParseFloat(row[head], 64)
	if err != nil || n <= 0 {
		t.Errorf("%s: %s is %q, want a count above 0 (row %v)", what, head, row[head], row)
	}
}

// TestTasksMode runs the tasks mode: the built-in server completes tasks,
// each read with tasks/get, and the servers without a task tool are
// skipped with a note rather than failed.
func TestTasksMode(t *testing.T) {
	out := runLoad(t, "-servers", "floor,mcpserver,gosdk-typed", "-modes", "tasks")
	if !strings.Contains(out, "skipped in tasks mode: floor, gosdk-typed (serves no task tool)") {
		t.Errorf("no note of the servers skipped:\n%s", out)
	}
	got := rows(t, out, "round 1, tasks")
	if len(got) != 1 || got["mcpserver"] == nil {
		t.Fatalf("rows of %v, want mcpserver's alone:\n%s", got, out)
	}
	row := got["mcpserver"]
	positive(t, "mcpserver", row, "tasks")
	positive(t, "mcpserver", row, "tasks/s")
	if gets, err := strconv.ParseFloat(row["gets/task"], 64); err != nil || gets < 1 {
		t.Errorf("gets/task is %q, want at least 1 (every task is read once it ends)", row["gets/task"])
	}
	if row["errors"] != "0" {
		t.Errorf("errors %q, want 0", row["errors"])
	}
}

// TestServerCPUVsFloor checks that a run with the floor reports the
// server's processor time per call as a ratio to the floor's, 1 for the
// floor itself, in every round and in the medians.
func TestServerCPUVsFloor(t *testing.T) {
	out := runLoad(t, "-servers", "floor,mcpserver", "-modes", "stateless", "-rounds", "2")
	for _, title := range []string{"round 1, stateless", "stateless, medians"} {
		got := rows(t, out, title)
		if r := got["floor"]["server CPU vs floor"]; r != "1.00x" {
			t.Errorf("%s: the floor's server CPU vs floor is %q, want 1.00x", title, r)
		}
		r := got["mcpserver"]["server CPU vs floor"]
		if v, err := strconv.ParseFloat(strings.TrimSuffix(r, "x"), 64); err != nil || v <= 0 {
			t.Errorf("%s: mcpserver's server CPU vs floor is %q, want a ratio above 0:\n%s", title, r, out)
		}
	}
}

// TestRedisURL loads the built-in server with and without the Redis
// backend in every mode, and checks that the Redis runs left their
// sessions and tasks in Redis and are compared with the memory run.
func TestRedisURL(t *testing.T) {
	rs := redistest.Start(t)
	out := runLoad(t, "-servers", "mcpserver", "-redis", rs.URL(), "-modes", "sessions,stateless,tasks")
	for mode, want := range map[string][]string{
		modeSessions:  {"mcpserver", "mcpserver-redis", "mcpserver-redis-cached"},
		modeStateless: {"mcpserver", "mcpserver-redis"},
		modeTasks:     {"mcpserver", "mcpserver-redis"},
	} {
		got := rows(t, out, "round 1, "+mode)
		if len(got) != len(want) {
			t.Errorf("%s: rows of %v, want %v", mode, got, want)
		}
		for _, name := range want {
			positive(t, mode+" "+name, got[name], "req/s")
			if base := got[name]["vs mcpserver"]; (name == "mcpserver") != (base == "") {
				t.Errorf("%s %s: vs mcpserver %q", mode, name, base)
			}
		}
	}
	for pattern, what := range map[string]string{"mcp:{s:*}": "sessions", "mcp:{t:*}": "tasks"} {
		line, err := redistest.Command(rs.Addr(), "EVAL", "return #redis.call('KEYS', ARGV[1])", "0", pattern)
		if n, _ := strconv.Atoi(line); err != nil || n == 0 {
			t.Errorf("no %s in Redis (%s: %q, %v)", what, pattern, line, err)
		}
	}
}

// TestRedisStart runs -redis start: the run starts its own redis-server,
// reports its processor time, and kills it at the end.
func TestRedisStart(t *testing.T) {
	redistest.Start(t).Stop() // skipped, or failed under CI, without redis-server
	out := runLoad(t, "-servers", "mcpserver", "-redis", "start", "-modes", "tasks")
	row := rows(t, out, "round 1, tasks")["mcpserver-redis"]
	positive(t, "mcpserver-redis", row, "tasks/s")
	if _, err := time.ParseDuration(row["Redis CPU/task"]); err != nil {
		t.Errorf("Redis CPU/task is %q, want a duration", row["Redis CPU/task"])
	}
	if pids := redisChildren(t); len(pids) > 0 {
		t.Errorf("redis-server processes %v started by the run outlive it", pids)
	}
}

// TestRedisStartWithoutRedis checks that -redis start without redis-server
// on PATH says so before anything is built or run.
func TestRedisStartWithoutRedis(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var stdout, stderr bytes.Buffer
	code := run([]string{"-servers", "mcpserver", "-redis", "start"}, &stdout, &stderr)
	if want := "load: -redis start: redis-server is not on PATH"; code != 1 || !strings.HasPrefix(stderr.String(), want) || stdout.Len() > 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing and %q", code, stdout.String(), stderr.String(), want)
	}
}

// TestRedisStopsOnSignal sends SIGTERM to a run of -redis start and checks
// that the run kills the redis-server it started before it exits.
func TestRedisStopsOnSignal(t *testing.T) {
	redistest.Start(t).Stop() // skipped, or failed under CI, without redis-server
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), loadArgsEnv+"=-serve "+serveBuild(t)+" -servers mcpserver -redis start -session-cache 0 -modes sessions -duration 1m -clients 1 -idle 0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	var url string
	var pid int
	if _, serr := fmt.Sscanf(line, "redis-server at %s process %d,", &url, &pid); err != nil || serr != nil {
		t.Fatalf("the run's first line %q (%v, %v); want the redis-server it started", line, err, serr)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, out)
	cmd.Wait()
	addr := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(url, ","), "redis://"), "/0")
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("redis-server %d at %s still accepts connections after the run ended on SIGTERM", pid, addr)
	}
}

// redisChildren are the ids of the redis-server processes this process
// started that still run, from /proc.
func redisChildren(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc to find redis-server processes in")
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		comm, rest, _ := strings.Cut(string(stat[strings.IndexByte(string(stat), '(')+1:]), ") ")
		if f := strings.Fields(rest); comm == "redis-server" && len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) {
			pids = append(pids, pid)
		}
	}
	return pids
}
