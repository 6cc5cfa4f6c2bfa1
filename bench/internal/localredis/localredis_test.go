package localredis

import "testing"

// TestStartStop checks that a started server answers commands and that
// Stop ends it.
func TestStartStop(t *testing.T) {
	s := ForTest(t)
	if !s.Answers() {
		t.Fatal("the server does not answer PING")
	}
	if got, err := s.Do("SET k v"); err != nil || got != "+OK" {
		t.Fatalf("SET answered %q, %v", got, err)
	}
	if got, err := s.Do("DBSIZE"); err != nil || got != ":1" {
		t.Fatalf("DBSIZE answered %q, %v; want :1", got, err)
	}
	s.Stop()
	if s.Answers() {
		t.Fatal("the server still answers after Stop")
	}
}
