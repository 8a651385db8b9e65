// Package bankidno is the built-in BankID Norge provider (OpenID Connect,
// issuer https://auth.bankid.no/auth/realms/prod, endpoints from
// discovery).
//
//	p := bankidno.New(providers.OIDCUserConfig[bankidno.Profile]{
//		ClientID:     os.Getenv("AUTH_BANKID_NO_ID"),
//		ClientSecret: os.Getenv("AUTH_BANKID_NO_SECRET"),
//	})
//
// BankID puts the e-mail address in the userinfo answer only, not in the
// ID token, and answers userinfo with a signed JWT (application/jwt)
// rather than JSON. Auth.js declares this with idToken: false and
// userinfo_signed_response_alg RS256, which its core leaves to the
// underlying client; here FetchProfile reads that JWT itself. For testing
// against BankID's pre-production environment, set Issuer to
// PreprodIssuer.
package bankidno

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "bankid-no"
	// Name is the display name.
	Name = "BankID Norge"
	// Issuer is BankID's production issuer; the endpoints come from its
	// discovery document.
	Issuer = "https://auth.bankid.no/auth/realms/prod"
	// PreprodIssuer is BankID's pre-production (test) issuer.
	PreprodIssuer = "https://auth.current.bankid.no/auth/realms/current"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
	// UILocales asks for BankID's pages in Norwegian.
	UILocales = "no"
	// LoginHint pre-selects the BankID method, as Auth.js does; override
	// login_hint in the authorization params to offer another.
	LoginHint = "BIS"
)

// Profile is the claims BankID returns about the user, from the ID token
// and the userinfo JWT. Which are present depends on the scopes granted.
type Profile struct {
	// Sub is the user's id at BankID (a UUID, stable per user).
	Sub string `json:"sub"`
	// Name is the user's full name.
	Name string `json:"name,omitempty"`
	// GivenName is the user's given names.
	GivenName string `json:"given_name,omitempty"`
	// FamilyName is the user's surname.
	FamilyName string `json:"family_name,omitempty"`
	// Birthdate is the user's date of birth, YYYY-MM-DD.
	Birthdate string `json:"birthdate,omitempty"`
	// Email is the user's address (email scope; userinfo only).
	Email string `json:"email,omitempty"`
	// PhoneNumber is the user's phone number (phone scope; userinfo only).
	PhoneNumber string `json:"phone_number,omitempty"`
	// NNIN is the Norwegian national identity number (nnin scope).
	NNIN string `json:"nnin,omitempty"`
	// Iss is the issuer of the token the claims came from.
	Iss string `json:"iss,omitempty"`
}

// New returns the BankID Norge provider configuration with opts laid over
// its defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option: the issuer,
// the scope with ui_locales and login_hint, the checks (pkce, state and
// nonce), client_secret_post, FetchProfile, MapProfile and the button
// style.
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#39134c"})
	c.Authorization.Params["ui_locales"] = UILocales
	c.Authorization.Params["login_hint"] = LoginHint
	c.Userinfo.Request = FetchProfile
	c.Checks = []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	c.Profile = MapProfile
	return c
}

// FetchProfile is the userinfo handler: a GET of r.URL (the discovered
// userinfo endpoint) with the access token as a Bearer token. BankID
// answers a signed JWT; a plain JSON answer is accepted too.
//
// The JWT's claims are read without checking its signature: the answer
// comes straight from BankID over TLS, which OpenID Connect Core §5.3.4
// requires and which already authenticates it (the signature check is a
// SHOULD). What §5.3.4 does require is checked: the sub of the answer must
// equal the ID token's. Encrypted (JWE) answers are refused.
func FetchProfile(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	if r.URL == "" {
		return Profile{}, errors.New("bankid-no: no userinfo endpoint (it comes from discovery)")
	}
	c := r.HTTPClient
	if c == nil {
		c = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return Profile{}, err
	}
	req.Header.Set("Accept", "application/jwt, application/json")
	req.Header.Set("Authorization", "Bearer "+r.Tokens.AccessToken)
	resp, err := c.Do(req)
	if err != nil {
		return Profile{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, providers.MaxResponseBytes+1))
	if err != nil {
		return Profile{}, fmt.Errorf("bankid-no: reading userinfo: %w", err)
	}
	if len(raw) > providers.MaxResponseBytes {
		return Profile{}, fmt.Errorf("bankid-no: userinfo answer larger than %d bytes", providers.MaxResponseBytes)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Profile{}, &providers.HTTPError{URL: r.URL, StatusCode: resp.StatusCode, Body: string(raw)}
	}
	var p Profile
	if err := decodeUserinfo(raw, &p); err != nil {
		return Profile{}, fmt.Errorf("bankid-no: userinfo: %w", err)
	}
	if p.Sub == "" {
		return Profile{}, errors.New("bankid-no: userinfo has no sub")
	}
	if r.Tokens.IDToken != "" {
		var id struct {
			Sub string `json:"sub"`
		}
		if err := decodeUserinfo([]byte(r.Tokens.IDToken), &id); err != nil {
			return Profile{}, fmt.Errorf("bankid-no: reading the ID token's sub: %w", err)
		}
		if id.Sub != p.Sub {
			return Profile{}, errors.New("bankid-no: userinfo sub differs from the ID token's")
		}
	}
	return p, nil
}

// decodeUserinfo reads a JSON object, or the payload of a compact JWS
// (header.payload.signature), into v.
func decodeUserinfo(raw []byte, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		return json.Unmarshal(raw, v)
	}
	parts := strings.Split(string(raw), ".")
	switch len(parts) {
	case 3:
	case 5:
		return errors.New("the answer is an encrypted JWT (JWE), which is not supported")
	default:
		return errors.New("the answer is neither JSON nor a JWT")
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return fmt.Errorf("JWT payload: %w", err)
	}
	return json.Unmarshal(payload, v)
}

// MapProfile maps BankID claims to a user: id ← sub, name ← name, email ←
// email when present, no image. BankID does not assert that the address
// is verified, so EmailVerified stays nil.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.Sub, Name: p.Name, Email: p.Email}, ID, "claims have no sub")
}
