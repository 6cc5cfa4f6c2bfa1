package mcpimpl

import (
	"net/mail"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonx"
)

// formats are the values of the format keyword that generated decoders
// enforce; other formats are published in the schema only.
var formats = map[string]func(string) bool{
	"date-time": isDateTime,
	"date":      isDate,
	"time":      isTime,
	"email":     isEmail,
	"uri":       isURI,
	"uuid":      isUUID,
	"ipv4":      func(s string) bool { return isIP(s, true) },
	"ipv6":      func(s string) bool { return isIP(s, false) },
}

// ValidFormat reports whether s is in the named format. A format the
// runtime does not know accepts every string.
func ValidFormat(format, s string) bool {
	check, ok := formats[format]
	return !ok || check(s)
}

// EnforcesFormat reports whether ValidFormat checks the named format.
func EnforcesFormat(format string) bool {
	_, ok := formats[format]
	return ok
}

// CheckFormat records a problem at the current path when s is not in the
// named format.
func (d *Decoder) CheckFormat(format, s string) {
	if !ValidFormat(format, s) {
		d.report("", jsonx.Quote(s)+" is not a valid "+format)
	}
}

// isDateTime accepts RFC 3339 date-times: "2024-05-01T10:00:00Z", with an
// optional fraction and a numeric offset; the letters T and Z in either case.
func isDateTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
	return err == nil && hourAt(s, 11)
}

// isDate accepts RFC 3339 full-date: "2024-05-01".
func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && len(s) == len(time.DateOnly)
}

// isTime accepts RFC 3339 full-time: "10:00:00Z", "10:00:00.5+02:00".
func isTime(s string) bool {
	_, err := time.Parse("2006-01-02T"+time.RFC3339Nano[len("2006-01-02T"):], "2000-01-01T"+strings.ToUpper(s))
	return err == nil && hourAt(s, 0)
}

// isEmail accepts a bare address, "name@example.com", without a display
// name or angle brackets.
func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Name == "" && a.Address == s
}

// isURI accepts an absolute URI: one with a scheme.
func isURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && !strings.ContainsAny(s, " \t\n\\")
}

// isUUID accepts the 8-4-4-4-12 hexadecimal form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		default:
			return false
		}
	}
	return true
}

// isIP accepts a dotted-quad IPv4 address (v4) or an IPv6 address without
// a zone.
func isIP(s string, v4 bool) bool {
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return false
	}
	if v4 {
		return a.Is4()
	}
	return a.Is6()
}
