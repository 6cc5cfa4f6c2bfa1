package c

// Missing names a page the package does not serve.
//
//mcp:tool ui=ui://c/missin
func Missing() (string, error) { return "", nil }

// NotHTML is a page served as something other than an app's HTML.
//
//mcp:resource uri=ui://c/page mime=text/plain
func NotHTML() string { return "" }

// HTMLOnly is a page served as plain HTML, which hosts do not render.
//
//mcp:resource uri=ui://c/missing mime=text/html
func HTMLOnly() string { return "" }

// Spelt writes the app's media type out, which is allowed.
//
//mcp:resource uri=ui://c/spelt mime=text/html;profile=mcp-app border=false
func Spelt() string { return "" }
