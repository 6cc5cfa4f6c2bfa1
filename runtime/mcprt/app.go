package mcprt

// This file holds what MCP Apps (the io.modelcontextprotocol/ui extension)
// adds to tools and resources: a tool names the ui:// resource a host
// renders its results with, and the resource says what its page may load.

// AppMIMEType is the media type of an MCP App's page: HTML that a host
// renders in a sandboxed frame.
const AppMIMEType = "text/html;profile=mcp-app"

// AppsExtension is the name under which servers declare MCP Apps in their
// capabilities' extensions.
const AppsExtension = "io.modelcontextprotocol/ui"

// The visibilities of an app's tool: who may call it.
const (
	VisibleToModel = "model" // the model sees and calls it
	VisibleToApp   = "app"   // the app's page calls it
)

// ToolUI links a tool to an MCP App, published as the tool's _meta.ui.
type ToolUI struct {
	// ResourceURI is the ui:// resource whose page shows the tool's
	// results.
	ResourceURI string
	// Visibility says who may call the tool, VisibleToModel,
	// VisibleToApp or both; nil publishes nothing, which hosts take as
	// both.
	Visibility []string
}

// ResourceUI is what an MCP App's page asks of the host that renders it,
// published as the _meta.ui of the resource and of its contents. Domains
// are origins such as https://api.example.com; none means none allowed.
type ResourceUI struct {
	ConnectDomains  []string // fetch, XHR and WebSocket (CSP connect-src)
	ResourceDomains []string // images, scripts, styles, fonts, media
	FrameDomains    []string // nested frames (CSP frame-src)
	BaseURIDomains  []string // the document's base URIs (CSP base-uri)
	// Permissions are the browser features the page asks for: camera,
	// microphone, geolocation, clipboardWrite.
	Permissions []string
	// Domain is a dedicated origin for the page, in the host's format.
	Domain string
	// PrefersBorder asks the host for a border and background (true) or
	// none (false); nil lets the host decide.
	PrefersBorder *bool
}
