package bearer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// introspect asks the issuer's RFC 7662 introspection endpoint about an
// opaque token and checks its answer as it would a JWT's claims.
func (v *Verifier) introspect(ctx context.Context, token string, now time.Time) (*Token, error) {
	_, endpoint, err := v.endpoints(ctx, now)
	if err != nil {
		return nil, err
	}
	if endpoint == "" {
		return nil, fmt.Errorf("bearer: %w: the issuer's metadata has no introspection_endpoint", ErrUnavailable)
	}
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	// RFC 7662 §2.1: the token goes in a form body, never in the URL.
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("bearer: %w: %w", ErrUnavailable, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	// RFC 6749 §2.3.1: id and secret are form-encoded before Basic.
	in := v.cfg.Introspection
	req.SetBasicAuth(url.QueryEscape(in.ClientID), url.QueryEscape(in.ClientSecret))
	body, _, err := v.do(req)
	if err != nil {
		return nil, err
	}
	var c claims
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("bearer: %w: introspection answer: %v", ErrUnavailable, err)
	}
	// RFC 7662 §2.2: active is the answer; everything else is optional,
	// but what is there is checked like a JWT's claims.
	if !c.Active {
		return nil, fmt.Errorf("bearer: %w", ErrInactive)
	}
	if err := v.checkClaims(&c, now, false); err != nil {
		return nil, err
	}
	t := c.token(body)
	t.Introspected = true
	return t, nil
}
