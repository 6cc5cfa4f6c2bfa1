package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// LinkAccount sends the user to the sync service's consent page, where
// they allow the knowledge base to copy their articles; what they enter
// there never passes through the client.
//
//mcp:tool title="Link a sync account"
func LinkAccount(ctx context.Context) (string, error) {
	r, id, err := mcprt.ElicitURL(ctx, "Allow the knowledge base to sync your articles", "https://sync.example.com/consent")
	if err != nil {
		return "", err
	}
	if id == "" {
		return r.Action, nil
	}
	return r.Action + " (elicitation " + id + ")", nil
}

// SuggestTags asks the client's model for tags of an article. The model
// may look up the tags in use with the list_tags tool, which this handler
// runs for it, up to three times.
//
//mcp:tool title="Suggest tags" readonly
//mcp:param id description="the article's number"
func SuggestTags(ctx context.Context, id int) (string, error) {
	a, err := find(id)
	if err != nil {
		return "", err
	}
	req := mcprt.SampleRequest{
		Messages:  []mcprt.SampleMessage{{Role: "user", Content: mcprt.Text("Suggest tags for the article " + a.Title + ":\n\n" + a.Body)}},
		MaxTokens: 200,
		Tools:     []mcprt.SampleTool{{Name: "list_tags", Description: "The tags the knowledge base uses", InputSchema: []byte(`{"type":"object"}`)}},
	}
	for range 3 {
		res, err := mcprt.Sample(ctx, req)
		if err != nil || res.StopReason != mcprt.StopToolUse {
			return res.Content.Text, err
		}
		results := make([]mcprt.ToolResult, 0, len(res.ToolUses))
		for _, u := range res.ToolUses {
			results = append(results, runSampleTool(u))
		}
		req.Messages = append(req.Messages,
			mcprt.SampleMessage{Role: "assistant", ToolUses: res.ToolUses},
			mcprt.SampleMessage{Role: "user", ToolResults: results})
	}
	return "", errors.New("the model kept asking for tools")
}

// runSampleTool runs a tool the model asked for while it suggests tags.
func runSampleTool(u mcprt.ToolUse) mcprt.ToolResult {
	if u.Name != "list_tags" {
		return mcprt.ToolResult{ToolUseID: u.ID, Content: []mcprt.Content{mcprt.Text(fmt.Sprintf("no tool %q", u.Name))}, IsError: true}
	}
	base.RLock()
	defer base.RUnlock()
	seen := map[string]bool{}
	var tags []string
	for _, a := range base.articles {
		for _, t := range a.Tags {
			if !seen[t] {
				seen[t] = true
				tags = append(tags, t)
			}
		}
	}
	return mcprt.ToolResult{ToolUseID: u.ID, Content: []mcprt.Content{mcprt.Text(strings.Join(tags, ", "))}}
}
