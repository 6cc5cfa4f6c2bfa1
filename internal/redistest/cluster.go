package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// NodeTimeout is the cluster's cluster-node-timeout: a primary that
// answers no ping for this long is failed over to its replica.
const NodeTimeout = time.Second

// clusterWait bounds how long forming the cluster, or a failover, may
// take.
const clusterWait = 30 * time.Second

// Cluster is a Redis Cluster of three primaries with one replica each, in
// six redis-server processes a test started.
type Cluster struct {
	t     testing.TB
	dir   string
	nodes []*node
	// Formed is how long starting and forming the cluster took.
	Formed time.Duration
}

// node is one redis-server of a cluster.
type node struct {
	port, bus int
	p         *proc
}

func (n *node) addr() string { return "127.0.0.1:" + strconv.Itoa(n.port) }

// StartCluster starts six redis-server processes in cluster mode, forms
// a cluster of three primaries with one replica each with redis-cli, and
// waits until every node says cluster_state:ok and every replica is in
// sync with its primary. The processes are killed
// by PID when t ends. It skips t under -short and when redis-server or
// redis-cli is not on PATH, and fails it instead when CI is "true".
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("a Redis Cluster takes seconds to form: skipped under -short")
	}
	for _, bin := range []string{"redis-server", "redis-cli"} {
		if _, err := exec.LookPath(bin); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not on PATH; .ci/run installs it", bin)
			}
			t.Skipf("%s is not on PATH: install redis-server to run this test (under CI=true its absence fails)", bin)
		}
	}
	start := time.Now()
	c := &Cluster{t: t, dir: t.TempDir()}
	t.Cleanup(c.Stop)
	for range 6 {
		n := &node{}
		c.nodes = append(c.nodes, n)
		for attempt := 1; ; attempt++ {
			var err error
			if n.port, err = freePort(); err == nil {
				if n.bus, err = freePort(); err == nil {
					err = c.start(n)
				}
			}
			if err == nil {
				break
			}
			if !errors.Is(err, errPortTaken) || attempt == portAttempts {
				t.Fatal(err)
			}
		}
	}
	args := []string{"--cluster", "create"}
	args = append(args, c.Addrs()...)
	args = append(args, "--cluster-replicas", "1", "--cluster-yes")
	if out, err := exec.Command("redis-cli", args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	c.waitOK(c.nodes)
	c.waitSynced(c.nodes)
	c.Formed = time.Since(start)
	return c
}

// start starts node n's redis-server, with its node file in the
// cluster's directory so that a restart keeps its place in the cluster,
// and waits until it answers.
func (c *Cluster) start(n *node) error {
	port := strconv.Itoa(n.port)
	p, err := startProc("--bind", "127.0.0.1", "--port", port,
		"--cluster-enabled", "yes", "--cluster-port", strconv.Itoa(n.bus),
		"--cluster-config-file", filepath.Join(c.dir, "nodes-"+port+".conf"),
		"--cluster-node-timeout", strconv.Itoa(int(NodeTimeout/time.Millisecond)),
		"--cluster-replica-validity-factor", "0",
		"--repl-diskless-sync-delay", "0",
		"--dir", c.dir, "--save", "", "--appendonly", "no")
	if err != nil {
		return err
	}
	if err := p.waitReady(n.addr(), clusterWait); err != nil {
		p.kill()
		return err
	}
	n.p = p
	return nil
}

