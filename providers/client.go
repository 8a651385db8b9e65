package providers

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"fmt"

	"github.com/go-jose/go-jose/v4"
)

// clientError is a problem with one field of Client.
type clientError struct{ field, reason string }

// validate checks the client authentication, PAR and DPoP settings.
func (c Client) validate(secret string) *clientError {
	bad := func(field, format string, args ...any) *clientError {
		return &clientError{field: "client." + field, reason: fmt.Sprintf(format, args...)}
	}
	switch c.TokenEndpointAuthMethod {
	case "", AuthClientSecretBasic, AuthClientSecretPost, AuthNone:
	case AuthClientSecretJWT:
		// The HMAC key must be at least as long as the hash (RFC 7518 §3.2).
		if len(secret) < 32 {
			return bad("token_endpoint_auth_method", "client_secret_jwt needs a client secret of at least 32 bytes (RFC 7518 §3.2)")
		}
	case AuthPrivateKeyJWT:
		if c.JWKS == nil || len(c.JWKS.Keys) == 0 {
			return bad("jwks", "private_key_jwt needs the client's private key in Client.JWKS")
		}
		for i, k := range c.JWKS.Keys {
			if k.KeyID == "" {
				return bad("jwks", "key %d has no kid (the provider picks the key by kid)", i)
			}
			if k.Use != "" && k.Use != "sig" {
				return bad("jwks", "key %q is for use %q; a client assertion key must be for sig (RFC 7517 §4.2)", k.KeyID, k.Use)
			}
			if _, err := SigningAlgorithm(&k); err != nil {
				return bad("jwks", "key %q: %v", k.KeyID, err)
			}
		}
		if c.JWKS.Keys[0].IsPublic() {
			return bad("jwks", "the first key (%q) signs and must be a private key", c.JWKS.Keys[0].KeyID)
		}
	default:
		return bad("token_endpoint_auth_method", "unsupported method %q", c.TokenEndpointAuthMethod)
	}
	if k := c.DPoPKey; k != nil {
		if k.IsPublic() {
			return bad("dpop_key", "must be a private key")
		}
		if k.Use != "" && k.Use != "sig" {
			return bad("dpop_key", "is for use %q; a DPoP key must be for sig (RFC 7517 §4.2)", k.Use)
		}
		if _, err := SigningAlgorithm(k); err != nil {
			return bad("dpop_key", "%v", err)
		}
	}
	return nil
}

// MinRSABits is the smallest RSA key Gatehouse signs or verifies with
// (RFC 7518 §3.3: "A key of size 2048 bits or larger MUST be used"), for
// the client's own keys and the provider's alike.
const MinRSABits = 2048

// SigningAlgorithm returns the JWS algorithm a client key signs with: its
// Algorithm when set, else RS256 for RSA, ES256/ES384/ES512 for ECDSA by
// curve, EdDSA for Ed25519. Symmetric keys are refused.
func SigningAlgorithm(k *jose.JSONWebKey) (jose.SignatureAlgorithm, error) {
	var alg jose.SignatureAlgorithm
	switch key := k.Key.(type) {
	case *rsa.PrivateKey, *rsa.PublicKey:
		// RFC 7518 §3.3: 2048 bits or more, for the signing key and for
		// the public keys published beside it alike.
		n := 0
		if rk, ok := key.(*rsa.PrivateKey); ok {
			n = rk.N.BitLen()
		} else {
			n = key.(*rsa.PublicKey).N.BitLen()
		}
		if n < MinRSABits {
			return "", fmt.Errorf("RSA key of %d bits (%d at least, RFC 7518 §3.3)", n, MinRSABits)
		}
		alg = jose.RS256
	case *ecdsa.PrivateKey, *ecdsa.PublicKey:
		var curve elliptic.Curve
		if pk, ok := key.(*ecdsa.PrivateKey); ok {
			curve = pk.Curve
		} else {
			curve = key.(*ecdsa.PublicKey).Curve
		}
		switch curve {
		case elliptic.P256():
			alg = jose.ES256
		case elliptic.P384():
			alg = jose.ES384
		case elliptic.P521():
			alg = jose.ES512
		default:
			return "", fmt.Errorf("unsupported elliptic curve")
		}
	case ed25519.PrivateKey, ed25519.PublicKey:
		alg = jose.EdDSA
	default:
		return "", fmt.Errorf("unsupported key type %T (want an RSA, ECDSA or Ed25519 key)", k.Key)
	}
	if k.Algorithm != "" && k.Algorithm != string(alg) {
		switch jose.SignatureAlgorithm(k.Algorithm) {
		case jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512:
			if alg == jose.RS256 {
				return jose.SignatureAlgorithm(k.Algorithm), nil
			}
		}
		return "", fmt.Errorf("alg %q does not fit the key", k.Algorithm)
	}
	return alg, nil
}
