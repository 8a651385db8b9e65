package gatehouse

import (
	"context"
	"encoding/json"
	"maps"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
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
	// Extra holds other claims, written at the top level of the token.
	Extra map[string]any `json:"-"`
}

// user is the signed-in user a token describes.
func (t Token) user() profile.User {
	return profile.User{ID: t.Subject, Name: t.Name, Email: t.Email, Image: t.Picture}
}

var tokenClaims = map[string]bool{"sub": true, "name": true, "email": true, "picture": true, "iat": true, "exp": true, "jti": true, "provider": true}

// MarshalJSON writes the claims and Extra as one flat object.
func (t Token) MarshalJSON() ([]byte, error) {
	type plain Token
	std, err := json.Marshal(plain(t))
	if err != nil || len(t.Extra) == 0 {
		return std, err
	}
	all := make(map[string]any, len(t.Extra)+8)
	for k, v := range t.Extra {
		if !tokenClaims[k] {
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
		if tokenClaims[k] {
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
// {base}/session answers it as JSON, SessionFrom returns it.
type Session struct {
	User    profile.User `json:"user"`
	Expires time.Time    `json:"expires"`
	// Extra holds what the Session callback adds, written at the top
	// level of the JSON.
	Extra map[string]any `json:"-"`
}

// MarshalJSON writes user, expires (ISO 8601) and Extra as one object.
func (s Session) MarshalJSON() ([]byte, error) {
	all := make(map[string]any, len(s.Extra)+2)
	maps.Copy(all, s.Extra)
	all["user"] = s.User
	all["expires"] = s.Expires.UTC().Format(time.RFC3339Nano)
	return json.Marshal(all)
}

// withTimeout is a small helper for adapter calls made on the hot path.
func withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, 5*time.Second)
}

// sessionCodec seals and opens the session cookie's Token
// (internal/sessioncookie): one per secure mode, since the cookie's name
// is the key derivation's salt.
type sessionCodec = sessioncookie.Codec[Token]

func newSessionCodec(secrets []string, cookie string) (*sessionCodec, error) {
	return sessioncookie.NewCodec(secrets, cookie,
		// A token with no subject is not a session (a check cookie pasted
		// into the session slot would look so, CVE-2023-48309).
		func(t Token) (time.Time, bool) { return time.Unix(t.Expires, 0), t.Subject != "" && t.Expires != 0 },
		// Extra is shared with the codec's cache: hand out a copy.
		func(t Token) Token { t.Extra = maps.Clone(t.Extra); return t })
}