// waitFor waits until ok holds, failing the test after clusterWait.
func (c *Cluster) waitFor(n *node, ok func() bool, what string) {
	c.t.Helper()
	deadline := time.Now().Add(clusterWait)
	for !ok() {
		if time.Now().After(deadline) {
			c.t.Fatalf("redis cluster node %s did not come %s within %v", n.addr(), what, clusterWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitOK waits until every node of nodes says cluster_state:ok.
func (c *Cluster) waitOK(nodes []*node) {
	c.t.Helper()
	for _, n := range nodes {
		c.waitFor(n, func() bool {
			info, err := Command(n.addr(), "CLUSTER", "INFO")
			return err == nil && strings.Contains(info, "cluster_state:ok")
		}, "to cluster_state:ok")
	}
}

// waitSynced waits until every replica among nodes has its link to its
// primary up: before its first sync a replica is empty, and promoting it
// would lose its primary's keys.
func (c *Cluster) waitSynced(nodes []*node) {
	c.t.Helper()
	for _, n := range nodes {
		c.waitFor(n, func() bool {
			info, err := Command(n.addr(), "INFO", "replication")
			return err == nil && (strings.Contains(info, "role:master") || strings.Contains(info, "master_link_status:up"))
		}, "in sync with its primary")
	}
}

// Addrs are the host:port of every node that runs.
func (c *Cluster) Addrs() []string {
	var addrs []string
	for _, n := range c.nodes {
		if n.p != nil {
			addrs = append(addrs, n.addr())
		}
	}
	return addrs
}

// URL is a redis:// URL naming every node, the first in the host and the
// others as addr parameters, as mcpredis.Open takes a cluster.
func (c *Cluster) URL() string {
	addrs := c.Addrs()
	u := "redis://" + addrs[0] + "/0"
	for i, a := range addrs[1:] {
		if i == 0 {
			u += "?"
		} else {
			u += "&"
		}
		u += "addr=" + a
	}
	return u
}

// Stop kills every node by its PID and waits for it to exit.
func (c *Cluster) Stop() {
	for _, n := range c.nodes {
		if n.p != nil {
			n.p.kill()
			n.p = nil
		}
	}
}

// Restart starts again every node Stop or KillPrimary ended, empty but
// in its place in the cluster, and waits until every node says
// cluster_state:ok.
func (c *Cluster) Restart() {
	c.t.Helper()
	for _, n := range c.nodes {
		if n.p == nil {
			if err := c.start(n); err != nil {
				c.t.Fatal(err)
			}
		}
	}
	c.waitOK(c.nodes)
	c.waitSynced(c.nodes)
}

// KillPrimary kills with SIGKILL the primary that holds key's slot and
// waits until its replica is promoted and the other nodes say
// cluster_state:ok. It returns the killed node's address and how long
// the promotion took from the kill.
func (c *Cluster) KillPrimary(key string) (string, time.Duration) {
	c.t.Helper()
	s := c.slot(key)
	primary := c.primaryOf(s)
	if primary == nil {
		c.t.Fatalf("no primary holds slot %d", s)
	}
	primary.p.kill()
	primary.p = nil
	killed := time.Now()
	var rest []*node
	for _, n := range c.nodes {
		if n.p != nil {
			rest = append(rest, n)
		}
	}
	c.waitFor(rest[0], func() bool {
		p := c.primaryOf(s)
		return p != nil && p != primary
	}, "to promote a replica")
	c.waitOK(rest)
	return primary.addr(), time.Since(killed)
}

// PauseReplica stops with SIGSTOP the replica of the primary that holds
// key's slot, so that it acknowledges no more writes, and returns a
// function that lets it go on (SIGCONT). The test fails when the
// primary has no replica that runs.
func (c *Cluster) PauseReplica(key string) (resume func()) {
	c.t.Helper()
	primary := c.primaryOf(c.slot(key))
	if primary == nil {
		c.t.Fatalf("no primary holds the slot of %s", key)
	}
	r := c.replicaOf(primary)
	if r == nil {
		c.t.Fatalf("the primary %s has no replica that runs", primary.addr())
	}
	p := r.p
	p.signal(syscall.SIGSTOP)
	var once sync.Once
	resume = func() { once.Do(func() { p.signal(syscall.SIGCONT) }) }
	c.t.Cleanup(resume)
	return resume
}

// replicaOf returns a running node whose replication link, as its INFO
// says, is to primary; or nil.
func (c *Cluster) replicaOf(primary *node) *node {
	for _, n := range c.nodes {
		if n.p == nil || n == primary {
			continue
		}
		info, err := Command(n.addr(), "INFO", "replication")
		if err == nil && strings.Contains(info, "role:slave") &&
			strings.Contains(info, "master_port:"+strconv.Itoa(primary.port)+"\r\n") {
			return n
		}
	}
	return nil
}

// PrimaryOf returns the address of the primary that holds key's slot,
// "" when none does.
func (c *Cluster) PrimaryOf(key string) string {
	c.t.Helper()
	if p := c.primaryOf(c.slot(key)); p != nil {
		return p.addr()
	}
	return ""
}

// slot returns key's hash slot, as a live node computes it.
func (c *Cluster) slot(key string) int {
	c.t.Helper()
	slot, err := Command(c.Addrs()[0], "CLUSTER", "KEYSLOT", key)
	if err != nil {
		c.t.Fatal(err)
	}
	n, err := strconv.Atoi(slot)
	if err != nil {
		c.t.Fatalf("CLUSTER KEYSLOT %s: %q", key, slot)
	}
	return n
}

// primaryOf returns the running node that CLUSTER NODES, asked of a live
// node, names as the primary of slot, or nil.
func (c *Cluster) primaryOf(slot int) *node {
	for _, asked := range c.nodes {
		if asked.p == nil {
			continue
		}
		out, err := Command(asked.addr(), "CLUSTER", "NODES")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) < 9 || !strings.Contains(f[2], "master") || strings.Contains(f[2], "fail") {
				continue
			}
			for _, r := range f[8:] {
				lo, hi, ok := strings.Cut(r, "-")
				if !ok {
					hi = lo
				}
				l, err1 := strconv.Atoi(lo)
				h, err2 := strconv.Atoi(hi)
				if err1 != nil || err2 != nil || slot < l || slot > h {
					continue
				}
				addr, _, _ := strings.Cut(f[1], "@")
				for _, n := range c.nodes {
					if n.addr() == addr {
						return n
					}
				}
			}
		}
		return nil
	}
	return nil
}

// Command sends one command to the Redis at addr and returns its reply:
// a simple or bulk string, or an integer in decimal. An error reply is
// an error.
func Command(addr string, args ...string) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(2 * time.Second))
	req := "*" + strconv.Itoa(len(args)) + "\r\n"
	for _, a := range args {
		req += "$" + strconv.Itoa(len(a)) + "\r\n" + a + "\r\n"
	}
	if _, err := io.WriteString(conn, req); err != nil {
		return "", err
	}
	rd := bufio.NewReader(conn)
	line, err := rd.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", errors.New("empty reply")
	}
	switch line[0] {
	case '+', ':':
		return line[1:], nil
	case '-':
		return "", errors.New(line[1:])
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return "", fmt.Errorf("reply %q", line)
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(rd, buf); err != nil {
			return "", err
		}
		return string(buf[:n]), nil
	}
	return "", fmt.Errorf("reply %q", line)
}
