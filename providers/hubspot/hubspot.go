// Package hubspot is the built-in HubSpot provider (OAuth 2.0). HubSpot has
// no user endpoint: the profile is the access token's metadata, read from
// GET <UserinfoURL>/<access token>, which FetchProfile does.
//
//	p := hubspot.New(providers.OAuthUserConfig[hubspot.Profile]{
//		ClientID:     os.Getenv("AUTH_HUBSPOT_ID"),
//		ClientSecret: os.Getenv("AUTH_HUBSPOT_SECRET"),
//	})
//
// Auth.js also adds client_id to the authorization parameters; the
// authorization request always carries it, so it is not repeated here.
package hubspot

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "hubspot"
	// Name is the display name.
	Name = "HubSpot"
	// AuthorizationURL is where the user signs in and picks an account.
	AuthorizationURL = "https://app.hubspot.com/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_post).
	TokenURL = "https://api.hubapi.com/oauth/v1/token"
	// UserinfoURL is the access-token metadata endpoint; the token itself
	// is the last path segment.
	UserinfoURL = "https://api.hubapi.com/oauth/v1/access-tokens"
	// Scope is the minimal scope of a HubSpot app.
	Scope = "oauth"
)

// Profile is the answer of GET /oauth/v1/access-tokens/<token>: who the
// token belongs to and what it grants.
type Profile struct {
	// UserID is the user's numeric HubSpot id.
	UserID int64 `json:"user_id"`
	// User is the user's e-mail address.
	User string `json:"user"`
	// HubID is the id of the HubSpot account (portal) the user picked.
	HubID int64 `json:"hub_id,omitempty"`
	// HubDomain is that account's domain.
	HubDomain string `json:"hub_domain,omitempty"`
	// AppID is the id of the app the token was issued to.
	AppID int64 `json:"app_id,omitempty"`
	// Scopes are the scopes granted.
	Scopes []string `json:"scopes,omitempty"`
	// ExpiresIn is the token's remaining lifetime in seconds.
	ExpiresIn int64 `json:"expires_in,omitempty"`
	// TokenType is "access".
	TokenType string `json:"token_type,omitempty"`
}

// New returns the HubSpot provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the HubSpot configuration before any user option: the
// endpoints, the scope, the default checks (pkce), client_secret_post,
// FetchProfile, MapProfile and the button style.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#ff7a59"})
	c.Userinfo.Request = FetchProfile
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// FetchProfile is the userinfo handler: a GET of r.URL (UserinfoURL when
// empty) with the access token appended as a path segment. Errors never
// carry the token: it is replaced by "<access_token>" in their text.
func FetchProfile(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	base := r.URL
	if base == "" {
		base = UserinfoURL
	}
	tok := r.Tokens.AccessToken
	if tok == "" {
		return Profile{}, errors.New("hubspot: no access token")
	}
	base = strings.TrimRight(base, "/")
	var p Profile
	err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, base+"/"+url.PathEscape(tok), "", nil, nil, &p)
	if err != nil {
		return Profile{}, redact(err, tok, base+"/<access_token>")
	}
	return p, nil
}

// redact removes tok from err: from the URL of an HTTP error or a
// transport error, and from the text of any other.
func redact(err error, tok, redactedURL string) error {
	err = providers.MaskURL(err, redactedURL)
	if msg := err.Error(); strings.Contains(msg, tok) || strings.Contains(msg, url.PathEscape(tok)) {
		msg = strings.ReplaceAll(msg, url.PathEscape(tok), "<access_token>")
		return &redactedError{msg: strings.ReplaceAll(msg, tok, "<access_token>"), err: err}
	}
	return err
}

// redactedError is an error whose text had the access token removed.
type redactedError struct {
	msg string
	err error
}

// Error returns the redacted text.
func (e *redactedError) Error() string { return e.msg }

// Unwrap returns the original error, for errors.Is and errors.As.
func (e *redactedError) Unwrap() error { return e.err }

// MapProfile maps HubSpot token metadata to a user: id ← user_id (as a
// string), name ← user, email ← user (HubSpot gives only the address), no
// image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: providers.FormatID(p.UserID), Name: p.User, Email: p.User}, ID, "profile has no user_id")
}
