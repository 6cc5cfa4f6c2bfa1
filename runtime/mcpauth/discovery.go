package mcpauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxDocument bounds what is read of a metadata document or an
// introspection response.
const maxDocument = 1 << 20

// metadataURLs lists where an issuer's metadata may be, in the order the
// MCP specification has clients try them: RFC 8414 with the well-known
// path inserted before the issuer's path, then OpenID Connect discovery
// the same way, then OpenID Connect discovery appended to the path.
func metadataURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("mcpauth: issuer %q is not an absolute URL", issuer)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("mcpauth: issuer %q has a query or fragment (RFC 8414 forbids them)", issuer)
	}
	origin := u.Scheme + "://" + u.Host
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	urls := []string{origin + "/.well-known/oauth-authorization-server" + path}
	if path == "" {
		return append(urls, origin+"/.well-known/openid-configuration"), nil
	}
	return append(urls,
		origin+"/.well-known/openid-configuration"+path,
		origin+path+"/.well-known/openid-configuration"), nil
}

// discoverJWKS returns the jwks_uri of the first of the issuer's metadata
// documents that can be had and names the issuer itself (RFC 8414 §3.3:
// a document naming another issuer must not be used).
func discoverJWKS(ctx context.Context, client *http.Client, issuer string) (string, error) {
	urls, err := metadataURLs(issuer)
	if err != nil {
		return "", err
	}
	var errs []error
	for _, u := range urls {
		jwks, err := fetchJWKSURI(ctx, client, u, issuer)
		if err == nil {
			return jwks, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return "", fmt.Errorf("mcpauth: no metadata of issuer %s names a key set: %w", issuer, errors.Join(errs...))
}

// fetchJWKSURI reads the metadata document at u.
func fetchJWKSURI(ctx context.Context, client *http.Client, u, issuer string) (string, error) {
	var doc struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	if err := getJSON(ctx, client, u, &doc); err != nil {
		return "", err
	}
	switch {
	case doc.Issuer != issuer:
		return "", fmt.Errorf("%s: issuer is %q, want %q", u, doc.Issuer, issuer)
	case doc.JWKSURI == "":
		return "", fmt.Errorf("%s: no jwks_uri", u)
	}
	return doc.JWKSURI, nil
}

// getJSON decodes the JSON document at u into v.
func getJSON(ctx context.Context, client *http.Client, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", u, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxDocument)).Decode(v); err != nil {
		return fmt.Errorf("%s: %v", u, err)
	}
	return nil
}
