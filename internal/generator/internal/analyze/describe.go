package analyze

import (
	"go/doc/comment"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// prose turns the text of a doc comment into a description a model reads
// well. The lines of a doc comment are broken to fit the source, not the
// sentence: each paragraph becomes one line, and paragraphs stay apart.
// List items and lines that start like one ("- a") keep a line of their
// own; code blocks keep their lines and indentation. go/doc/comment parses
// the comment as go doc does; its own text printer puts blank lines
// between the items of some lists, so the blocks are written here.
func prose(text string) string {
	var p comment.Parser
	doc := p.Parse(text)
	blocks := make([]string, 0, len(doc.Content))
	for _, b := range doc.Content {
		if s := block(b); s != "" {
			blocks = append(blocks, s)
		}
	}
	return strings.Join(blocks, "\n\n")
}

// block writes one block of a parsed doc comment.
func block(b comment.Block) string {
	switch b := b.(type) {
	case *comment.Paragraph:
		return joinLines(inline(b.Text))
	case *comment.Heading:
		return joinLines(inline(b.Text))
	case *comment.Code:
		lines := strings.Split(strings.TrimRight(b.Text, "\n"), "\n")
		for i, l := range lines {
			if l != "" {
				lines[i] = "\t" + l
			}
		}
		return strings.Join(lines, "\n")
	case *comment.List:
		items := make([]string, len(b.Items))
		for i, it := range b.Items {
			marker := "-"
			if it.Number != "" {
				marker = it.Number + "."
			}
			var parts []string
			for _, c := range it.Content {
				if s := block(c); s != "" {
					parts = append(parts, strings.ReplaceAll(s, "\n", " "))
				}
			}
			items[i] = marker + " " + strings.Join(parts, " ")
		}
		return strings.Join(items, "\n")
	}
	return ""
}

// inline is the text of a paragraph or heading, links written as their text.
func inline(texts []comment.Text) string {
	var b strings.Builder
	for _, t := range texts {
		switch t := t.(type) {
		case comment.Plain:
			b.WriteString(string(t))
		case comment.Italic:
			b.WriteString(string(t))
		case *comment.Link:
			b.WriteString(inline(t.Text))
		case *comment.DocLink:
			b.WriteString(inline(t.Text))
		}
	}
	return b.String()
}

// listLine matches a line that starts like a list item, which an author
// writes unindented for a list that go doc does not recognize as one.
var listLine = regexp.MustCompile(`^([-*+•]|[0-9]+[.)])\s`)

// joinLines joins the lines of a paragraph with spaces, but keeps a line
// break before a line that starts like a list item.
func joinLines(s string) string {
	lines := strings.Split(s, "\n")
	var b strings.Builder
	for i, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case i == 0:
		case listLine.MatchString(l):
			b.WriteString("\n")
		default:
			b.WriteString(" ")
		}
		b.WriteString(l)
	}
	return b.String()
}

// withoutName drops the Go name a doc comment starts with, which the model
// does not know: "Node is a node of a tree" becomes "A node of a tree",
// and, when verbs is set, "BulkPriceUpdate applies ..." becomes "Applies
// ...". Go doc comments of declarations start with the name and a verb;
// the comment of a field or constant only may, so with verbs unset only
// "Name is" and "Name are" are dropped. Any other text is kept.
func withoutName(desc, name string, verbs bool) string {
	rest, ok := strings.CutPrefix(desc, name+" ")
	if !ok || rest == "" {
		return desc
	}
	cut := false
	for _, verb := range []string{"is ", "are "} {
		if r, ok := strings.CutPrefix(rest, verb); ok && r != "" {
			rest, cut = r, true
			break
		}
	}
	if !cut && !verbs {
		return desc
	}
	r, size := utf8.DecodeRuneInString(rest)
	return string(unicode.ToUpper(r)) + rest[size:]
}
