package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// buildServe builds bench/cmd/serve into a temporary directory and
// returns its path and what removes it.
func buildServe() (string, func(), error) {
	dir, err := os.MkdirTemp("", "mcpgen-load-")
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, "serve")
	out, err := exec.Command("go", "build", "-o", path, "github.com/mcpgen/mcpgen/bench/cmd/serve").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("building bench/cmd/serve (run from the module): %v\n%s", err, out)
	}
	return path, func() { os.RemoveAll(dir) }, nil
}

// proc is a server process serving HTTP on loopback.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr bytes.Buffer
	url    string
}

// start runs t over HTTP on a free loopback port, with more flags of
// bench/cmd/serve, and waits for its URL.
func start(t target, more ...string) (*proc, error) {
	args := append([]string{"-server", t.server, "-http", "127.0.0.1:0"}, t.args...)
	p := &proc{cmd: exec.Command(t.bin, append(args, more...)...)}
	p.cmd.Stderr = &p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %v", t.name, err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		p.stop()
		return nil, fmt.Errorf("%s did not say where it serves: %v; stderr %s", t.name, err, p.stderr.Bytes())
	}
	p.url = strings.TrimSpace(line)
	return p, nil
}

// stop ends the process: its input closes, then, if need be, it is killed.
func (p *proc) stop() {
	p.stdin.Close()
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
}

// rss is the resident memory of the process, from /proc (0 where there is
// none).
func (p *proc) rss() int64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

// cpu is the processor time the process has used so far.
func (p *proc) cpu() time.Duration { return processCPU(p.cmd.Process.Pid) }

// processCPU is the processor time the process pid has used so far, from
// /proc (0 where there is none).
func processCPU(pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, which ends with the last ')':
	// utime and stime are the 12th and 13th, in clock ticks.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	var ticks, t int64
	for _, s := range f[11:13] {
		fmt.Sscanf(s, "%d", &t)
		ticks += t
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

// clockTicks is the unit of the times in /proc/PID/stat, USER_HZ, which is
// 100 on Linux.
const clockTicks = 100

// selfCPU is the processor time this process has used so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
