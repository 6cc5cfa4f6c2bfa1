// Package localredis starts a redis-server of its own on a free loopback
// port, keeping nothing on disk, for the load run's -redis start and the
// tests of the commands that use Redis; Stop kills it by its process id.
package localredis

import (
	"bufio"
	"bytes"
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

// Wait is how long a server started here has to answer.
const Wait = 10 * time.Second

// ErrNotInstalled is Start's error when there is no redis-server on PATH.
var ErrNotInstalled = errors.New("redis-server is not on PATH: install it (it is the redis-server package of most distributions) or give the URL of a running Redis")

// Server is a redis-server that Start started.
type Server struct {
	Addr string // host:port on loopback
	URL  string // redis://Addr/0

	cmd    *exec.Cmd
	exited chan struct{}
}

// Start starts redis-server on a free loopback port without persistence
// (no snapshots, no append-only file) and waits until it answers PING.
func Start() (*Server, error) {
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, ErrNotInstalled
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	cmd := exec.Command(path, "--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--save", "", "--appendonly", "no")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	s := &Server{Addr: addr, URL: "redis://" + addr + "/0", cmd: cmd, exited: make(chan struct{})}
	go func() { cmd.Wait(); close(s.exited) }()
	deadline := time.Now().Add(Wait)
	for !s.Answers() {
		select {
		case <-s.exited:
			return nil, fmt.Errorf("redis-server on port %d ended: %s", port, strings.TrimSpace(out.String()))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("redis-server on port %d did not answer within %s", port, Wait)
		}
	}
	return s, nil
}

// Pid is the server's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Stop kills the server by its process id and waits for it to end.
func (s *Server) Stop() {
	s.cmd.Process.Kill()
	<-s.exited
}

// Answers reports whether the server answers PING.
func (s *Server) Answers() bool {
	line, err := s.Do("PING")
	return err == nil && line == "+PONG"
}

// Do sends one inline command on a connection of its own and returns the
// first line of the answer, such as "+PONG" or ":42". Tests and the
// start-up check need no more than that, so no client library is used.
func (s *Server) Do(command string) (string, error) {
	c, err := net.DialTimeout("tcp", s.Addr, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte(command + "\r\n")); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimRight(line, "\r\n"), err
}

// freePort is a loopback TCP port nothing listens on now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// ForTest starts a server for a test and stops it when the test ends. A
// test without redis-server on PATH is skipped, and fails when the
// environment says CI=true, where it must be installed.
func ForTest(tb testing.TB) *Server {
	tb.Helper()
	s, err := Start()
	switch {
	case errors.Is(err, ErrNotInstalled) && os.Getenv("CI") != "true":
		tb.Skip(err)
	case err != nil:
		tb.Fatal(err)
	}
	tb.Cleanup(s.Stop)
	return s
}
