package authgate

// The part of JOSE that a DPoP proof needs: a compact JWS whose key
// travels in its own header (RFC 9449 §4.2), the public JWK it carries
// (RFC 7517, RFC 7518 §6, RFC 8037), that key's RFC 7638 thumbprint, and
// the signature check.
//
// It is written here, on the standard library's crypto, rather than taken
// from a JOSE library, because the gate is linked into the built-in
// server, which links no module outside the standard library (mcpauth's
// TestServerWithoutAuth holds it to that). golang-jwt, which the
// verifiers use, reads no JWK and computes no thumbprint, and a JOSE
// library would bring both into every server. The tests check this code
// against golang-jwt's signatures, jwkset's JWKs and the RFCs' examples.

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"hash"
	"math/big"
	"slices"
	"strings"
)

// DefaultDPoPAlgorithms are the JWS algorithms of DPoP proofs a gate
// accepts when told none: every asymmetric one of RFC 7518 and RFC 8037.
// HMAC and "none" are never accepted (RFC 9449 §11.6).
var DefaultDPoPAlgorithms = []string{
	"ES256", "ES384", "ES512",
	"RS256", "RS384", "RS512",
	"PS256", "PS384", "PS512",
	"EdDSA",
}

// knownAlg reports whether alg is one this file can check.
func knownAlg(alg string) bool {
	return slices.Contains(DefaultDPoPAlgorithms, alg)
}

// b64 is the base64url encoding of JOSE: no padding, and strict, so that
// each value has one encoding only and a thumbprint one key.
var b64 = base64.RawURLEncoding.Strict()

// jwk is a JSON Web Key as a proof's header carries it. The private
// members are read only to refuse a key that has them.
type jwk struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
	N   string `json:"n"`
	E   string `json:"e"`

	D   json.RawMessage `json:"d"`
	P   json.RawMessage `json:"p"`
	Q   json.RawMessage `json:"q"`
	DP  json.RawMessage `json:"dp"`
	DQ  json.RawMessage `json:"dq"`
	QI  json.RawMessage `json:"qi"`
	Oth json.RawMessage `json:"oth"`
	K   json.RawMessage `json:"k"`
}

// errPrivateKey is the refusal of a JWK that holds a private key.
var errPrivateKey = errors.New("the jwk header holds a private key")

// minRSABits is the smallest RSA modulus accepted, as NIST and RFC 8725
// advise.
const minRSABits = 2048

// publicKey returns the key of k for alg and k's RFC 7638 thumbprint. It
// refuses a private or symmetric key, a key alg does not use, and a
// member that is not the one encoding of its value.
func (k *jwk) publicKey(alg string) (crypto.PublicKey, string, error) {
	for _, m := range []json.RawMessage{k.D, k.P, k.Q, k.DP, k.DQ, k.QI, k.Oth, k.K} {
		if m != nil {
			return nil, "", errPrivateKey
		}
	}
	switch k.Kty {
	case "EC":
		return k.ecKey(alg)
	case "RSA":
		return k.rsaKey(alg)
	case "OKP":
		return k.okpKey(alg)
	}
	return nil, "", errors.New("the jwk header's kty is not EC, RSA or OKP")
}

func (k *jwk) ecKey(alg string) (crypto.PublicKey, string, error) {
	var curve elliptic.Curve
	switch {
	case k.Crv == "P-256" && alg == "ES256":
		curve = elliptic.P256()
	case k.Crv == "P-384" && alg == "ES384":
		curve = elliptic.P384()
	case k.Crv == "P-521" && alg == "ES512":
		curve = elliptic.P521()
	default:
		return nil, "", errors.New("the jwk header's curve does not match alg")
	}
	size := (curve.Params().BitSize + 7) / 8
	x, err1 := b64.DecodeString(k.X)
	y, err2 := b64.DecodeString(k.Y)
	if err1 != nil || err2 != nil || len(x) != size || len(y) != size {
		return nil, "", errors.New("the jwk header's x or y is not a coordinate of its curve")
	}
	point := append(append([]byte{4}, x...), y...)
	pub, err := ecdsa.ParseUncompressedPublicKey(curve, point)
	if err != nil {
		return nil, "", errors.New("the jwk header's point is not on its curve")
	}
	return pub, thumbprint(`{"crv":`, k.Crv, `,"kty":"EC","x":`, k.X, `,"y":`, k.Y, `}`), nil
}

