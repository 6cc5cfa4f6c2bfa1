package authgate

import (
	"strings"
	"testing"
)

// parseChallenge reads a Bearer challenge back into its parameters, as a
// client would (RFC 9110 §11: auth-param = token "=" quoted-string).
func parseChallenge(t *testing.T, h string) map[string]string {
	t.Helper()
	rest, ok := strings.CutPrefix(h, "Bearer ")
	if !ok {
		t.Fatalf("challenge %q does not start with Bearer", h)
	}
	params := map[string]string{}
	for rest != "" {
		name, after, ok := strings.Cut(rest, `="`)
		if !ok {
			t.Fatalf("challenge %q: no quoted value after %q", h, rest)
		}
		var v strings.Builder
		i := 0
		for ; i < len(after) && after[i] != '"'; i++ {
			if after[i] == '\\' {
				i++
				if i == len(after) {
					t.Fatalf("challenge %q ends in an escape", h)
				}
			}
			if c := after[i]; c < 0x20 || c >= 0x7f {
				t.Fatalf("challenge %q carries byte %#x", h, c)
			}
			v.WriteByte(after[i])
		}
		if i == len(after) {
			t.Fatalf("challenge %q: unterminated value", h)
		}
		params[name] = v.String()
		rest = after[i+1:]
		if rest != "" {
			if rest, ok = strings.CutPrefix(rest, ", "); !ok {
				t.Fatalf("challenge %q: no separator before %q", h, rest)
			}
		}
	}
	return params
}

func FuzzChallenge(f *testing.F) {
	f.Add("insufficient_scope", "kb:read kb:write", "https://h/.well-known/oauth-protected-resource/mcp")
	f.Add("", `a"b c\d`, "https://h/\"x\\y")
	f.Add("invalid_token", "", "https://h/\r\nSet-Cookie: x")
	f.Fuzz(func(t *testing.T, code, scopes, url string) {
		var list []string
		for s := range strings.FieldsSeq(scopes) {
			if s != OfflineAccess && CheckScope(s) == nil {
				list = append(list, s)
			}
		}
		if code != "" && CheckScope(code) != nil {
			code = "invalid_token"
		}
		h := Challenge(code, list, url)
		p := parseChallenge(t, h)
		if p["error"] != code || p["scope"] != strings.Join(list, " ") {
			t.Errorf("challenge %q read back as %q", h, p)
		}
		if !strings.ContainsAny(url, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f") && isASCII(url) && p["resource_metadata"] != url {
			t.Errorf("challenge %q: resource_metadata read back as %q, want %q", h, p["resource_metadata"], url)
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func FuzzParseBearer(f *testing.F) {
	for _, s := range []string{"Bearer abc", "bearer a.b.c==", "Bearer", "Basic x", "Bearer a b", "BEARER  x  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		tok, sent, ok := ParseBearer(v)
		if !sent {
			t.Fatal("a header value read as not sent")
		}
		if !ok {
			if tok != "" {
				t.Fatalf("refused %q yet returned token %q", v, tok)
			}
			return
		}
		if !b64token(tok) || !strings.Contains(v, tok) {
			t.Fatalf("ParseBearer(%q) = %q, not a b64token of it", v, tok)
		}
		// What is accepted reads the same after a round trip through the
		// canonical form.
		if again, _, ok := ParseBearer("Bearer " + tok); !ok || again != tok {
			t.Fatalf("token %q of %q does not read back", tok, v)
		}
	})
}
