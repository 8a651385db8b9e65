// Package session holds what a Gatehouse session is: the Token a JWT
// session cookie carries, the Session the application sees, and what the
// JWT and Session callbacks that shape them are told. The root package
// names them too (gatehouse.Token is session.Token, and so on); most
// programs never import this package.
package session

import (
	"encoding/json"
	"maps"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Token is the content of a JWT-strategy session cookie: the claims
// Auth.js writes (sub, name, email, picture, iat, exp, jti) plus whatever
// the JWT callback adds in Extra.
type Token struct {
	Subject  string `json:"sub"`
	Name     string `json:"name,omitempty"`
	Email    string `json:"email,omitempty"`
	Picture  string `json:"picture,omitempty"`
	IssuedAt int64  `json:"iat"`
	Expires  int64  `json:"exp"`
	ID       string `json:"jti"`
	// Provider is the id of the provider the user signed in with.
	Provider string `json:"provider,omitempty"`
	// AuthTime is when the user signed in (OpenID Connect's auth_time):
	// unlike IssuedAt it does not move when the token is renewed, so it
	// tells a fresh session (SessionConfig.FreshAge) from an old one.
	AuthTime int64 `json:"auth_time,omitempty"`
	// Organization is the id of the active organization (package
	// organization), "" for none.
	Organization string `json:"org,omitempty"`
	// AuthTimeMicro is AuthTime in microseconds, written when bans are on
	// (gatehouse.Config.Admin): a revocation refuses the sessions signed
	// in before it, to the microsecond.
	AuthTimeMicro int64 `json:"auth_time_us,omitempty"`
	// Extra holds other claims, written at the top level of the token.
	Extra map[string]any `json:"-"`
}

// User returns the signed-in user the token describes.
func (t Token) User() profile.User {
	return profile.User{ID: t.Subject, Name: t.Name, Email: t.Email, Image: t.Picture}
}

func tokenClaim(k string) bool {
	switch k {
	case "sub", "name", "email", "picture", "iat", "exp", "jti", "provider", "auth_time", "org":
		return true
	}
	return false
}

// MarshalJSON writes the claims and Extra as one flat object.
func (t Token) MarshalJSON() ([]byte, error) {
	type plain Token
	std, err := json.Marshal(plain(t))
	if err != nil || len(t.Extra) == 0 {
		return std, err
	}
	all := make(map[string]any, len(t.Extra)+8)
	for k, v := range t.Extra {
		if !tokenClaim(k) {
			all[k] = v
		}
	}
	if err := json.Unmarshal(std, &all); err != nil {
		return nil, err
	}
	return json.Marshal(all)
}

// UnmarshalJSON reads the claims, keeping unknown ones in Extra.
func (t *Token) UnmarshalJSON(b []byte) error {
	type plain Token
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*t = Token(p)
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for k, v := range all {
		if tokenClaim(k) {
			continue
		}
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return err
		}
		if t.Extra == nil {
			t.Extra = map[string]any{}
		}
		t.Extra[k] = x
	}
	return nil
}

// Session is what the application sees of a signed-in user: GET
// {base}/session answers it as JSON, gatehouse.SessionFrom returns it.
type Session struct {
	User    profile.User `json:"user"`
	Expires time.Time    `json:"expires"`
	// ActiveOrganizationID is the organization the session works in
	// (package organization), "" for none; the JSON holds it as
	// activeOrganizationId when set.
	ActiveOrganizationID string `json:"-"`
	// ImpersonatedBy is the id of the administrator who sees the
	// application as this user (gatehouse.Config.Admin), "" for a user's
	// own session; the JSON has it as impersonatedBy when not "".
	ImpersonatedBy string `json:"impersonatedBy,omitempty"`
	// Extra holds what the Session callback adds, written at the top
	// level of the JSON.
	Extra map[string]any `json:"-"`
}

// MarshalJSON writes user, expires (ISO 8601) and Extra as one object.
func (s Session) MarshalJSON() ([]byte, error) {
	all := make(map[string]any, len(s.Extra)+2)
	maps.Copy(all, s.Extra)
	all["user"] = s.User
	if s.ActiveOrganizationID != "" {
		all["activeOrganizationId"] = s.ActiveOrganizationID
	}
	all["expires"] = s.Expires.UTC().Format(time.RFC3339Nano)
	if s.ImpersonatedBy != "" {
		all["impersonatedBy"] = s.ImpersonatedBy
	}
	return json.Marshal(all)
}

// JWTParams is what the JWT callback sees. User, Account and Profile are
// set only at sign-in (Trigger "signIn" or "signUp"); Session only on an
// update (Trigger "update").
type JWTParams struct {
	Token     Token
	User      *profile.User
	Account   *account.Account
	Profile   any
	Trigger   string
	IsNewUser bool
	Session   map[string]any
}

// SessionParams is what the Session callback sees.
type SessionParams struct {
	Session Session
	// Token is the decoded session token (JWT strategy).
	Token *Token
	// User is the stored user (database strategy).
	User *adapter.User
	// NewSession is the data of an update (POST {base}/session).
	NewSession map[string]any
	Trigger    string
}
