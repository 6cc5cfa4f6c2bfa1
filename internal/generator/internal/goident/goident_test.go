package goident

import "testing"

func TestNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, exported, unexported string }{
		{"user_id", "UserID", "userID"},
		{"display-name", "DisplayName", "displayName"},
		{"maxResults", "MaxResults", "maxResults"},
		{"HTTPServer", "HTTPServer", "httpServer"},
		{"get-tiny-image", "GetTinyImage", "getTinyImage"},
		{"2fa", "X2fa", "v2fa"},
		{"url", "URL", "url"},
		{"$", "X", "v"},
		{"über_größe", "ÜberGröße", "überGröße"},
	} {
		if got := Exported(tc.in); got != tc.exported {
			t.Errorf("Exported(%q) = %q, want %q", tc.in, got, tc.exported)
		}
		if got := Unexported(tc.in); got != tc.unexported {
			t.Errorf("Unexported(%q) = %q, want %q", tc.in, got, tc.unexported)
		}
	}
	n := New("Client")
	for _, want := range []string{"Client2", "Client3"} {
		if got := n.Take("Client"); got != want {
			t.Errorf("Take(Client) = %q, want %q", got, want)
		}
	}
	if got := n.Take("type"); got != "type2" {
		t.Errorf("Take(type) = %q, want type2: a keyword is never a name", got)
	}
}
