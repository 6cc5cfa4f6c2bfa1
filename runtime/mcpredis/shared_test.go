package mcpredis

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/mcpgen/mcpgen/runtime/mcpstore"
)

// TestBusCatchesUp: events published while a replica could not read the
// bus reach it when it reads again.
func TestBusCatchesUp(t *testing.T) {
	t.Parallel()
	b1, mr := backend(t)
	b2 := open(t, mr)
	seen := make(chan string, 10)
	if _, err := b2.Bus.Subscribe(func(e mcpstore.BusEvent) { seen <- e.ID }); err != nil {
		t.Fatal(err)
	}
	mr.SetError("LOADING") // every command fails until cleared
	time.Sleep(50 * time.Millisecond)
	mr.SetError("")
	for _, id := range []string{"x", "y"} {
		if err := b1.Bus.Publish(context.Background(), mcpstore.BusEvent{Kind: mcpstore.BusTaskChanged, ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"x", "y"} {
		select {
		case id := <-seen:
			if id != want {
				t.Errorf("got %s, want %s", id, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("event %s never arrived", want)
		}
	}
}

// TestBusSubscribeDuringOutage: a subscriber that joined while Redis
// failed hears what other replicas publish once it answers again.
func TestBusSubscribeDuringOutage(t *testing.T) {
	t.Parallel()
	b1, mr := backend(t)
	b2 := openBudget(t, mr, 200*time.Millisecond)
	mr.SetError("LOADING")
	seen := make(chan string, 10)
	if _, err := b2.Bus.Subscribe(func(e mcpstore.BusEvent) { seen <- e.ID }); err != nil {
		t.Fatalf("subscribing during an outage: %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	mr.SetError("")
	deadline := time.Now().Add(5 * time.Second)
	for {
		if err := b1.Bus.Publish(context.Background(), mcpstore.BusEvent{Kind: mcpstore.BusTaskChanged, ID: "x"}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-seen:
			return
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the event never arrived")
		}
	}
}

// TestServerLinksNoRedis: the built-in server does not link a Redis
// client; only this package and its users do.
func TestServerLinksNoRedis(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/mcpgen/mcpgen/runtime/mcpserver").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "rueidis") || strings.Contains(p, "miniredis") {
			t.Errorf("runtime/mcpserver depends on %s", p)
		}
	}
}

// TestImportsNoServer: the backend implements the stores' contracts
// without importing the built-in server, so that it builds beside any
// server that takes them.
func TestImportsNoServer(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/mcpgen/mcpgen/runtime/mcpredis").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/mcpgen/mcpgen/runtime/mcpstore") {
		t.Fatalf("go list -deps listed %d packages, none of them runtime/mcpstore", len(deps))
	}
	for _, p := range deps {
		if p == "github.com/mcpgen/mcpgen/runtime/mcpserver" {
			t.Error("runtime/mcpredis depends on runtime/mcpserver")
		}
	}
}

// TestPing: Ping answers nil while Redis answers, an error when it does
// not.
func TestPing(t *testing.T) {
	t.Parallel()
	mr := miniredis.RunT(t)
	b := openBudget(t, mr, 200*time.Millisecond)
	if err := b.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	mr.SetError("LOADING")
	if err := b.Ping(context.Background()); err == nil {
		t.Error("Ping succeeded while Redis fails")
	}
}
