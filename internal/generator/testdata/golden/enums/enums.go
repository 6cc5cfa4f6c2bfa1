// Package enums has the named types whose constants are an enum and those
// whose constants are not: only types of the module, every constant of a
// string type, and integer constants of one block with consecutive values,
// written with iota or by hand.
package enums

import (
	"context"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/internal/generator/testdata/golden/enums/paint"
)

// Bytes is a size; its constants are units, not the only sizes.
type Bytes int64

// The units.
const (
	KB Bytes = 1 << 10
	MB Bytes = 1 << 20
)

// Perm is a set of bit flags.
type Perm uint8

// The permissions.
const (
	Read Perm = 1 << iota
	Write
	Exec
)

// Priority is enumerated by constants of consecutive values written by
// hand, without iota.
type Priority int

// The usual priorities.
const (
	Low    Priority = 1
	Normal Priority = 2
	High   Priority = 3
)

// Level has constants written by hand that skip a value.
type Level int

// The levels.
const (
	Minor Level = 1
	Major Level = 3
)

// Limit has a single constant written by hand: a loose constant.
type Limit int

// MaxLimit is the largest limit.
const MaxLimit Limit = 100

// Stage is enumerated with iota, skipping its zero value.
type Stage int

// The stages.
const (
	_ Stage = iota
	Draft
	Review
	Done
)

// Split has iota constants in two blocks.
type Split int

const (
	First Split = iota
	Second
)

const (
	Third Split = iota + 2
)

// Shade is a named string type of the package.
type Shade string

// The shades.
const (
	Light Shade = "light"
	Dark  Shade = "dark"
)

// PaintInput has fields of every kind of named type with constants.
type PaintInput struct {
	Mode     os.FileMode `json:"mode"`                   // Permission bits of the file
	Month    time.Month  `json:"month"`                  // Month of the job
	Size     Bytes       `json:"size"`                   // Size of the can
	Perm     Perm        `json:"perm"`                   // Who may use the can
	Priority Priority    `json:"priority"`               // How urgent the job is
	Level    Level       `json:"level"`                  // How much the job matters
	Limit    Limit       `json:"limit"`                  // How many cans at most
	Stage    Stage       `json:"stage"`                  // Where the job is
	Split    Split       `json:"split"`                  // Constants in two blocks
	Shade    Shade       `json:"shade"`                  // Shade of the room
	AnyShade Shade       `json:"any_shade" mcp:"noenum"` // Any shade, named or not
	Stages   []Stage     `json:"stages" mcp:"noenum"`    // Stages, of any value
	Coat     paint.Coat  `json:"coat"`                   // The coat, of types of another package
}

// Paint plans a paint job.
//
//mcp:tool
func Paint(ctx context.Context, in PaintInput) (string, error) { return "planned", nil }

// Brief asks for the brief of a paint job. Its arguments say their values
// in their descriptions: prompt arguments have no schema.
//
//mcp:prompt
//mcp:param shade description="Shade of the room"
//mcp:param stage description="Where the job is"
//mcp:param size description="Size of the can"
//mcp:param other description="Any shade" noenum
func Brief(shade Shade, stage Stage, size Bytes, other *Shade) (string, error) {
	return "paint the room " + string(shade), nil
}

// Swatch is a sample of a shade, for a file mode.
//
//mcp:resource uri=paint://swatch/{shade}/{mode}
func Swatch(shade Shade, mode os.FileMode) (string, error) {
	return string(shade) + " " + mode.String(), nil
}
