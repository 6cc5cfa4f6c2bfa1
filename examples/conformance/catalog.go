package main

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// The resources and prompts of the suite's resources-* and prompts-*
// scenarios.

// StaticText is a plain text resource.
//
//mcp:resource uri=test://static-text name=static-text title="Static text"
func StaticText() string {
	return "This is the content of the static text resource."
}

// StaticBinary is a 1x1 PNG image.
//
//mcp:resource uri=test://static-binary name=static-binary title="Static binary" mime=image/png
func StaticBinary() ([]byte, error) { return redPixelPNG() }

// WatchedResource is a resource clients subscribe to.
//
//mcp:resource uri=test://watched-resource name=watched-resource title="Watched resource"
func WatchedResource() string { return "Watched resource content" }

// TemplateData is what the template resource holds for an id.
type TemplateData struct {
	ID           string `json:"id"`
	TemplateTest bool   `json:"templateTest"`
	Data         string `json:"data"`
}

// TemplateResource is the data of one id.
//
//mcp:resource uri=test://template/{id}/data name=template title="Template"
//mcp:param id description="The id of the data"
func TemplateResource(id string) TemplateData {
	return TemplateData{ID: id, TemplateTest: true, Data: "Data for ID: " + id}
}

// TestSimplePrompt is a prompt without arguments.
//
//mcp:prompt name=test_simple_prompt title="Simple prompt"
func TestSimplePrompt() string { return "This is a simple prompt for testing." }

// TestPromptWithArguments is a prompt with two required arguments.
//
//mcp:prompt name=test_prompt_with_arguments title="Prompt with arguments"
//mcp:param arg1 description="First test argument"
//mcp:param arg2 description="Second test argument"
func TestPromptWithArguments(arg1, arg2 string) string {
	return "Prompt with arguments: arg1='" + arg1 + "', arg2='" + arg2 + "'"
}

// TestPromptWithEmbeddedResource embeds the resource it is given.
//
//mcp:prompt name=test_prompt_with_embedded_resource title="Prompt with an embedded resource"
//mcp:param resourceUri description="URI of the resource to embed"
func TestPromptWithEmbeddedResource(resourceUri string) []mcprt.PromptMessage {
	return []mcprt.PromptMessage{
		{Role: mcprt.RoleUser, Content: mcprt.TextResource(resourceUri, "text/plain", "Embedded resource content for testing.")},
		{Role: mcprt.RoleUser, Content: mcprt.Text("Please process the embedded resource above.")},
	}
}

// TestPromptWithImage shows an image.
//
//mcp:prompt name=test_prompt_with_image title="Prompt with an image"
func TestPromptWithImage(ctx context.Context) ([]mcprt.PromptMessage, error) {
	img, err := redPixelPNG()
	if err != nil {
		return nil, err
	}
	return []mcprt.PromptMessage{
		{Role: mcprt.RoleUser, Content: mcprt.Image(img, "image/png")},
		{Role: mcprt.RoleUser, Content: mcprt.Text("Please analyze the image above.")},
	}, nil
}
