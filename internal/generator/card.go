package generator

import (
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen/internal/generator/internal/analyze"
	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/servercard"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// readCard reads the Server Card of the package of in, for -card.
func readCard(in analyze.Input, diags Diagnostics) (*File, Diagnostics) {
	c, ds := analyze.Card(in)
	diags = append(diags, ds...)
	if diags.HasErrors() {
		return nil, diags
	}
	if c == nil {
		return nil, diags
	}
	return &File{Path: in.GenFile, card: c}, diags
}

// Card returns the Server Card of the one file that has one, as
// servercard makes it for the built-in server: the same identity and
// options, and the revisions server/discover lists.
func Card(files []File) ([]byte, Diagnostics) {
	var f *File
	for i := range files {
		if files[i].card == nil {
			continue
		}
		if f != nil {
			return nil, Diagnostics{{Msg: "-card: more than one package has a card; give one"}}
		}
		f = &files[i]
	}
	if f == nil {
		return nil, Diagnostics{{Msg: "-card: no package has an mcpserver.Card literal; a server serves a Server Card when Server.Card is set"}}
	}
	c := f.card
	id := mcprt.Identity{Name: c.Name, Version: c.Version, Title: c.Title, Description: c.Description, WebsiteURL: c.WebsiteURL}
	for _, ic := range c.Icons {
		id.Icons = append(id.Icons, mcprt.Icon{Src: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: ic.Theme})
	}
	o := servercard.Options{Name: c.CardName, URL: c.URL, Description: c.CardDescription}
	if r := c.Repository; r != nil {
		o.Repository = &servercard.Repository{URL: r.URL, Source: r.Source, Subfolder: r.Subfolder, ID: r.ID}
	}
	revs := make([]string, len(wire.Revisions))
	for i, r := range wire.Revisions {
		revs[i] = string(r)
	}
	doc, err := servercard.Make(id, o, revs)
	if err != nil {
		return nil, Diagnostics{diag.Errorf(c.Pos, "-card: %v", err)}
	}
	return doc, nil
}

func printCard(files []File, dir string, stdout, stderr io.Writer) int {
	doc, diags := Card(files)
	if diags.HasErrors() {
		diags.Print(stderr, dir)
		return ExitFail
	}
	if _, err := stdout.Write(doc); err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return ExitFail
	}
	return ExitOK
}
