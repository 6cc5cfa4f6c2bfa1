package main

import (
	"context"
	"fmt"
)

// serveSDK serves the knowledge base on one of the SDKs mcpgen has
// adapters for.
func serveSDK(ctx context.Context, sdk, addr string) error {
	return fmt.Errorf("-sdk %q: want builtin, gosdk or mcpgo", sdk)
}
