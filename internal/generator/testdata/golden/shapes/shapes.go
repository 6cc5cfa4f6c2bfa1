// Package shapes has one tool of each handler shape.
package shapes

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Point is a place on a plane.
type Point struct {
	X float64 `json:"x"` // Horizontal coordinate
	Y float64 `json:"y"` // Vertical coordinate
}

// Distance is a structured result.
type Distance struct {
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// Measure measures the distance of a point from the origin.
//
//mcp:tool readonly idempotent openworld=false
func Measure(ctx context.Context, p *Point) (*Distance, error) {
	return &Distance{Value: p.X*p.X + p.Y*p.Y, Unit: "square units"}, nil
}

// Nearby lists the first n points of the grid, nearest first.
//
//mcp:tool readonly
//mcp:param n description="How many points" min=0 max=10
func Nearby(ctx context.Context, n int) ([]Point, error) {
	points := make([]Point, n)
	for i := range points {
		points[i] = Point{X: float64(i), Y: float64(i)}
	}
	return points, nil
}

// Region is an area of the plane, with the regions inside it.
type Region struct {
	Name  string   `json:"name"`            // The region's name
	Inner []Region `json:"inner,omitempty"` // Regions inside it
}

// Regions lists the regions of the plane, each with those inside it: a
// list of a recursive struct, whose schema refers to its $defs.
//
//mcp:tool readonly
func Regions(ctx context.Context) ([]Region, error) {
	return []Region{{Name: "north", Inner: []Region{{Name: "north-east"}}}, {Name: "south"}}, nil
}

// Repeat repeats a word.
//
//mcp:tool name=repeat.word
//mcp:param word description="The word to repeat" minLength=1
//mcp:param times description="How often" min=1 max=10
func Repeat(word string, times int) string {
	out := ""
	for range times {
		out += word
	}
	return out
}

// Fail always fails.
//
//mcp:tool description="Always fails, to show errors" destructive=false
func Fail(ctx context.Context) error { return errors.New("it failed") }

// Panic always panics.
//
//mcp:tool
func Panic(ctx context.Context) (int, error) { panic("boom") }

// Picture returns full control over the result.
//
//mcp:tool title="A picture"
//mcp:icon src=https://example.com/p.png mime=image/png sizes=48x48
func Picture() mcprt.Result {
	return mcprt.Result{Content: []mcprt.Content{
		mcprt.Text("a dot"),
		mcprt.Audio([]byte{4, 5}, "audio/wav"),
		mcprt.ResourceLink("https://example.com/p.png", "p.png"),
		mcprt.Image([]byte{1, 2, 3}, "image/png"),
	}}
}

// Work reports progress and logs at each step, then says how many it did.
//
//mcp:tool readonly
//mcp:param steps description="Number of steps" min=1 max=5
func Work(ctx context.Context, steps int) (string, error) {
	for i := 1; i <= steps; i++ {
		if err := mcprt.Progress(ctx, float64(i), float64(steps), fmt.Sprintf("step %d", i)); err != nil {
			return "", err
		}
		if err := mcprt.Log(ctx, mcprt.LevelDebug, "work", "too detailed"); err != nil {
			return "", err
		}
		if err := mcprt.Log(ctx, mcprt.LevelInfo, "work", map[string]int{"step": i}); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("did %d steps", steps), nil
}

// Answer is the form Ask has the user fill in.
//
//mcp:form
type Answer struct {
	Answer string `json:"answer" mcp:"minLength=1"` // The answer
	Sure   bool   `json:"sure,omitempty"`           // Whether the user is sure
}

// Ask asks the user a question, then has the client's model comment on
// the answer.
//
//mcp:tool
//mcp:param question description="What to ask the user"
func Ask(ctx context.Context, question string) (string, error) {
	ans, action, err := mcprt.ElicitForm[Answer](ctx, question)
	if err != nil {
		return "", err
	}
	if action != mcprt.ActionAccept {
		return "the user chose " + action, nil
	}
	res, err := mcprt.Sample(ctx, mcprt.SampleRequest{
		Messages:     []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("Comment on " + ans.Answer)}},
		MaxTokens:    50,
		SystemPrompt: "Be brief.",
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("answer %q (sure: %v); %s says %q (%s)", ans.Answer, ans.Sure, res.Model, res.Content.Text, res.Role), nil
}

// File is a file's name and contents.
type File struct {
	Name  string `json:"name"`  // The file's name
	Text  string `json:"text"`  // The file's contents
	Lines int    `json:"lines"` // How many lines it has
	// Tags label the file; none are set, so the result holds [], as
	// encoding/json/v2 writes a nil slice.
	Tags []string `json:"tags"`
}

// ReadFile reads a file: its contents are the text block the model reads,
// and the structured content has its name and length too.
//
//mcp:tool readonly
//mcp:param name description="The file to read" minLength=1
func ReadFile(name string) (mcprt.Structured[File], error) {
	if name == "empty" {
		return mcprt.Structured[File]{Value: File{Name: name}}, nil // no Text: the JSON is the text block
	}
	f := File{Name: name, Text: "line 1\n\"line\" 2\n", Lines: 2}
	return mcprt.Structured[File]{Value: f, Text: f.Text}, nil
}

// Counter counts.
type Counter struct{ n int }

// Add adds to the counter and returns the new count.
//
//mcp:tool task=optional
//mcp:param by description="Amount to add"
func (c *Counter) Add(by int) int {
	c.n += by
	return c.n
}
