// Package tags has tools that use every key of the mcp struct tag, and a
// tool whose input schema is given by a file.
package tags

import "context"

// Input uses every tag key.
type Input struct {
	Name     string            `json:"name" mcp:"title=Name,desc=Who to greet,minLength=2,maxLength=5,pattern=^[a-z]+$"`
	Greeting string            `json:"greeting" mcp:"enum=hello|hi,default=hi"`
	Times    *int              `json:"times" mcp:"default=2,min=1,max=9"`
	Small    uint8             `json:"small,omitempty" mcp:"min=-5,max=1000"`
	Tiny     int8              `json:"tiny,omitempty" mcp:"exclusiveMin=-10,exclusiveMax=200"`
	Step     float64           `json:"step,omitempty" mcp:"multipleOf=0.25"`
	Mail     string            `json:"mail,omitempty" mcp:"format=email"`
	Site     string            `json:"site,omitempty" mcp:"format=uri"`
	ID       string            `json:"id,omitempty" mcp:"format=uuid"`
	Day      string            `json:"day,omitempty" mcp:"format=date"`
	At       string            `json:"at,omitempty" mcp:"format=time"`
	When     string            `json:"when,omitempty" mcp:"format=date-time"`
	V4       string            `json:"v4,omitempty" mcp:"format=ipv4"`
	V6       string            `json:"v6,omitempty" mcp:"format=ipv6"`
	Host     string            `json:"host,omitempty" mcp:"format=hostname"`
	Codes    []int             `json:"codes,omitempty" mcp:"uniqueItems,minItems=1,maxItems=3,min=0"`
	Pair     [2]string         `json:"pair,omitempty" mcp:"uniqueItems"`
	Spots    []Spot            `json:"spots,omitempty" mcp:"uniqueItems"` // Spots, each once
	Grid     [][]int           `json:"grid,omitempty" mcp:"uniqueItems"`  // Rows, each once
	Sets     []map[string]bool `json:"sets,omitempty" mcp:"uniqueItems"`  // Sets, each once
	Refs     [2]*int           `json:"refs,omitempty" mcp:"uniqueItems"`  // Two different numbers
	Flag     bool              `json:"flag" mcp:"optional"`
	Must     *string           `json:"must" mcp:"required"`
	Region   *string           `json:"region,omitempty" mcp:"header=Region"` // Mirrored in a header, so never null
}

// Spot is a point; items of a list that must differ.
type Spot struct {
	X int `json:"x"`           // Horizontal
	Y int `json:"y,omitempty"` // Vertical
}

// Greet greets someone.
//
//mcp:tool task=required
//mcp:icon src=https://example.com/g.svg mime=image/svg+xml sizes=any theme=dark
func Greet(ctx context.Context, in Input) (string, error) { return in.Greeting + " " + in.Name, nil }

// FixedInput has its schema written by hand.
type FixedInput struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty" mcp:"max=50"`
}

// Search searches with a schema file.
//
//mcp:tool input=search.json
func Search(ctx context.Context, in FixedInput) (string, error) { return in.Query, nil }

// Lookup finds a book. Its directives quote values as tags do, in single
// or double quotes, with the same values.
//
//mcp:tool readonly
//mcp:param isbn description='The ISBN, 13 digits' pattern='^97[89][0-9]{10}$'
//mcp:param shelf description="Shelf code" pattern="^[A-Z]{1,2}$"
func Lookup(ctx context.Context, isbn string, shelf string) (string, error) { return isbn, nil }
