// Package methods has a tool whose input uses types that decode
// themselves: with UnmarshalJSON, with UnmarshalText, and with MarshalJSON
// alone.
package methods

import (
	"context"
	"errors"
	"math/big"
	"net/netip"
	"strconv"
	"strings"
)

// Celsius is a temperature, written as a number or as a string like "21C".
type Celsius float64

// UnmarshalJSON accepts 21 and "21C".
func (c *Celsius) UnmarshalJSON(b []byte) error {
	s := strings.TrimSuffix(strings.Trim(string(b), `"`), "C")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return errors.New("not a temperature")
	}
	*c = Celsius(f)
	return nil
}

// Day is a calendar date, "2024-05-01".
type Day struct{ Y, M, D int }

// UnmarshalJSON reads a quoted date.
func (d *Day) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil {
		return err
	}
	parts := strings.Split(s, "-")
	if len(parts) != 3 {
		return errors.New("not a date")
	}
	d.Y, _ = strconv.Atoi(parts[0])
	d.M, _ = strconv.Atoi(parts[1])
	d.D, _ = strconv.Atoi(parts[2])
	return nil
}

// Level is written as its name and read back from it.
type Level int

// UnmarshalText accepts low and high.
func (l *Level) UnmarshalText(b []byte) error {
	switch string(b) {
	case "low":
		*l = 1
	case "high":
		*l = 2
	default:
		return errors.New("unknown level")
	}
	return nil
}

// Stamp only knows how to write itself.
type Stamp struct {
	N int `json:"n"`
}

// MarshalJSON writes the number alone.
func (s Stamp) MarshalJSON() ([]byte, error) { return []byte(strconv.Itoa(s.N)), nil }

// Input mixes types with methods of their own.
type Input struct {
	Temp  Celsius      `json:"temp"`                                // Temperature as a number or "21C"
	On    Day          `json:"on" mcp:"format=date"`                // Day of the reading
	Days  []Day        `json:"days,omitempty" mcp:"format=date"`    // More days
	Level Level        `json:"level" mcp:"maxLength=4"`             // Alert level, low or high
	Alarm *Level       `json:"alarm,omitempty" mcp:"enum=low|high"` // Level that sounds the alarm
	Addr  netip.Addr   `json:"addr"`                                // Address of the sensor
	Peers []netip.Addr `json:"peers,omitempty" mcp:"maxItems=2"`    // Other sensors
	Big   *big.Int     `json:"big,omitempty"`                       // An integer of any size
	Stamp Stamp        `json:"stamp,omitempty"`                     // Written by MarshalJSON alone
}

// Read reads a sensor.
//
//mcp:tool
func Read(ctx context.Context, in Input) (string, error) {
	return strconv.FormatFloat(float64(in.Temp), 'g', -1, 64), nil
}
