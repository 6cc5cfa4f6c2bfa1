package mcpserver

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// allowedHostOrigin guards against DNS rebinding: the Host and, when
// present, the Origin must name an allowed host.
func (s *Server) allowedHostOrigin(r *http.Request, corsOrigin bool) bool {
	if len(s.AllowedHosts) == 1 && s.AllowedHosts[0] == "*" {
		return true
	}
	if !s.allowedHost(hostname(r.Host)) {
		return false
	}
	o := headerValue(r.Header, "Origin")
	if o == "" || corsOrigin || slices.Contains(s.AllowedOrigins, o) {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host != "" && s.allowedHost(u.Hostname())
}

func (s *Server) allowedHost(h string) bool {
	if len(s.AllowedHosts) == 0 {
		return h == "localhost" || h == "127.0.0.1" || h == "::1"
	}
	return slices.ContainsFunc(s.AllowedHosts, func(a string) bool { return strings.EqualFold(a, h) })
}

// hostname strips the port and the brackets of an IPv6 address from a
// Host header.
func hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}
