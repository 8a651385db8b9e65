package rp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// IDRef is what OpenID Connect Core §12.2 compares a refreshed ID token
// with: claims of the ID token of the sign-in. With an adapter it comes
// from the stored ID token; with JWT sessions it is kept beside the
// tokens in the session cookie (keptTokens), where the ID token itself
// would make the cookie too large.
type IDRef struct {
	Iss      string   `json:"iss"`
	Sub      string   `json:"sub"`
	Aud      []string `json:"aud"`
	Azp      string   `json:"azp,omitempty"`
	AuthTime string   `json:"auth_time,omitempty"` // as JSON text: compared, never computed with
	Nonce    string   `json:"nonce,omitempty"`
}

// IDRefOf returns the reference claims of raw, an ID token verified when
// it was received, or nil when there is none.
func IDRefOf(raw string) *IDRef {
	if raw == "" {
		return nil
	}
	c, err := UnverifiedClaims(raw)
	if err != nil {
		return nil
	}
	r := &IDRef{Iss: c.String("iss"), Sub: c.String("sub"), Aud: audiences(c["aud"]), Azp: c.String("azp"), Nonce: c.String("nonce")}
	if at, ok := c["auth_time"]; ok {
		b, _ := json.Marshal(at)
		r.AuthTime = string(b)
	}
	return r
}

// checkRefreshedIDToken applies OpenID Connect Core §12.2 to the ID token
// of a refresh answer: it is verified like the sign-in's (signature, iss,
// aud, exp, iat, azp, at_hash), and its iss, sub, aud and azp must be
// those of the sign-in's ID token (ref), as must auth_time when both have
// it. Its nonce must be absent (§12.2: it SHOULD NOT be there) or the
// sign-in's (some providers, node oidc-provider among them, repeat it);
// any other is refused. A refresh that fails here is refused whole.
//
// ref is nil only for a session made before references were kept: then
// only the checks against the provider's issuer and client_id are made.
func (p *Provider) checkRefreshedIDToken(ctx context.Context, e *Endpoints, ref *IDRef, fresh account.TokenSet) error {
	if fresh.IDToken == "" {
		return nil
	}
	id := p.cfg.ID
	fail := func(code string, err error) error {
		return autherr.New(autherr.InvalidIDToken, code, id, "refresh", err)
	}
	if e.verifier == nil {
		if p.cfg.Type == providers.TypeOIDC {
			return fail("unverifiable", errors.New("no keys to verify the refreshed ID token"))
		}
		return nil // OAuth 2.0 without keys: the ID token is not used
	}
	// The nonce the verification expects: the sign-in's when the new
	// token repeats it, else none (so that any other nonce is refused).
	nonce := ""
	if now, _ := UnverifiedClaims(fresh.IDToken); now != nil && ref != nil && now.String("nonce") != "" && now.String("nonce") == ref.Nonce {
		nonce = ref.Nonce
	}
	if _, err := p.VerifyIDToken(ctx, e, fresh.IDToken, nonce, fresh.AccessToken); err != nil {
		var ge *autherr.Error
		if errors.As(err, &ge) {
			return fail(ge.Code, ge.Err)
		}
		return fail("invalid", err)
	}
	if ref == nil {
		return nil
	}
	got := IDRefOf(fresh.IDToken)
	for _, c := range []struct{ claim, now, then string }{
		{"iss", got.Iss, ref.Iss}, {"sub", got.Sub, ref.Sub}, {"azp", got.Azp, ref.Azp},
	} {
		if c.now != c.then {
			return fail("refresh_"+c.claim, fmt.Errorf("the refreshed ID token's %s %q differs from the sign-in's %q (Core §12.2)", c.claim, c.now, c.then))
		}
	}
	if !slices.Equal(got.Aud, ref.Aud) {
		return fail("refresh_aud", fmt.Errorf("the refreshed ID token's aud %v differs from the sign-in's %v (Core §12.2)", got.Aud, ref.Aud))
	}
	if got.AuthTime != "" && ref.AuthTime != "" && got.AuthTime != ref.AuthTime {
		return fail("refresh_auth_time", fmt.Errorf("the refreshed ID token's auth_time %s differs from the sign-in's %s (Core §12.2)", got.AuthTime, ref.AuthTime))
	}
	return nil
}

// UnverifiedClaims decodes the claims of a compact JWS without checking
// it: only for an ID token that was verified when it was stored.
func UnverifiedClaims(raw string) (profile.Claims, error) {
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
