package authtest

import (
	"time"

	"github.com/go-jose/go-jose/v4"
)

// BackChannelLogoutEvent is the member of a logout token's events claim
// (OpenID Connect Back-Channel Logout 1.0 §2.4).
const BackChannelLogoutEvent = "http://schemas.openid.net/event/backchannel-logout"

// LogoutToken returns a logout token (Back-Channel Logout 1.0 §2.4) signed
// with the provider's current key, typed "logout+jwt", for the user with
// subject sub. The claims iss, aud (the client), iat, exp (two minutes
// on), a random jti and events are filled in; claims overrides or adds to
// them, and a claim set to nil in claims is left out, so that tests can
// make broken tokens. The caller posts it to the client's back-channel
// logout URI as the form parameter logout_token.
func (p *Provider) LogoutToken(sub string, claims map[string]any) (string, error) {
	now := time.Now()
	c := map[string]any{
		"iss":    p.issuer,
		"aud":    p.clientID,
		"iat":    now.Unix(),
		"exp":    now.Add(2 * time.Minute).Unix(),
		"jti":    randomToken(),
		"events": map[string]any{BackChannelLogoutEvent: map[string]any{}},
	}
	if sub != "" {
		c["sub"] = sub
	}
	for k, v := range claims {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	p.mu.Lock()
	key := p.key
	p.mu.Unlock()
	opts := (&jose.SignerOptions{}).WithType("logout+jwt").WithHeader("kid", key.KeyID)
	return signJWT(jose.SigningKey{Algorithm: p.alg, Key: key.Key}, opts, c, "logout token")
}
