package authtest

import (
	"fmt"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
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
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: p.alg, Key: key.Key}, opts)
	if err != nil {
		return "", fmt.Errorf("authtest: signer: %w", err)
	}
	tok, err := jwt.Signed(signer).Claims(c).Serialize()
	if err != nil {
		return "", fmt.Errorf("authtest: signing the logout token: %w", err)
	}
	return tok, nil
}
