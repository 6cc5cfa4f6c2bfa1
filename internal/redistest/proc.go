package redistest

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// proc is one redis-server process a test started.
type proc struct {
	cmd    *exec.Cmd
	out    lockedBuffer
	exited chan struct{}
}

// errPortTaken is a redis-server that exited at start because another
// process listens on one of its ports. Free ports are picked before the
// server binds them, and parallel tests can take one in between.
var errPortTaken = errors.New("port already in use")

// startProc starts redis-server with args, keeping what it prints.
func startProc(args ...string) (*proc, error) {
	p := &proc{cmd: exec.Command("redis-server", args...), exited: make(chan struct{})}
	p.cmd.Stdout = &p.out
	p.cmd.Stderr = &p.out
	// A process group of its own, so that kill ends the children it
	// forks (to sync a replica) with it; and Wait gives up on the output
	// of any left, which would hold it open.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.cmd.WaitDelay = time.Second
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		p.cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// waitReady waits until the server at addr answers as this process: a
// server that answers with another PID holds a port this one wanted.
// It fails when the process exits first, with errPortTaken when its
// output says so, and after within; the caller then kills it.
func (p *proc) waitReady(addr string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		select {
		case <-p.exited:
			out := p.out.String()
			if strings.Contains(out, "already in use") {
				return fmt.Errorf("%w: %s", errPortTaken, lastLine(out))
			}
			return fmt.Errorf("redis-server on %s exited at start: %s", addr, lastLine(out))
		default:
		}
		if pid, ok := pidAt(addr); ok {
			if pid != p.cmd.Process.Pid {
				return fmt.Errorf("%w: %s answers as PID %d", errPortTaken, addr, pid)
			}
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server on %s did not answer within %v: %s", addr, within, lastLine(p.out.String()))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// signal sends sig to the process.
func (p *proc) signal(sig syscall.Signal) { p.cmd.Process.Signal(sig) }

// kill ends the process and its children with SIGKILL and waits until
// it has exited.
func (p *proc) kill() {
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
}

// pidAt returns the PID of the Redis that answers at addr.
func pidAt(addr string) (int, bool) {
	info, err := Command(addr, "INFO", "server")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			pid, err := strconv.Atoi(v)
			return pid, err == nil
		}
	}
	return 0, false
}

// lastLine is the last non-empty line of out.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1]
}

// lockedBuffer is a bytes.Buffer the process writes while a test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
