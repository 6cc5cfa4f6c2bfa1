// Package redistest starts a real redis-server for tests: on a free
// loopback port, without persistence unless asked (AOF), and stopped by
// its PID when the test ends. A test that needs one calls Start; without
// redis-server on PATH the test is skipped, or fails under CI=true, where
// .ci/run installs it.
package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startWait bounds how long Start waits for the server to answer.
const startWait = 20 * time.Second

// Server is a redis-server a test started.
type Server struct {
	t    testing.TB
	port int
	p    *proc
	dir  string // its working directory, where an AOF is kept
	aof  bool
}

// Option changes how Start starts the server.
type Option func(*Server)

// AOF keeps the server's writes in an append-only file, fsynced every
// second (appendonly yes, appendfsync everysec), in a directory of the
// test's. A Restart after Stop then loads them again.
func AOF(s *Server) { s.aof = true }

// ErrNotInstalled is Launch's error when there is no redis-server on
// PATH.
var ErrNotInstalled = errors.New("redis-server is not on PATH: install it (the redis-server package of most distributions) or give the URL of a running Redis")

// Start starts redis-server and stops it when t ends. It skips t when
// redis-server is not on PATH, and fails it instead when CI is "true".
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server is not on PATH; .ci/run installs it")
		}
		t.Skip("redis-server is not on PATH: install it to run this test (under CI=true its absence fails)")
	}
	s := &Server{t: t, dir: t.TempDir()}
	for _, o := range opts {
		o(s)
	}
	t.Cleanup(s.Stop)
	if err := s.startFree(); err != nil {
		t.Fatal(err)
	}
	return s
}

// Launch starts redis-server as Start does, without persistence, for a
// program rather than a test: the caller stops it with Stop. Without
// redis-server on PATH it returns ErrNotInstalled.
func Launch() (*Server, error) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		return nil, ErrNotInstalled
	}
	s := &Server{dir: os.TempDir()}
	if err := s.startFree(); err != nil {
		return nil, err
	}
	return s, nil
}

// startFree starts the server on a free port, trying another while the
// port it picked was taken before the server bound it.
func (s *Server) startFree() error {
	for attempt := 1; ; attempt++ {
		port, err := freePort()
		if err != nil {
			return err
		}
		s.port = port
		err = s.start()
		if err == nil || !errors.Is(err, errPortTaken) || attempt == portAttempts {
			return err
		}
	}
}

// portAttempts is how many free ports a server tries before it fails.
const portAttempts = 5

// freePort returns a loopback port nothing listens on.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Pid is the process id of the running server, 0 after Stop.
func (s *Server) Pid() int {
	if s.p == nil {
		return 0
	}
	return s.p.cmd.Process.Pid
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Addrs is the server's address alone, as a cluster's Addrs lists its
// nodes.
func (s *Server) Addrs() []string { return []string{s.Addr()} }

// URL is the server's redis:// URL, database 0.
func (s *Server) URL() string { return "redis://" + s.Addr() + "/0" }

// Restart starts the server again on its port after Stop, for a server
// a test started, and waits until it answers: empty, or with AOF,
// loading what its file holds (it may still answer LOADING for a
// moment).
func (s *Server) Restart() {
	s.t.Helper()
	if err := s.start(); err != nil {
		s.t.Fatal(err)
	}
}

// start starts redis-server on s.port and waits until it answers.
func (s *Server) start() error {
	args := []string{"--bind", "127.0.0.1", "--port", strconv.Itoa(s.port), "--dir", s.dir, "--save", ""}
	if s.aof {
		args = append(args, "--appendonly", "yes", "--appendfsync", "everysec")
	} else {
		args = append(args, "--appendonly", "no")
	}
	p, err := startProc(args...)
	if err != nil {
		return err
	}
	if err := p.waitReady(s.Addr(), startWait); err != nil {
		p.kill()
		return err
	}
	s.p = p
	return nil
}

// answers reports whether the server answers PING.
func (s *Server) answers() bool { return answers(s.Addr()) }

// answers reports whether the Redis at addr answers PING.
func answers(addr string) bool {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return false
	}
	defer c.Close()
	fmt.Fprint(c, "PING\r\n")
	line, _ := bufio.NewReader(c).ReadString('\n')
	return strings.HasPrefix(line, "+PONG")
}

// Stop kills the server by its PID with SIGKILL, as a crash of the
// process would end it, and waits for it to exit.
func (s *Server) Stop() {
	if s.p != nil {
		s.p.kill()
		s.p = nil
	}
}
