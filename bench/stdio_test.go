package bench

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bench/servers"
)

// serveAB names other builds of bench/cmd/serve, made from older trees,
// so that a change of the built-in server is measured against what it
// replaces in the same run.
var serveAB = flag.String("serve.ab", "", "`builds` of bench/cmd/serve from other trees, as label=path[,label=path...] (or one path, labelled ab); the built-in server of each runs beside this tree's as mcpserver-label")

// pipelineWindow is how many calls the pipelined benchmark keeps in flight.
const pipelineWindow = 64

// TestMain removes the server binary that process benchmarks built.
func TestMain(m *testing.M) {
	code := m.Run()
	if serveBuild.dir != "" {
		os.RemoveAll(serveBuild.dir)
	}
	os.Exit(code)
}

// serveBuild is bench/cmd/serve, built once per run, on first use, so that
// tests and in-process benchmarks never wait for it.
var serveBuild struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// serveBinary returns the path of bench/cmd/serve built from this tree.
func serveBinary(b *testing.B) string {
	serveBuild.once.Do(func() {
		serveBuild.dir, serveBuild.err = os.MkdirTemp("", "mcpgen-bench-")
		if serveBuild.err != nil {
			return
		}
		serveBuild.path = filepath.Join(serveBuild.dir, "serve")
		out, err := exec.Command("go", "build", "-o", serveBuild.path, "github.com/mcpgen/mcpgen/bench/cmd/serve").CombinedOutput()
		if err != nil {
			serveBuild.err = fmt.Errorf("building bench/cmd/serve: %v\n%s", err, out)
		}
	})
	if serveBuild.err != nil {
		b.Fatal(serveBuild.err)
	}
	return serveBuild.path
}

// stdioTarget is a server process to benchmark: a binary and the server
// it runs.
type stdioTarget struct {
	name   string
	bin    string
	server string
}

// stdioTargets are the servers of the stdio comparison, the floor first.
func stdioTargets(b *testing.B) []stdioTarget {
	bin := serveBinary(b)
	var ts []stdioTarget
	for _, name := range servers.Names {
		ts = append(ts, stdioTarget{name: name, bin: bin, server: name})
		if name == servers.Builtin {
			ts = append(ts, abTargets(name)...)
		}
	}
	return ts
}

// abTargets are the builds -serve.ab names, running server.
func abTargets(server string) []stdioTarget {
	var ts []stdioTarget
	for entry := range strings.SplitSeq(*serveAB, ",") {
		if entry == "" {
			continue
		}
		label, path, ok := strings.Cut(entry, "=")
		if !ok {
			label, path = "ab", entry
		}
		ts = append(ts, stdioTarget{name: server + "-" + label, bin: path, server: server})
	}
	return ts
}

// BenchmarkStdio is the reference call over stdio to each server running
// as a process of its own, as a client sees it: lockstep (send a call,
// wait for its answer, send the next: what a model's client does) and
// pipelined (pipelineWindow calls in flight). The floor is a process that
// answers every line with a fixed response, no JSON read: what the pipes,
// the processes and this driver cost. One op is one call.
func BenchmarkStdio(b *testing.B) {
	targets := stdioTargets(b)
	for _, mode := range []struct {
		name string
		run  func(*testing.B, *stdioProc)
	}{{"lockstep", runLockstep}, {"pipelined", runPipelined}} {
		b.Run(mode.name, func(b *testing.B) {
			for _, t := range targets {
				b.Run(t.name, func(b *testing.B) { benchProcess(b, t, mode.run) })
			}
		})
	}
}

// benchProcess starts t, warms it up and times run.
func benchProcess(b *testing.B, t stdioTarget, run func(*testing.B, *stdioProc)) {
	p, err := startStdio(t)
	if err != nil {
		b.Fatal(err)
	}
	defer p.close(b)
	if t.server != servers.Floor {
		if err := p.handshake(); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 200 {
		if err := p.call(i); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	run(b, p)
	b.StopTimer()
}

// stdioProc is a server process and the pipes to it.
type stdioProc struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	req    callRequests
	buf    []byte
}

func startStdio(t stdioTarget) (*stdioProc, error) {
	p := &stdioProc{cmd: exec.Command(t.bin, "-server", t.server), req: newCallRequests()}
	p.cmd.Stderr = &p.stderr
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.out = bufio.NewReaderSize(out, 64<<10)
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %v", t.name, err)
	}
	return p, nil
}

// handshake initializes the session.
func (p *stdioProc) handshake() error {
	if _, err := io.WriteString(p.in, initializeRequest+"\n"); err != nil {
		return err
	}
	line, err := p.out.ReadSlice('\n')
	if err != nil || !bytes.Contains(line, []byte(`"protocolVersion"`)) {
		return fmt.Errorf("initialize answered %q (%v); stderr %s", line, err, p.stderr.Bytes())
	}
	_, err = io.WriteString(p.in, initializedNote+"\n")
	return err
}

// call sends the reference call with id and waits for its answer.
func (p *stdioProc) call(id int) error {
	p.buf = p.req.append(p.buf[:0], id)
	if _, err := p.in.Write(p.buf); err != nil {
		return err
	}
	return p.answer()
}

// answer reads one answer and checks that it is the reference call's.
func (p *stdioProc) answer() error {
	line, err := p.out.ReadSlice('\n')
	if err != nil {
		return fmt.Errorf("reading an answer: %v; stderr %s", err, p.stderr.Bytes())
	}
	if !bytes.Contains(line, []byte(wantCallText)) {
		return fmt.Errorf("answer %q, want the text %q", line, wantCallText)
	}
	return nil
}

// close ends the process: its input closes, and it must exit soon after.
func (p *stdioProc) close(b *testing.B) {
	p.in.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			b.Errorf("server exited: %v; stderr %s", err, p.stderr.Bytes())
		}
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-done
		b.Errorf("server did not exit when its input ended")
	}
}

// runLockstep sends b.N calls one after the other.
func runLockstep(b *testing.B, p *stdioProc) {
	for i := range b.N {
		if err := p.call(1000 + i); err != nil {
			b.Fatal(err)
		}
	}
}

// runPipelined sends b.N calls from one goroutine and reads their answers
// in another, with at most pipelineWindow of them in flight.
func runPipelined(b *testing.B, p *stdioProc) {
	window := make(chan struct{}, pipelineWindow)
	stop := make(chan struct{})
	sent := make(chan error, 1)
	go func() { sent <- p.send(b.N, window, stop) }()
	defer close(stop)
	for range b.N {
		if err := p.answer(); err != nil {
			b.Fatal(err)
		}
		<-window
	}
	if err := <-sent; err != nil {
		b.Fatal(err)
	}
}

// send writes n calls, each once window has room, until stop closes.
func (p *stdioProc) send(n int, window chan struct{}, stop <-chan struct{}) error {
	var buf []byte
	for i := range n {
		select {
		case window <- struct{}{}:
		case <-stop:
			return errors.New("stopped")
		}
		buf = p.req.append(buf[:0], 1000+i)
		if _, err := p.in.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// callRequests writes the reference call with any id, without encoding
// JSON: the request's bytes before and after its id.
type callRequests struct{ head, tail []byte }

func newCallRequests() callRequests {
	req := callRequest(1, 10)
	i := bytes.Index(req, []byte(`"id":1,`)) + len(`"id":`)
	return callRequests{head: req[:i], tail: req[i+1:]}
}

func (c callRequests) append(dst []byte, id int) []byte {
	dst = append(dst, c.head...)
	dst = strconv.AppendInt(dst, int64(id), 10)
	dst = append(dst, c.tail...)
	return append(dst, '\n')
}
