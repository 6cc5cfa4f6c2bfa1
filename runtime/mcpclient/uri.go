package mcpclient

// Segment is s as an RFC 6570 simple expansion ({var}) writes it: every
// byte but the unreserved characters percent-encoded, so the value stays
// one path segment.
func Segment(s string) string { return escape(s, false) }

// Reserved is s as an RFC 6570 reserved expansion ({+var}) writes it:
// reserved characters, slashes among them, and percent-encoded triplets
// kept as they are.
func Reserved(s string) string { return escape(s, true) }

func escape(s string, reserved bool) string {
	keep := func(i int) bool {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			return true
		case c == '-' || c == '.' || c == '_' || c == '~':
			return true
		case !reserved:
			return false
		case c == '%':
			return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
		}
		switch c {
		case ':', '/', '?', '#', '[', ']', '@', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=':
			return true
		}
		return false
	}
	const hex = "0123456789ABCDEF"
	var out []byte
	for i := 0; i < len(s); i++ {
		if keep(i) {
			if out != nil {
				out = append(out, s[i])
			}
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(s)+8), s[:i]...)
		}
		out = append(out, '%', hex[s[i]>>4], hex[s[i]&15])
	}
	if out == nil {
		return s
	}
	return string(out)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
