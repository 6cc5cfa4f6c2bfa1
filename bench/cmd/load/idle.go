package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/bench/servers"
)

// memory is what n idle sessions of one server hold.
type memory struct {
	name      string
	n         int
	heap, rss int64 // growth, in bytes, over the n sessions
	err       error
}

// idleAll measures idle sessions on every target that keeps sessions.
func idleAll(cfg config) ([]memory, error) {
	var mem []memory
	var errs []error
	for _, t := range cfg.targets {
		if t.server == servers.Floor {
			continue
		}
		m := idleSessions(t, cfg.idle, cfg.clients)
		if m.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", t.name, m.err))
		}
		mem = append(mem, m)
	}
	return mem, errors.Join(errs...)
}

// idleSessions starts t, opens n sessions from the given number of
// clients, and measures what the process grew by.
func idleSessions(t target, n, clients int) memory {
	m := memory{name: t.name, n: n}
	p, err := start(t)
	if err != nil {
		m.err = err
		return m
	}
	defer p.stop()
	hc := newHTTPClient(clients)
	defer hc.CloseIdleConnections()
	heap0, err := heapInUse(hc, p.url)
	if err != nil {
		m.err = err
		return m
	}
	rss0 := p.rss()
	if m.err = openSessions(hc, p.url, t.server, n, clients); m.err != nil {
		return m
	}
	heap1, err := heapInUse(hc, p.url)
	m.err = err
	m.heap, m.rss = heap1-heap0, p.rss()-rss0
	return m
}

// openSessions opens n sessions from clients goroutines.
func openSessions(hc *http.Client, url, server string, n, clients int) error {
	errs := make([]error, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			for j := i; j < n && errs[i] == nil; j += clients {
				errs[i] = newClient(hc, url, modeSessions).initialize(server)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// heapInUse asks the server process for its heap and stacks in use after
// a collection.
func heapInUse(hc *http.Client, mcpURL string) (int64, error) {
	resp, err := hc.Get(strings.TrimSuffix(mcpURL, "/mcp") + "/debug/heap")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// reportMemory prints the memory per idle session beside go-sdk's.
func reportMemory(w io.Writer, mem []memory) {
	var ref *memory
	for i := range mem {
		if mem[i].name == servers.GoSDK && mem[i].err == nil {
			ref = &mem[i]
		}
	}
	fmt.Fprintf(w, "| server | heap+stacks per session | vs go-sdk | RSS per session |\n|---|---|---|---|\n")
	for _, m := range mem {
		if m.err != nil {
			fmt.Fprintf(w, "| %s | failed: %v | | |\n", m.name, m.err)
			continue
		}
		vs := ""
		if ref != nil {
			vs = fmt.Sprintf("%.2fx", float64(m.heap)/float64(ref.heap))
		}
		fmt.Fprintf(w, "| %s | %d B | %s | %d B |\n", m.name, m.heap/int64(m.n), vs, m.rss/int64(m.n))
	}
}
