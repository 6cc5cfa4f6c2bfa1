package mcpimpl

import "time"

// This file holds fast paths for the commonest numbers and date-times of
// tool arguments. Each handles only inputs whose result it can compute
// exactly and leaves every other to the general parser (strconv,
// time.Time.UnmarshalText), which gives the same value more slowly: in
// the reference arguments of the benchmarks the general parsers took
// about a fifth of the decoder's time. TestFastPathsAgree and the
// differential fuzz targets hold them to the general parsers.

// pow10 holds the powers of ten a float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exactFloat converts the JSON number literal lit when it has no exponent
// and at most 15 digits: its digits then form an integer that float64
// holds exactly, and one division by an exact power of ten is correctly
// rounded, as strconv.ParseFloat's result is. ok is false for any other
// literal.
func exactFloat(lit []byte) (f float64, ok bool) {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	var mant uint64
	n := 0     // digits
	frac := -1 // digits after the point, once the point is seen
	for _, c := range lit {
		switch {
		case '0' <= c && c <= '9':
			if n++; n > 15 {
				return 0, false
			}
			mant = mant*10 + uint64(c-'0')
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0:
			frac = 0
		default: // an exponent
			return 0, false
		}
	}
	f = float64(mant)
	if frac > 0 {
		f /= pow10[frac]
	}
	if neg {
		f = -f
	}
	return f, true
}

// utcTime parses the commonest date-time of all, in UTC with whole
// seconds: "2026-07-01T00:00:00Z" (t and z may be lower case, as RFC 3339
// allows). ok is false for anything else, which the general parser then
// reads: fractions, offsets, and every malformed or out-of-range text.
func utcTime(b []byte) (time.Time, bool) {
	if len(b) != 20 || b[4] != '-' || b[7] != '-' || b[10]|0x20 != 't' ||
		b[13] != ':' || b[16] != ':' || b[19]|0x20 != 'z' {
		return time.Time{}, false
	}
	year, ok1 := digits(b[0:4])
	month, ok2 := digits(b[5:7])
	day, ok3 := digits(b[8:10])
	hour, ok4 := digits(b[11:13])
	minute, ok5 := digits(b[14:16])
	sec, ok6 := digits(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) ||
		month < 1 || month > 12 || day < 1 || day > daysIn(month, year) ||
		hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC), true
}

// digits returns the value of the decimal digits b.
func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn returns the number of days of a month of the Gregorian calendar.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
