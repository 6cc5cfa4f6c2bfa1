package c

// Lonely names a page in a package that serves none.
//
//mcp:tool ui=ui://c/page visibility=model
func Lonely() (string, error) { return "", nil }
