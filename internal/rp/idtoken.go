package rp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// ID token limits.
const (
	maxIDTokenLen = 64 << 10
	// maxIDTokenAge: an ID token from the token endpoint is minted for this
	// exchange; one issued long before it is replayed or broken.
	maxIDTokenAge = time.Hour
)

// idTokenError is an ID token failure with its public code.
func idTokenError(provider, code string, err error) *autherr.Error {
	return autherr.New(autherr.InvalidIDToken, code, provider, "id_token", err)
}

// VerifyIDToken verifies an ID token from the token endpoint and returns
// its claims (OpenID Connect Core §3.1.3.7). go-oidc checks the signature
// (algorithm allow-list, keys from the provider's JWKS, refetched once on
// an unknown kid), iss, aud and exp. The rest is ours, one function per
// claim below: sub, iat, azp, nonce and at_hash.
func (p *Provider) VerifyIDToken(ctx context.Context, e *Endpoints, raw, expectedNonce, accessToken string) (profile.Claims, error) {
	id := p.cfg.ID
	// Bound what reaches the JOSE parser (go-jose CVE-2025-27144).
	if len(raw) > maxIDTokenLen || strings.Count(raw, ".") != 2 {
		return nil, idTokenError(id, "malformed", errors.New("not a compact JWS of acceptable size"))
	}
	tok, err := e.verifier.Verify(ctx, raw)
	if err != nil {
		return nil, idTokenError(id, classifyOIDCError(err), err)
	}
	var claims profile.Claims
	if err := tok.Claims(&claims); err != nil {
		return nil, idTokenError(id, "malformed", err)
	}
	for _, check := range []func() (string, error){
		func() (string, error) { return checkTenantIssuer(e, claims) },
		func() (string, error) { return checkSub(claims) },
		func() (string, error) { return checkExp(claims) },
		func() (string, error) { return checkIAT(claims, time.Now(), p.skew, maxIDTokenAge) },
		func() (string, error) { return checkAZP(claims, tok.Audience, p.cfg.ClientID) },
		func() (string, error) { return checkNonce(claims, expectedNonce) },
		func() (string, error) { return checkAtHash(tok, accessToken, e.keys != nil && e.keys.hmacKey != nil) },
	} {
		if code, err := check(); err != nil {
			return nil, idTokenError(id, code, err)
		}
	}
	return claims, nil
}

// classifyOIDCError names a go-oidc verification failure.
func classifyOIDCError(err error) string {
	var expired *oidc.TokenExpiredError
	if errors.As(err, &expired) {
		return "expired"
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "issued by a different provider"):
		return "issuer"
	case strings.Contains(msg, "audience"):
		return "audience"
	case strings.Contains(msg, "unsupported algorithm"), strings.Contains(msg, "signing algorithm"):
		return "algorithm"
	case strings.Contains(msg, "jwks"):
		// The keys could not be fetched (keyset.go writes "jwks" in
		// lower case only in those errors).
		return "jwks"
	case strings.Contains(msg, "signature"), strings.Contains(msg, "key"):
		return "signature"
	case strings.Contains(msg, "malformed"):
		return "malformed"
	case strings.Contains(msg, "before the nbf"):
		return "not_yet_valid"
	}
	return "invalid"
}

// checkTenantIssuer: under a per-tenant issuer template (Microsoft's
// multi-tenant endpoints), iss must be the template filled with the
// token's tid; go-oidc's fixed-issuer check is off for these only.
func checkTenantIssuer(e *Endpoints, c profile.Claims) (string, error) {
	if !e.perTenant {
		return "", nil
	}
	want := tenantIssuer(e.Issuer, c.String("tid"))
	if want == "" || c.String("iss") != want {
		return "issuer", fmt.Errorf("the ID token's iss %q does not match its tenant %q", c.String("iss"), c.String("tid"))
	}
	return "", nil
}

// checkSub: sub is REQUIRED and must not be empty (Core §2; go-oidc
// accepts a missing sub, go-oidc issue #495).
func checkSub(c profile.Claims) (string, error) {
	if s, ok := c["sub"].(string); !ok || s == "" {
		return "sub_missing", errors.New("the ID token has no sub")
	}
	return "", nil
}

// checkExp: exp is REQUIRED (Core §2). go-oidc compared it already.
func checkExp(c profile.Claims) (string, error) {
	if _, ok := c["exp"].(float64); !ok {
		return "exp_missing", errors.New("the ID token has no numeric exp")
	}
	return "", nil
}

// checkIAT: iat is REQUIRED (Core §2); go-oidc does not look at it. It may
// not lie in the future beyond the clock skew, nor more than maxAge in the
// past, so that the token was minted for this exchange (Core §3.1.3.7
// step 10 leaves the bound to the client).
func checkIAT(c profile.Claims, now time.Time, skew, maxAge time.Duration) (string, error) {
	v, ok := c["iat"].(float64)
	if !ok {
		return "iat_missing", errors.New("the ID token has no numeric iat")
	}
	iat := time.Unix(int64(v), 0)
	if iat.After(now.Add(skew)) {
		return "iat_future", fmt.Errorf("the ID token was issued in the future (%s)", iat.UTC())
	}
	if iat.Before(now.Add(-maxAge - skew)) {
		return "iat_stale", fmt.Errorf("the ID token was issued too long ago (%s)", iat.UTC())
	}
	return "", nil
}

// checkAZP: with several audiences, azp must be present; when present it
// must be our client id (Core §3.1.3.7 steps 4 and 5; go-oidc skips it).
func checkAZP(c profile.Claims, aud []string, clientID string) (string, error) {
	azp, has := c["azp"].(string)
	if len(aud) > 1 && !has {
		return "azp_missing", errors.New("the ID token has several audiences and no azp")
	}
	if has && azp != clientID {
		return "azp", fmt.Errorf("the ID token's azp %q is not this client", azp)
	}
	return "", nil
}

// checkNonce: the nonce claim must equal the one sealed in the browser
// (Core §3.1.3.7 step 11). When the nonce check is off, a token carrying
// a nonce is refused anyway: nobody asked for one.
func checkNonce(c profile.Claims, expected string) (string, error) {
	got, has := c["nonce"].(string)
	if expected == "" {
		if has {
			return "nonce_unexpected", errors.New("the ID token carries a nonce that was not sent")
		}
		return "", nil
	}
	if err := checks.VerifyNonce(got, expected); err != nil {
		var ce *checks.Error
		errors.As(err, &ce)
		return ce.Code(), err
	}
	return "", nil
}

// checkAtHash: when the ID token has at_hash, it must match the access
// token (Core §3.2.2.9; it binds the two against token substitution).
func checkAtHash(tok *oidc.IDToken, accessToken string, hs256 bool) (string, error) {
	if tok.AccessTokenHash == "" {
		return "", nil
	}
	if hs256 {
		// go-oidc knows only asymmetric algorithms here; HS256 hashes
		// with SHA-256 like RS256 (Core §3.1.3.6).
		sum := sha256.Sum256([]byte(accessToken))
		if base64.RawURLEncoding.EncodeToString(sum[:16]) != tok.AccessTokenHash {
			return "at_hash", errors.New("at_hash does not match the access token")
		}
		return "", nil
	}
	if err := tok.VerifyAccessToken(accessToken); err != nil {
		return "at_hash", err
	}
	return "", nil
}