func (k *jwk) rsaKey(alg string) (crypto.PublicKey, string, error) {
	if !strings.HasPrefix(alg, "RS") && !strings.HasPrefix(alg, "PS") {
		return nil, "", errors.New("an RSA key in the jwk header does not match alg")
	}
	n, err1 := b64.DecodeString(k.N)
	e, err2 := b64.DecodeString(k.E)
	if err1 != nil || err2 != nil || len(n) == 0 || n[0] == 0 || len(e) == 0 || e[0] == 0 || len(e) > 4 {
		return nil, "", errors.New("the jwk header's n or e is not a minimal unsigned integer")
	}
	pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n)}
	for _, b := range e {
		pub.E = pub.E<<8 | int(b)
	}
	if pub.N.BitLen() < minRSABits || pub.E < 3 || pub.E&1 == 0 {
		return nil, "", errors.New("the jwk header's RSA key is too small or its exponent is not odd")
	}
	return pub, thumbprint(`{"e":`, k.E, `,"kty":"RSA","n":`, k.N, `}`), nil
}

func (k *jwk) okpKey(alg string) (crypto.PublicKey, string, error) {
	if k.Crv != "Ed25519" || alg != "EdDSA" {
		return nil, "", errors.New("the jwk header's curve does not match alg")
	}
	x, err := b64.DecodeString(k.X)
	if err != nil || len(x) != ed25519.PublicKeySize {
		return nil, "", errors.New("the jwk header's x is not an Ed25519 key")
	}
	return ed25519.PublicKey(x), thumbprint(`{"crv":`, k.Crv, `,"kty":"OKP","x":`, k.X, `}`), nil
}

// thumbprint is the RFC 7638 thumbprint of a key: the base64url SHA-256
// of its required members in lexicographic order, without white space.
// parts alternate JSON text and member values; the values are strings of
// the base64url alphabet or curve names, which JSON writes as they are,
// and are quoted here.
func thumbprint(parts ...string) string {
	h := sha256.New()
	for i, p := range parts {
		if i%2 == 1 {
			h.Write([]byte{'"'})
			h.Write([]byte(p))
			h.Write([]byte{'"'})
			continue
		}
		h.Write([]byte(p))
	}
	return b64.EncodeToString(h.Sum(nil))
}

// verifySignature checks sig over signed (the JWS signing input) with key
// for alg, which publicKey has matched to the key's type.
func verifySignature(alg string, key crypto.PublicKey, signed, sig []byte) bool {
	if alg == "EdDSA" {
		pub, ok := key.(ed25519.PublicKey)
		return ok && ed25519.Verify(pub, signed, sig)
	}
	var h hash.Hash
	var id crypto.Hash
	switch alg[2:] {
	case "256":
		h, id = sha256.New(), crypto.SHA256
	case "384":
		h, id = sha512.New384(), crypto.SHA384
	case "512":
		h, id = sha512.New(), crypto.SHA512
	default:
		return false
	}
	h.Write(signed)
	digest := h.Sum(nil)
	switch pub := key.(type) {
	case *ecdsa.PublicKey:
		// JWS writes R and S as two fixed-size big-endian integers
		// (RFC 7518 §3.4), not ASN.1.
		size := (pub.Curve.Params().BitSize + 7) / 8
		if len(sig) != 2*size || alg[:2] != "ES" {
			return false
		}
		r, s := new(big.Int).SetBytes(sig[:size]), new(big.Int).SetBytes(sig[size:])
		return ecdsa.Verify(pub, digest, r, s)
	case *rsa.PublicKey:
		switch alg[:2] {
		case "RS":
			return rsa.VerifyPKCS1v15(pub, id, digest, sig) == nil
		case "PS":
			return rsa.VerifyPSS(pub, id, digest, sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto}) == nil
		}
	}
	return false
}
