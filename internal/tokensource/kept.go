package tokensource

import (
	"encoding/json"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
)

// Claim is the session token claim the root package's KeepTokens writes.
const Claim = "provider_tokens"

// Kept is what the JWT strategy keeps of an account's tokens in the
// session cookie: enough to call and refresh, not the ID token (cookies
// stay small).
type Kept struct {
	Provider     string `json:"provider"`
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token,omitempty"`
	ExpiresAt    int64  `json:"expires_at,omitempty"`
	TokenType    string `json:"token_type,omitempty"`
	Scope        string `json:"scope,omitempty"`
	// IDRef holds the sign-in's ID token claims that a refreshed ID
	// token must repeat (OIDC Core §12.2): internal/rp.
	IDRef *rp.IDRef `json:"id_ref,omitempty"`
}

// Keep returns a copy of a session token's extra claims with the tokens
// ts of provider kept under Claim.
func Keep(extra map[string]any, provider string, ts account.TokenSet, ref *rp.IDRef) map[string]any {
	out := make(map[string]any, len(extra)+1)
	for k, v := range extra {
		out[k] = v
	}
	out[Claim] = Kept{Provider: provider, AccessToken: ts.AccessToken, RefreshToken: ts.RefreshToken,
		ExpiresAt: ts.ExpiresAt, TokenType: ts.TokenType, Scope: ts.Scope, IDRef: ref}
	return out
}

// KeptIn returns the tokens kept in a session token's extra claims: a
// Kept value when the token was just made, its JSON form when decoded.
func KeptIn(extra map[string]any) (Kept, bool) {
	v, ok := extra[Claim]
	if !ok {
		return Kept{}, false
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return Kept{}, false
	}
	var k Kept
	if json.Unmarshal(raw, &k) != nil || k.AccessToken == "" {
		return Kept{}, false
	}
	return k, true
}

// TokenSet returns the kept tokens as a token set.
func (k Kept) TokenSet() account.TokenSet {
	return account.TokenSet{AccessToken: k.AccessToken, RefreshToken: k.RefreshToken, ExpiresAt: k.ExpiresAt, TokenType: k.TokenType, Scope: k.Scope}
}
