package mcpimpl

import "testing"

func TestValidFormat(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		format, s string
		want      bool
	}{
		{"date-time", "2024-05-01T10:00:00Z", true},
		{"date-time", "2024-05-01t10:00:00.25+02:00", true},
		{"date-time", "2024-05-01 10:00:00Z", false},
		{"date-time", "2024-05-01", false},
		{"date-time", "2024-05-01T1:00:00Z", false},
		{"date", "2024-02-29", true},
		{"date", "2023-02-29", false},
		{"date", "2024-5-1", false},
		{"time", "10:00:00Z", true},
		{"time", "23:59:59.5-07:00", true},
		{"time", "10:00:00", false},
		{"time", "25:00:00Z", false},
		{"time", "1:00:00Z", false},
		{"email", "a@b.example", true},
		{"email", "Ann <a@b.example>", false},
		{"email", "not mail", false},
		{"uri", "https://x.example/a?b=c", true},
		{"uri", "urn:isbn:0451450523", true},
		{"uri", "/relative/path", false},
		{"uri", "http://x.example/a b", false},
		{"uuid", "123e4567-e89b-12d3-a456-426614174000", true},
		{"uuid", "123e4567e89b12d3a456426614174000", false},
		{"uuid", "123e4567-e89b-12d3-a456-42661417400g", false},
		{"ipv4", "192.168.0.1", true},
		{"ipv4", "192.168.0", false},
		{"ipv4", "::1", false},
		{"ipv6", "::1", true},
		{"ipv6", "fe80::1%eth0", false},
		{"ipv6", "10.0.0.1", false},
		{"hostname", "anything at all", true}, // published only
	} {
		if got := ValidFormat(c.format, c.s); got != c.want {
			t.Errorf("ValidFormat(%q, %q) = %v, want %v", c.format, c.s, got, c.want)
		}
	}
}

func TestUnique(t *testing.T) {
	t.Parallel()
	if !Unique([]string{"a", "b"}) || Unique([]int{1, 2, 1}) || !Unique([]float64(nil)) {
		t.Error("Unique misjudges")
	}
}

func TestUnmarshalHelpers(t *testing.T) {
	t.Parallel()
	var d Decoder
	d.Reset([]byte(`{"a":"10.0.0.1","b":5}`))
	var s struct{ A textAddr }
	var n jsonNum
	if d.Object() {
		for d.NextField() {
			switch string(d.Key()) {
			case "a":
				x := d.String()
				d.UnmarshalText(&s.A, x)
			case "b":
				d.UnmarshalString(&n, "")
			}
		}
	}
	err := d.Finish()
	if s.A != "10.0.0.1" || err == nil || err.Error() != "invalid arguments:\nb: expected string, got 5" {
		t.Errorf("got %q, %v", s.A, err)
	}
}

type textAddr string

func (a *textAddr) UnmarshalText(b []byte) error { *a = textAddr(b); return nil }

type jsonNum int

func (n *jsonNum) UnmarshalJSON([]byte) error { *n = 1; return nil }
