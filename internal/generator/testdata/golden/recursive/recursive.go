// Package recursive has tools whose inputs and results are recursive
// structs in lists, maps and pointers, whose schemas go to $defs.
package recursive

import (
	"context"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// Node is a node of a tree.
type Node struct {
	Name     string `json:"name"`               // The name of the node
	Children []Node `json:"children,omitempty"` // The subtrees
}

// Forest returns a list of trees.
//
//mcp:tool readonly
func Forest(ctx context.Context) ([]Node, error) {
	return []Node{{Name: "a", Children: []Node{{Name: "b"}}}, {Name: "c"}}, nil
}

// Index returns trees by the names of their roots.
//
//mcp:tool readonly
func Index(ctx context.Context) (map[string]Node, error) {
	return map[string]Node{"a": {Name: "a", Children: []Node{{Name: "b"}}}}, nil
}

// Sparse returns a list of trees with gaps.
//
//mcp:tool readonly
func Sparse(ctx context.Context) ([]*Node, error) {
	return []*Node{{Name: "a"}, nil}, nil
}

// Root returns one tree.
//
//mcp:tool readonly
func Root(ctx context.Context) (*Node, error) {
	return &Node{Name: "a", Children: []Node{{Name: "b"}}}, nil
}

// Plant is what Grow takes: trees in a list, a map and a pointer.
type Plant struct {
	Seed   *Node           `json:"seed,omitempty"`    // A single tree
	Trees  []Node          `json:"trees"`             // A list of trees
	ByName map[string]Node `json:"by_name,omitempty"` // Trees by name
}

// Grow counts the nodes it is given.
//
//mcp:tool
func Grow(ctx context.Context, p Plant) (int, error) {
	n := 0
	var count func(Node)
	count = func(t Node) {
		n++
		for _, c := range t.Children {
			count(c)
		}
	}
	if p.Seed != nil {
		count(*p.Seed)
	}
	for _, t := range p.Trees {
		count(t)
	}
	for _, t := range p.ByName {
		count(t)
	}
	return n, nil
}

// Outline returns a list of trees, with an indented outline of them as
// the text block.
//
//mcp:tool readonly
func Outline(ctx context.Context) (mcprt.Structured[[]Node], error) {
	trees, _ := Forest(ctx)
	var b strings.Builder
	var write func(n Node, depth int)
	write = func(n Node, depth int) {
		b.WriteString(strings.Repeat("  ", depth) + n.Name + "\n")
		for _, c := range n.Children {
			write(c, depth+1)
		}
	}
	for _, t := range trees {
		write(t, 0)
	}
	return mcprt.Structured[[]Node]{Value: trees, Text: b.String()}, nil
}

// Found returns the tree of a name, or nil, with a text block saying
// which.
//
//mcp:tool readonly
//mcp:param name description="The name of the root"
func Found(ctx context.Context, name string) (mcprt.Structured[*Node], error) {
	if name != "a" {
		return mcprt.Structured[*Node]{Text: "no tree " + name}, nil
	}
	root, _ := Root(ctx)
	return mcprt.Structured[*Node]{Value: root, Text: "found " + name}, nil
}
