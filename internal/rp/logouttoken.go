package rp

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/profile"
)

// backchannelEvent is the member a logout token's events claim must have
// (Back-Channel Logout 1.0 §2.4).
const backchannelEvent = "http://schemas.openid.net/event/backchannel-logout"

// maxLogoutTokenAge bounds how old (by iat) a logout token may be.
const maxLogoutTokenAge = 10 * time.Minute

// VerifyLogoutToken checks a logout token (Back-Channel Logout 1.0 §2.6):
// signature, iss (a per-tenant one too), aud, exp, iat and azp as for an
// ID token (the same keys, algorithms, JWKS refetch budget and checks,
// iat bounded by maxLogoutTokenAge), then events, sub or
// sid, no nonce (so an ID token is never taken for a logout token), and a
// jti not seen before within the token's lifetime.
func (p *Provider) VerifyLogoutToken(ctx context.Context, e *Endpoints, raw string, now time.Time) (profile.Claims, error) {
	// Bound what reaches the JOSE parser, as for an ID token.
	if len(raw) > maxIDTokenLen || strings.Count(raw, ".") != 2 {
		return nil, errors.New("not a compact JWS of acceptable size")
	}
	tok, err := e.verifier.Verify(ctx, raw)
	if err != nil {
		return nil, err
	}
	var c profile.Claims
	if err := tok.Claims(&c); err != nil {
		return nil, err
	}
	for _, check := range []func() (string, error){
		func() (string, error) { return checkTenantIssuer(e, c) },
		func() (string, error) { return checkIAT(c, now, p.skew, maxLogoutTokenAge) },
		func() (string, error) { return checkAZP(c, tok.Audience, p.cfg.ClientID) },
	} {
		if _, err := check(); err != nil {
			return nil, err
		}
	}
	events, _ := c["events"].(map[string]any)
	if _, ok := events[backchannelEvent].(map[string]any); !ok {
		return nil, errors.New("events has no back-channel logout event")
	}
	if _, has := c["nonce"]; has {
		return nil, errors.New("a logout token must not have a nonce")
	}
	if c.String("sub") == "" && c.String("sid") == "" {
		return nil, errors.New("neither sub nor sid")
	}
	jti := c.String("jti")
	if jti == "" {
		return nil, errors.New("no jti")
	}
	if !p.logoutJTIs.Add(tok.Issuer+"\x00"+jti, struct{}{}, tok.Expiry.Add(p.skew), now) {
		return nil, errors.New("jti replayed")
	}
	return c, nil
}

// maxLogoutJTIs bounds the logout tokens remembered (Back-Channel Logout
// 1.0 §2.6 step 10: each is used once). The log refuses new tokens when
// full of unexpired ones, rather than forget one (bounded.Map.Add).
const maxLogoutJTIs = 100000
