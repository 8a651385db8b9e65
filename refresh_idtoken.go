package gatehouse

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// checkRefreshedIDToken applies OpenID Connect Core §12.2 to the ID token
// of a refresh answer: it is verified like the sign-in's (signature, iss,
// aud, exp, iat, azp, at_hash), and its iss, sub and aud must be those of
// the ID token it replaces, as must auth_time when both have it. A refresh
// that fails here is refused whole: the caller keeps the old tokens.
//
// The old ID token is the stored one (an adapter keeps it). With the JWT
// strategy the session cookie does not keep it, and only the checks
// against the provider's issuer and the client_id are made.
func (p *providerRuntime) checkRefreshedIDToken(ctx context.Context, e *endpoints, old, fresh account.TokenSet) error {
	if fresh.IDToken == "" || fresh.IDToken == old.IDToken {
		return nil
	}
	id := p.cfg.ID
	fail := func(code string, err error) error {
		return &Error{Type: InvalidIDToken, Code: code, Provider: id, Step: "refresh", Err: err}
	}
	if e.verifier == nil {
		if p.cfg.Type == providers.TypeOIDC {
			return fail("unverifiable", errors.New("no keys to verify the refreshed ID token"))
		}
		return nil // OAuth 2.0 without keys: the ID token is not used
	}
	before, _ := unverifiedClaims(old.IDToken) // verified at sign-in; nil if absent
	// Core §12.2: the new ID token SHOULD NOT have a nonce. Some providers
	// repeat the sign-in's; accept exactly that one, and no other.
	nonce := ""
	if now, _ := unverifiedClaims(fresh.IDToken); now != nil && before != nil && now.String("nonce") != "" && now.String("nonce") == before.String("nonce") {
		nonce = before.String("nonce")
	}
	after, err := p.verifyIDToken(ctx, e, fresh.IDToken, nonce, fresh.AccessToken)
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) {
			return fail(ge.Code, ge.Err)
		}
		return fail("invalid", err)
	}
	if before == nil {
		return nil
	}
	for _, claim := range []string{"iss", "sub"} {
		if after.String(claim) != before.String(claim) {
			return fail("refresh_"+claim, fmt.Errorf("the refreshed ID token's %s %q differs from the sign-in's %q (Core §12.2)", claim, after.String(claim), before.String(claim)))
		}
	}
	if a, b := audiences(after["aud"]), audiences(before["aud"]); !slices.Equal(a, b) {
		return fail("refresh_aud", fmt.Errorf("the refreshed ID token's aud %v differs from the sign-in's %v (Core §12.2)", a, b))
	}
	if at, ok := after["auth_time"]; ok {
		if bt, had := before["auth_time"]; had && at != bt {
			return fail("refresh_auth_time", fmt.Errorf("the refreshed ID token's auth_time %v differs from the sign-in's %v (Core §12.2)", at, bt))
		}
	}
	return nil
}

// unverifiedClaims decodes the claims of a compact JWS without checking
// it: only for an ID token that was verified when it was stored.
func unverifiedClaims(raw string) (profile.Claims, error) {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 || len(raw) > maxIDTokenLen {
		return nil, errors.New("not a compact JWS")
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, err
	}
	var c profile.Claims
	if err := json.Unmarshal(payload, &c); err != nil {
		return nil, err
	}
	return c, nil
}

// audiences returns an aud claim (a string or a list) as a sorted list.
func audiences(v any) []string {
	var out []string
	switch a := v.(type) {
	case string:
		out = []string{a}
	case []any:
		for _, x := range a {
			s, _ := x.(string)
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}
