package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync"
)

// ServeStdio serves one client over the process's standard input and
// output, as [Server.ServeStream] does.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.ServeStream(ctx, os.Stdin, os.Stdout)
}

// ServeStream serves one client over a stream of newline-delimited
// JSON-RPC messages: it reads r and writes only JSON-RPC messages to w,
// one per line. Each request runs in its own goroutine; messages to w are
// written whole, one at a time.
//
// It returns nil when r ends or ctx is cancelled, after the running
// handlers have finished (on cancellation their contexts are cancelled
// too) and the open subscriptions/listen requests have been answered, or
// the error of reading r or writing w. A read blocked in r is
// left behind when ctx is cancelled; the goroutine doing it ends with the
// next line or the end of r.
func (s *Server) ServeStream(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &lineWriter{w: w}
	sess := newSession(ctx, s, "", out)
	s.track(sess)
	defer s.untrack(sess)

	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go readLines(ctx, r, lines, readErr)

	var wg sync.WaitGroup
	var err error
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case line, ok := <-lines:
			if !ok {
				if e := <-readErr; !errors.Is(e, io.EOF) {
					err = e
				}
				break loop
			}
			s.handleLine(ctx, sess, line, out, &wg)
		}
	}
	sess.close()
	wg.Wait()
	if err == nil {
		err = out.failed()
	}
	return err
}

// readLines sends each line of r on lines until r ends or ctx is done,
// then reports why and closes lines.
func readLines(ctx context.Context, r io.Reader, lines chan<- []byte, readErr chan<- error) {
	defer close(lines)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			select {
			case lines <- line:
			case <-ctx.Done():
				readErr <- ctx.Err()
				return
			}
		}
		if err != nil {
			readErr <- err
			return
		}
	}
}

// handleLine handles one line: a message or a batch. Requests run in their
// own goroutine, except initialize, which is answered before the next line
// is read so that the requests following it see the session initialized.
func (s *Server) handleLine(ctx context.Context, sess *session, line []byte, out *lineWriter, wg *sync.WaitGroup) {
	items, isBatch, perr := splitBatch(line)
	if perr != nil {
		out.send(appendError(nil, nil, perr))
		return
	}
	if isBatch {
		wg.Go(func() { s.reply(out, s.handleBatch(ctx, sess, items, out)) })
		return
	}
	m, id, rerr := parseMessage(line)
	switch {
	case rerr != nil:
		out.send(appendError(nil, id, rerr))
	case m.isRequest() && m.method == "initialize":
		s.reply(out, s.handle(ctx, sess, m, out))
	case m.isRequest():
		wg.Go(func() { s.reply(out, s.handle(ctx, sess, m, out)) })
	default:
		s.handle(ctx, sess, m, out)
	}
}

// reply writes a response, if there is one.
func (s *Server) reply(out sender, resp []byte) {
	if resp == nil {
		return
	}
	if err := out.send(resp); err != nil {
		s.logger().Error("mcp: writing a response failed", "err", err)
	}
}
