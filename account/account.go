// Package account holds the token set a provider returns at sign-in and its
// reduction to the account record that links a user to that provider
// (the Auth.js "account" record).
//
// The default reduction keeps access_token, id_token, refresh_token,
// expires_at, scope, token_type and session_state. A provider's Callback may
// replace it, for example to add an absolute refresh-token expiry computed from
// a relative lifetime:
//
//	func(ctx context.Context, t account.TokenSet) (*account.TokenSet, error) {
//		kept := account.Default(t)
//		if s, ok := t.Extra["refresh_token_expires_in"].(float64); ok {
//			kept.Set("refresh_token_expires_at", time.Now().Unix()+int64(s))
//		}
//		return &kept, nil
//	}
package account

import (
	"context"
	"encoding/json"
	"maps"
	"time"
)

// TokenSet is what a provider's token endpoint answered, as received: the
// standard fields of RFC 6749 §5.1 and OpenID Connect Core §3.1.3.3 by name,
// everything else in Extra.
type TokenSet struct {
	AccessToken  string `json:"access_token,omitempty"`
	IDToken      string `json:"id_token,omitempty"`
	RefreshToken string `json:"refresh_token,omitempty"`
	// ExpiresAt is the access token's expiry in seconds since the epoch,
	// computed from expires_in when the provider sent that.
	ExpiresAt int64 `json:"expires_at,omitempty"`
	// ExpiresIn is the relative lifetime the provider sent, in seconds.
	// The default reduction drops it in favour of ExpiresAt.
	ExpiresIn    int64  `json:"expires_in,omitempty"`
	Scope        string `json:"scope,omitempty"`
	TokenType    string `json:"token_type,omitempty"`
	SessionState string `json:"session_state,omitempty"`
	// Extra holds every other member of the token response, and whatever
	// an account callback adds. Values are as encoding/json decodes them.
	Extra map[string]any `json:"-"`
}

// Set stores an extra property, creating Extra when needed.
func (t *TokenSet) Set(key string, value any) {
	if t.Extra == nil {
		t.Extra = make(map[string]any)
	}
	t.Extra[key] = value
}

// Expiry returns ExpiresAt as a time, or the zero time when it is unknown.
func (t TokenSet) Expiry() time.Time {
	if t.ExpiresAt == 0 {
		return time.Time{}
	}
	return time.Unix(t.ExpiresAt, 0)
}

var standardFields = map[string]bool{
	"access_token": true, "id_token": true, "refresh_token": true,
	"expires_at": true, "expires_in": true, "scope": true,
	"token_type": true, "session_state": true,
}

// MarshalJSON writes the standard fields and Extra as one flat object.
func (t TokenSet) MarshalJSON() ([]byte, error) {
	type plain TokenSet
	std, err := json.Marshal(plain(t))
	if err != nil || len(t.Extra) == 0 {
		return std, err
	}
	all := make(map[string]any, len(t.Extra)+8)
	for k, v := range t.Extra {
		if !standardFields[k] {
			all[k] = v
		}
	}
	if err := json.Unmarshal(std, &all); err != nil {
		return nil, err
	}
	return json.Marshal(all)
}

// UnmarshalJSON reads a token response. It accepts expires_in as a number or
// a numeric string (some providers send strings) and keeps unknown members
// in Extra. It does not compute ExpiresAt: see Normalize.
func (t *TokenSet) UnmarshalJSON(b []byte) error {
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	*t = TokenSet{}
	str := func(k string) string {
		s, _ := all[k].(string)
		delete(all, k)
		return s
	}
	num := func(k string) int64 {
		v := all[k]
		delete(all, k)
		switch n := v.(type) {
		case float64:
			return int64(n)
		case string:
			var f json.Number = json.Number(n)
			if i, err := f.Int64(); err == nil {
				return i
			}
		}
		return 0
	}
	t.AccessToken = str("access_token")
	t.IDToken = str("id_token")
	t.RefreshToken = str("refresh_token")
	t.Scope = str("scope")
	t.TokenType = str("token_type")
	t.SessionState = str("session_state")
	t.ExpiresAt = num("expires_at")
	t.ExpiresIn = num("expires_in")
	if len(all) > 0 {
		t.Extra = all
	}
	return nil
}

