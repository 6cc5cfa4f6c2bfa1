package main

import (
	_ "embed"
)

// viewerPage is the article viewer, one HTML file embedded in the binary.
//
//go:embed viewer.html
var viewerPage string

// ArticleView is an article as the viewer shows it.
type ArticleView struct {
	ID    int    `json:"id"`
	Title string `json:"title"`
	Body  string `json:"body"`
}

// ShowArticle shows one article in the viewer, an MCP App; clients that
// show no apps get the article as JSON text.
//
//mcp:tool title="Show an article" readonly ui=ui://kb/viewer
//mcp:param id description="the article's number"
func ShowArticle(id int) (ArticleView, error) {
	a, err := find(id)
	if err != nil {
		return ArticleView{}, err
	}
	text, _ := ArticleText(id)
	return ArticleView{ID: a.ID, Title: a.Title, Body: text}, nil
}

// Viewer is the page of the article viewer, which hosts that show MCP
// Apps render in a frame beside a show_article call.
//
//mcp:resource uri=ui://kb/viewer title="Article viewer" border
func Viewer() string { return viewerPage }
