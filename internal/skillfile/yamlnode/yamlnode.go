// Package yamlnode reads a SKILL.md frontmatter with a full YAML library,
// go.yaml.in/yaml/v3, into the nodes of package skillfile. The generator
// uses it to report YAML errors as the library finds them, and to check
// that skillfile's own reader, which the runtime uses, reads each
// frontmatter the same; tests hold the two readers to each other.
package yamlnode

import (
	"regexp"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/skillfile"
	"go.yaml.in/yaml/v3"
)

// Read parses fm and converts it, refusing what skillfile.Read refuses
// whatever the reader: tags, anchors, aliases, merge keys, duplicate keys,
// keys that are not text, and plain scalars skillfile.Resolve refuses.
func Read(fm *skillfile.Frontmatter) (*skillfile.Node, *skillfile.Problem) {
	var doc yaml.Node
	if err := yaml.Unmarshal(fm.Text, &doc); err != nil {
		return nil, problem(fm, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, &skillfile.Problem{Line: fm.Line, Col: 1, Msg: "the frontmatter is empty: it needs name and description"}
	}
	c := converter{line: fm.Line - 1}
	return c.node(doc.Content[0])
}

// lineOf finds the line of a yaml.v3 error message.
var lineOf = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// problem turns a yaml.v3 error into a problem at its line, as near as
// the library says: its lines are sometimes those of the construct the
// error is in, and it gives no column, so Col is 0.
func problem(fm *skillfile.Frontmatter, err error) *skillfile.Problem {
	m := lineOf.FindStringSubmatch(err.Error())
	if m == nil {
		return &skillfile.Problem{Line: fm.Line, Msg: "the frontmatter is not YAML: " + err.Error()}
	}
	line := fm.Line
	if n, e := strconv.Atoi(m[1]); e == nil {
		line += n - 1
	}
	return &skillfile.Problem{Line: line, Msg: "the frontmatter is not YAML: " + m[2]}
}

type converter struct {
	line int // added to the library's lines: those of the frontmatter
}

func (c *converter) errAt(n *yaml.Node, msg string) *skillfile.Problem {
	return &skillfile.Problem{Line: n.Line + c.line, Col: n.Column, Msg: msg}
}

func (c *converter) node(n *yaml.Node) (*skillfile.Node, *skillfile.Problem) {
	switch {
	case n.Kind == yaml.AliasNode || n.Anchor != "":
		return nil, c.errAt(n, "an anchor or alias, which this reader does not read: write the value out")
	case n.Style&yaml.TaggedStyle != 0:
		return nil, c.errAt(n, "a tag, which this reader does not read: write the value without it, quoted if it is text")
	}
	out := &skillfile.Node{Line: n.Line + c.line, Col: n.Column}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			out.Kind, out.Str = skillfile.String, n.Value
			return out, nil
		}
		return skillfile.Resolve(n.Value, out.Line, out.Col)
	case yaml.SequenceNode:
		out.Kind = skillfile.Seq
		for _, it := range n.Content {
			v, p := c.node(it)
			if p != nil {
				return nil, p
			}
			out.Items = append(out.Items, v)
		}
		return out, nil
	case yaml.MappingNode:
		out.Kind = skillfile.Map
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, p := c.key(n.Content[i])
			if p != nil {
				return nil, p
			}
			if seen[k.Str] {
				return nil, c.errAt(n.Content[i], "the key "+strconv.Quote(k.Str)+" is written twice: keep one")
			}
			seen[k.Str] = true
			v, p := c.node(n.Content[i+1])
			if p != nil {
				return nil, p
			}
			out.Keys, out.Values = append(out.Keys, k), append(out.Values, v)
		}
		return out, nil
	}
	return nil, c.errAt(n, "a YAML node of an unknown kind")
}

// key converts a mapping key, which must be text.
func (c *converter) key(n *yaml.Node) (*skillfile.Node, *skillfile.Problem) {
	switch {
	case n.Kind != yaml.ScalarNode:
		return nil, c.errAt(n, "a collection as a key, which JSON has not: write a plain key")
	case n.Tag == "!!merge":
		return nil, c.errAt(n, "a merge key (<<), which frontmatter readers differ on: write the keys out")
	}
	k, p := c.node(n)
	if p != nil {
		return nil, p
	}
	if k.Kind != skillfile.String {
		return nil, c.errAt(n, "the key "+strconv.Quote(n.Value)+" is not text to JSON: quote it")
	}
	return k, nil
}