// Normalize fills ExpiresAt from ExpiresIn relative to now when the
// provider sent a lifetime and no absolute expiry.
func (t *TokenSet) Normalize(now time.Time) {
	if t.ExpiresAt == 0 && t.ExpiresIn > 0 {
		t.ExpiresAt = now.Unix() + t.ExpiresIn
	}
}

// Default is the default reduction of a token set to the properties stored
// on an account: access_token, id_token, refresh_token, expires_at, scope,
// token_type and session_state, as Auth.js keeps. Extra is dropped.
func Default(t TokenSet) TokenSet {
	return TokenSet{
		AccessToken:  t.AccessToken,
		IDToken:      t.IDToken,
		RefreshToken: t.RefreshToken,
		ExpiresAt:    t.ExpiresAt,
		Scope:        t.Scope,
		TokenType:    t.TokenType,
		SessionState: t.SessionState,
	}
}

// Callback reduces the full token set to the properties stored on the
// account (Auth.js's account callback). Returning nil keeps the default
// reduction; returning an error ends the sign-in with that error.
type Callback func(ctx context.Context, tokens TokenSet) (*TokenSet, error)

// Reduce applies cb, or the default reduction when cb is nil or returns nil.
func Reduce(ctx context.Context, cb Callback, tokens TokenSet) (TokenSet, error) {
	if cb != nil {
		in := tokens
		in.Extra = maps.Clone(tokens.Extra)
		out, err := cb(ctx, in)
		if err != nil {
			return TokenSet{}, err
		}
		if out != nil {
			return *out, nil
		}
	}
	return Default(tokens), nil
}

// Type is the kind of an account: how the user proved who they are.
type Type string

// Account types, as Auth.js stores them.
const (
	TypeOAuth       Type = "oauth"
	TypeOIDC        Type = "oidc"
	TypeEmail       Type = "email"
	TypeCredentials Type = "credentials"
	TypeWebAuthn    Type = "webauthn"
)

// Account links a user to one identity at one provider: the reduced token
// set plus who and where.
type Account struct {
	// UserID is the id of the linked user.
	UserID string `json:"userId"`
	// Type is the account type.
	Type Type `json:"type"`
	// Provider is the provider id.
	Provider string `json:"provider"`
	// ProviderAccountID is the user's stable id at the provider.
	ProviderAccountID string `json:"providerAccountId"`
	TokenSet
}

// MarshalJSON writes the account's own fields and its token set as one
// flat object (the embedded TokenSet's MarshalJSON would otherwise drop
// the account's fields).
func (a Account) MarshalJSON() ([]byte, error) {
	tokens, err := a.TokenSet.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var all map[string]any
	if err := json.Unmarshal(tokens, &all); err != nil {
		return nil, err
	}
	all["userId"] = a.UserID
	all["type"] = a.Type
	all["provider"] = a.Provider
	all["providerAccountId"] = a.ProviderAccountID
	return json.Marshal(all)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (a *Account) UnmarshalJSON(b []byte) error {
	var own struct {
		UserID            string `json:"userId"`
		Type              Type   `json:"type"`
		Provider          string `json:"provider"`
		ProviderAccountID string `json:"providerAccountId"`
	}
	if err := json.Unmarshal(b, &own); err != nil {
		return err
	}
	if err := a.TokenSet.UnmarshalJSON(b); err != nil {
		return err
	}
	for _, k := range []string{"userId", "type", "provider", "providerAccountId"} {
		delete(a.Extra, k)
	}
	if len(a.Extra) == 0 {
		a.Extra = nil
	}
	a.UserID, a.Type, a.Provider, a.ProviderAccountID = own.UserID, own.Type, own.Provider, own.ProviderAccountID
	return nil
}
