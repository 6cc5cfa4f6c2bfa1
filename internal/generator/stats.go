package generator

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// This file is -list -stats, what each tool costs a host to list, and
// -lint -budget, which warns at a tool that costs too much.

// EstimateTokens estimates how many tokens a model's tokenizer makes of
// text, JSON or prose, as the byte-pair tokenizers of the large
// providers cut it: a word of up to eight letters is one token (with the
// space before it), a longer one a token for every eight; digits go by
// threes; a run of other marks, such as the ":" or "," between JSON
// members, is a token for every three; and anything beyond ASCII a token
// a character. It is an estimate, the same on every machine.
func EstimateTokens(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		c := b[i]
		j := i + 1
		switch {
		case c >= utf8.RuneSelf:
			_, size := utf8.DecodeRune(b[i:])
			j = i + size
			n++
		case isLetter(c):
			for j < len(b) && isLetter(b[j]) {
				j++
			}
			n += 1 + (j-i-1)/8
		case c >= '0' && c <= '9':
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			n += (j - i + 2) / 3
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
		default:
			for j < len(b) && isMark(b[j]) {
				j++
			}
			n += (j - i + 2) / 3
		}
		i = j
	}
	return n
}

// isMark reports whether c is ASCII other than a letter, a digit or a
// space.
func isMark(c byte) bool {
	return c < utf8.RuneSelf && !isLetter(c) && !(c >= '0' && c <= '9') && c != ' ' && c != '\n' && c != '\t' && c != '\r'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// cost is what listing one thing costs on one revision.
type cost struct{ bytes, tokens int }

func costOf(b []byte) cost { return cost{len(b), EstimateTokens(b)} }

// toolCosts returns what each revision's descriptor of t costs, in the
// order of wire.Revisions, as a server without Groups lists it.
func toolCosts(t *mcprt.Tool) []cost {
	plain := *t
	plain.Groups = nil
	out := make([]cost, len(wire.Revisions))
	for i, rev := range wire.Revisions {
		out[i] = costOf(wire.AppendTool(nil, &plain, rev))
	}
	return out
}

// Stats writes the table of -list -stats: for each tool, the bytes and
// estimated tokens of its descriptor on each revision; then the whole
// tools/list result, and the listing of tool search mode (search_tools,
// call_tool and the pinned tools) with what it saves.
func Stats(w io.Writer, files []File) error {
	var tools []mcprt.Tool
	for _, f := range files {
		tools = append(tools, f.Tools...)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := []string{"tool"}
	for _, rev := range wire.Revisions {
		header = append(header, string(rev)+" bytes", "tokens")
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	totals := make([]cost, len(wire.Revisions))
	for i := range tools {
		cs := toolCosts(&tools[i])
		row := []string{tools[i].Name}
		for j, c := range cs {
			row = append(row, fmt.Sprint(c.bytes), fmt.Sprint(c.tokens))
			totals[j].bytes += c.bytes + 1 // and its comma
			totals[j].tokens += c.tokens + 1
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	fmt.Fprintln(tw, strings.Join(costRow(fmt.Sprintf("tools/list (%d tools)", len(tools)), totals), "\t"))
	search := searchListing(tools)
	fmt.Fprintln(tw, strings.Join(costRow(fmt.Sprintf("tool search mode (%d pinned)", len(wire.Pinned(tools, nil))), search), "\t"))
	return tw.Flush()
}

// costRow is a row of the table: a label and a cost per revision.
func costRow(label string, cs []cost) []string {
	row := []string{label}
	for _, c := range cs {
		row = append(row, fmt.Sprint(c.bytes), fmt.Sprint(c.tokens))
	}
	return row
}

// searchListing returns what tools/list costs on each revision in tool
// search mode, with the tools pinned by their pin key.
func searchListing(tools []mcprt.Tool) []cost {
	st, ct := wire.SearchToolsTool(nil), wire.CallToolTool(nil)
	out := make([]cost, len(wire.Revisions))
	for i, rev := range wire.Revisions {
		b := []byte(`{"tools":[`)
		b = append(wire.AppendTool(b, &st, rev), ',')
		b = wire.AppendTool(b, &ct, rev)
		for _, name := range wire.Pinned(tools, nil) {
			for j := range tools {
				if tools[j].Name == name {
					plain := tools[j]
					plain.Groups = nil
					b = wire.AppendTool(append(b, ','), &plain, rev)
					break
				}
			}
		}
		out[i] = costOf(append(b, "]}"...))
	}
	return out
}

// budgetWarnings warns at each tool whose descriptor on the latest
// revision costs more than budget estimated tokens.
func budgetWarnings(files []File, budget int) Diagnostics {
	var ds Diagnostics
	latest := len(wire.Revisions) - 1
	for wire.Revisions[latest] != wire.LatestRevision {
		latest--
	}
	for _, f := range files {
		for i := range f.Tools {
			c := toolCosts(&f.Tools[i])[latest]
			if c.tokens <= budget {
				continue
			}
			var pos Diagnostic
			if i < len(f.models) {
				pos.Pos = toolPos(f.models[i])
			}
			pos.Warning = true
			pos.Msg = fmt.Sprintf("tool %s costs about %d tokens to list (%d bytes), over the budget of %d (-budget): shorten its description or those of its parameters, or split it",
				f.Tools[i].Name, c.tokens, c.bytes, budget)
			ds = append(ds, pos)
		}
	}
	return ds
}
