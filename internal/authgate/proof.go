package authgate

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"math"
	"net/url"
	"strings"
	"time"
)

// MaxProofBytes bounds the DPoP header a gate reads: a proof with an RSA
// key of 8192 bits is under 3 KiB.
const MaxProofBytes = 8 << 10

// proofHeader is the JOSE header of a DPoP proof.
type proofHeader struct {
	Typ  string          `json:"typ"`
	Alg  string          `json:"alg"`
	JWK  json.RawMessage `json:"jwk"`
	Crit json.RawMessage `json:"crit"`
}

// proofClaims are the claims of a DPoP proof (RFC 9449 §4.2).
type proofClaims struct {
	JTI   string          `json:"jti"`
	HTM   string          `json:"htm"`
	HTU   string          `json:"htu"`
	IAT   json.RawMessage `json:"iat"`
	ATH   *string         `json:"ath"`
	Nonce *string         `json:"nonce"`
}

// Proof is a DPoP proof whose signature, type and algorithm are checked:
// what ParseProof returns. Its claims are yet to be held to a request.
type Proof struct {
	Alg        string    // the JWS algorithm
	Thumbprint string    // the RFC 7638 thumbprint of the key that signed it
	JTI        string    // the proof's unique identifier
	HTM, HTU   string    // the method and URI it was made for
	IssuedAt   time.Time // iat
	ATH        string    // the hash of the access token; "" when absent
	HasATH     bool      // ath was present
	Nonce      string    // the server's nonce it carries; "" when absent
}

// ProofError is why a proof is refused: an error code of RFC 9449 §7.1
// (invalid_dpop_proof, use_dpop_nonce, invalid_token) and a description
// for the challenge, which never quotes the request.
type ProofError struct {
	Code, Description string
}

func (e *ProofError) Error() string { return e.Code + ": " + e.Description }

func badProof(desc string) *ProofError {
	return &ProofError{Code: "invalid_dpop_proof", Description: desc}
}

// maxJTI bounds the length of a proof's jti, which the replay cache
// keeps; 96 bits of randomness need 16 characters.
const maxJTI = 256

// ParseProof reads a DPoP proof (RFC 9449 §4.3 steps 2 to 7): one
// compact JWS, typed dpop+jwt, signed with one of algs (asymmetric
// algorithms only) by the public key in its jwk header, carrying jti,
// htm, htu and iat.
func ParseProof(s string, algs []string) (*Proof, *ProofError) {
	if len(s) > MaxProofBytes {
		return nil, badProof("the proof is too long")
	}
	h64, rest, ok1 := strings.Cut(s, ".")
	c64, s64, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 || strings.Contains(s64, ".") {
		return nil, badProof("the proof is not a compact JWS")
	}
	hb, err1 := b64.DecodeString(h64)
	cb, err2 := b64.DecodeString(c64)
	sig, err3 := b64.DecodeString(s64)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, badProof("the proof is not base64url")
	}
	var h proofHeader
	if !decodeObject(hb, &h) {
		return nil, badProof("the proof's header is not a JSON object")
	}
	if !strings.EqualFold(h.Typ, "dpop+jwt") && !strings.EqualFold(h.Typ, "application/dpop+jwt") {
		return nil, badProof("the proof's typ is not dpop+jwt")
	}
	if !knownAlg(h.Alg) || !contains(algs, h.Alg) {
		return nil, badProof("the proof's alg is not an asymmetric algorithm this resource accepts")
	}
	if h.Crit != nil {
		return nil, badProof("the proof names critical header parameters")
	}
	var key jwk
	if len(h.JWK) == 0 || !decodeObject(h.JWK, &key) {
		return nil, badProof("the proof has no jwk header")
	}
	pub, jkt, err := key.publicKey(h.Alg)
	if err != nil {
		return nil, badProof(err.Error())
	}
	if !verifySignature(h.Alg, pub, []byte(s[:len(h64)+1+len(c64)]), sig) {
		return nil, badProof("the proof's signature does not verify with its jwk")
	}
	var c proofClaims
	if !decodeObject(cb, &c) {
		return nil, badProof("the proof's claims are not a JSON object")
	}
	iat, ok := numericDate(c.IAT)
	switch {
	case c.JTI == "" || len(c.JTI) > maxJTI:
		return nil, badProof("the proof has no jti, or one too long")
	case c.HTM == "":
		return nil, badProof("the proof has no htm")
	case c.HTU == "":
		return nil, badProof("the proof has no htu")
	case !ok:
		return nil, badProof("the proof has no iat, or not a number")
	}
	p := &Proof{Alg: h.Alg, Thumbprint: jkt, JTI: c.JTI, HTM: c.HTM, HTU: c.HTU, IssuedAt: iat}
	if c.ATH != nil {
		p.ATH, p.HasATH = *c.ATH, true
	}
	if c.Nonce != nil {
		p.Nonce = *c.Nonce
	}
	return p, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// decodeObject decodes a JSON object into v, refusing anything else.
func decodeObject(b []byte, v any) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{' && json.Unmarshal(b, v) == nil
}

// numericDate reads a JSON number of seconds since the epoch (RFC 7519
// §2), which may have a fraction.
func numericDate(raw json.RawMessage) (time.Time, bool) {
	var f float64
	if len(raw) == 0 || raw[0] == '"' || json.Unmarshal(raw, &f) != nil || math.IsNaN(f) || math.Abs(f) > 1e11 {
		return time.Time{}, false
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)), true
}

// TokenHash is the ath of a proof for token: the base64url SHA-256 of
// its ASCII bytes (RFC 9449 §4.2).
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return b64.EncodeToString(sum[:])
}

// NormalizeURI returns uri as RFC 9449 §4.3 compares htu: without query
// and fragment, after the syntax- and scheme-based normalization of
// RFC 3986 §6.2.2 and §6.2.3 (scheme and host in lower case, no default
// port, an empty path as "/", percent-encoding in upper case and
// unreserved characters decoded, no dot segments). ok is false for a URI
// that is not absolute http or https.
func NormalizeURI(uri string) (string, bool) {
	if i := strings.IndexAny(uri, "?#"); i >= 0 {
		uri = uri[:i]
	}
	u, err := url.Parse(uri)
	if err != nil || u.Opaque != "" || u.User != nil || u.Host == "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Host)
	switch scheme {
	case "http":
		host = strings.TrimSuffix(host, ":80")
	case "https":
		host = strings.TrimSuffix(host, ":443")
	default:
		return "", false
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	return scheme + "://" + host + normalizePath(path), true
}

// normalizePath normalizes the percent-encoding of an escaped path and
// removes its dot segments.
func normalizePath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]) {
			v := unhex(p[i+1])<<4 | unhex(p[i+2])
			if unreserved(v) {
				b.WriteByte(v)
			} else {
				b.WriteByte('%')
				b.WriteByte(hex[v>>4])
				b.WriteByte(hex[v&15])
			}
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	return removeDots(b.String())
}

// removeDots is RFC 3986 §5.2.4 on a path that starts with "/".
func removeDots(p string) string {
	var out []string
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}
