package mcpstore

import (
	"context"
	"time"
)

// ReplayCache remembers the DPoP proofs a server took (by a digest of
// their key and jti), so that a proof replayed within its window is
// refused (RFC 9449 §11.1). The server's own keeps them in the process;
// replicas serving the same clients share one, such as runtime/mcpredis's.
type ReplayCache interface {
	// Use records that id was used, until the time given, and reports
	// whether this is its first use. An error means it could not tell;
	// the request is then answered 503.
	Use(ctx context.Context, id string, until time.Time) (first bool, err error)
}
