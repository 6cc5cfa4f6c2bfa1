package gosdk

import (
	"net/http"

	"github.com/mcpgen/mcpgen/internal/authgate"
)

// asBearer lets the SDK's auth.RequireBearerToken, which reads the Bearer
// scheme only, serve a request the gate took with the DPoP scheme: the
// token it passes on is not checked again (see verified).
func asBearer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if scheme, token, ok := authgate.ParseCredentials(r.Header.Get("Authorization")); ok && scheme == "dpop" {
			r2 := *r
			r2.Header = r.Header.Clone()
			r2.Header.Set("Authorization", "Bearer "+token)
			r = &r2
		}
		next.ServeHTTP(w, r)
	})
}
