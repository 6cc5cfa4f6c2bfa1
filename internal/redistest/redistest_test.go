package redistest

import "testing"

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
