package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStartStopRestart: a started server answers, a stopped one does
// not, and a restarted one answers again on the same address.
func TestStartStopRestart(t *testing.T) {
	t.Parallel()
	s := Start(t)
	addr := s.Addr()
	if !s.answers() {
		t.Fatal("a started server does not answer")
	}
	s.Stop()
	if s.answers() {
		t.Fatal("a stopped server answers")
	}
	s.Restart()
	if !s.answers() || s.Addr() != addr {
		t.Errorf("restarted on %s, answering %v; want %s, answering", s.Addr(), s.answers(), addr)
	}
	if want := "redis://" + addr + "/0"; s.URL() != want {
		t.Errorf("URL = %q, want %q", s.URL(), want)
	}
}

// TestCluster: a started cluster has six nodes, three primaries holding
// every slot; killing the primary of a key promotes its replica, and a
// restart brings the killed node back into a cluster that is ok.
func TestCluster(t *testing.T) {
	t.Parallel()
	c := StartCluster(t)
	t.Logf("formed in %v", c.Formed)
	if n := len(c.Addrs()); n != 6 {
		t.Fatalf("%d nodes, want 6", n)
	}
	info, err := Command(c.Addrs()[0], "CLUSTER", "INFO")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cluster_state:ok", "cluster_slots_assigned:16384", "cluster_size:3", "cluster_known_nodes:6"} {
		if !strings.Contains(info, want) {
			t.Errorf("CLUSTER INFO lacks %s:\n%s", want, info)
		}
	}
	// A write to k's primary waits in vain for its paused replica.
	resume := c.PauseReplica("k")
	if acked := writeAndWait(t, c.PrimaryOf("k")); acked != "0" {
		t.Errorf("WAIT with the replica paused: %s replicas, want 0", acked)
	}
	resume()
	if acked := writeAndWait(t, c.PrimaryOf("k")); acked != "1" {
		t.Errorf("WAIT with the replica resumed: %s replicas, want 1", acked)
	}
	before := c.PrimaryOf("k")
	killed, took := c.KillPrimary("k")
	t.Logf("killed %s; replica promoted in %v", killed, took)
	if slices.Contains(c.Addrs(), killed) || len(c.Addrs()) != 5 {
		t.Errorf("after killing %s, nodes %v", killed, c.Addrs())
	}
	if before != killed {
		t.Errorf("killed %s, but k was on %s", killed, before)
	}
	if p := c.PrimaryOf("k"); p == "" || p == killed {
		t.Errorf("k held by %q after the kill of %s", p, killed)
	}
	c.Restart()
	if n := len(c.Addrs()); n != 6 {
		t.Errorf("%d nodes after the restart, want 6", n)
	}
	if !strings.HasPrefix(c.URL(), "redis://"+c.Addrs()[0]+"/0?addr=") || strings.Count(c.URL(), "addr=") != 5 {
		t.Errorf("URL %s", c.URL())
	}
}

// TestPortTaken: a server whose port another process holds fails to
// start with errPortTaken, which Start answers with another port, and
// does not take the other process's answers for its own.
func TestPortTaken(t *testing.T) {
	t.Parallel()
	other := Start(t)
	s := &Server{t: t, port: other.port}
	err := s.start()
	if !errors.Is(err, errPortTaken) {
		t.Fatalf("start on a taken port: %v, want errPortTaken", err)
	}
	if s.p != nil {
		t.Error("a server that did not start is kept")
	}
}

// TestAOFRestart: a write acknowledged by a server with AOF survives its
// SIGKILL and restart on the same port; without AOF the restarted
// server is empty.
func TestAOFRestart(t *testing.T) {
	t.Parallel()
	for _, aof := range []bool{false, true} {
		var opts []Option
		if aof {
			opts = append(opts, AOF)
		}
		s := Start(t, opts...)
		if _, err := Command(s.Addr(), "SET", "k", "v"); err != nil {
			t.Fatal(err)
		}
		s.Stop()
		s.Restart()
		got, err := Command(s.Addr(), "GET", "k")
		for i := 0; err != nil && strings.HasPrefix(err.Error(), "LOADING") && i < 100; i++ {
			time.Sleep(20 * time.Millisecond)
			got, err = Command(s.Addr(), "GET", "k")
		}
		switch {
		case aof && (err != nil || got != "v"):
			t.Errorf("with AOF, k after the restart: %q, %v; want v", got, err)
		case !aof && err == nil:
			t.Errorf("without AOF, k after the restart: %q, want none", got)
		}
	}
}

// writeAndWait sets k at addr, then asks on the same connection how many
// replicas acknowledge it within 300 ms (WAIT 1 300).
func writeAndWait(t *testing.T, addr string) string {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprint(conn, "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n*3\r\n$4\r\nWAIT\r\n$1\r\n1\r\n$3\r\n300\r\n")
	rd := bufio.NewReader(conn)
	var lines []string
	for range 2 {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.TrimSpace(line))
	}
	if lines[0] != "+OK" || !strings.HasPrefix(lines[1], ":") {
		t.Fatalf("SET then WAIT answered %q", lines)
	}
	return lines[1][1:]
}
