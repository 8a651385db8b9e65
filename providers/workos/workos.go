// Package workos is the built-in WorkOS provider (OAuth 2.0 for WorkOS
// SSO): its endpoints, the SSO profile record, and the mapping of that
// record to a user.
//
// WorkOS needs to know which connection to sign in with: set one of the
// connection, organization or provider authorization parameters, in
// Authorization.Params or per sign-in. The endpoints are under
// https://api.workos.com/; a WorkOS custom authentication domain can be
// given as the Issuer option instead.
//
//	p := workos.New(providers.OAuthUserConfig[workos.Profile]{
//		ClientID:     os.Getenv("AUTH_WORKOS_ID"),
//		ClientSecret: os.Getenv("AUTH_WORKOS_SECRET"),
//		Authorization: providers.AuthorizationEndpoint{
//			Params: map[string]string{"connection": "conn_01E4ZCR3C56J083X43JQXF3JK5"},
//		},
//	})
package workos

import (
	"context"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts. The endpoints are paths under the base URL.
const (
	// ID is the provider id, part of its URLs.
	ID = "workos"
	// Name is the display name.
	Name = "WorkOS"
	// BaseURL is the default base URL of WorkOS's API.
	BaseURL = "https://api.workos.com"
	// AuthorizationPath is where the user is sent to their identity
	// provider.
	AuthorizationPath = "/sso/authorize"
	// TokenPath exchanges the code for tokens, with the client credentials
	// in the form (client_secret_post).
	TokenPath = "/sso/token"
	// UserinfoPath answers the Profile to a Bearer GET.
	UserinfoPath = "/sso/profile"
)

// Profile is a WorkOS SSO profile.
type Profile struct {
	// Object is "profile".
	Object string `json:"object"`
	// ID is the profile's unique id, "prof_…".
	ID string `json:"id"`
	// IDPID is the user's id at the identity provider.
	IDPID string `json:"idp_id"`
	// ConnectionID is the connection signed in with, "conn_…".
	ConnectionID string `json:"connection_id"`
	// ConnectionType is the kind of connection, e.g. "OktaSAML".
	ConnectionType string `json:"connection_type"`
	// OrganizationID is the user's organization, "org_…".
	OrganizationID string `json:"organization_id"`
	// Email is the user's e-mail address.
	Email string `json:"email"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name"`
	// LastName is the user's last name.
	LastName string `json:"last_name"`
	// RawAttributes are the identity provider's own attributes.
	RawAttributes map[string]any `json:"raw_attributes,omitempty"`
}

// New returns the WorkOS provider configuration with opts laid over its
// defaults by providers.Merge. When opts.Issuer is set it replaces BaseURL.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	base := opts.Issuer
	if base == "" {
		base = BaseURL
	}
	return providers.Merge(Defaults(base), opts)
}

// Defaults returns the configuration for the API at baseURL (a trailing
// slash is allowed) before any user option. It sets no scope: WorkOS SSO
// has none.
func Defaults(baseURL string) providers.OAuthConfig[Profile] {
	base := strings.TrimRight(baseURL, "/")
	e := providers.OAuthEndpoints{AuthorizationURL: base + AuthorizationPath, TokenURL: base + TokenPath, UserinfoURL: base + UserinfoPath}
	c := providers.OAuthDefaults(ID, Name, e, MapProfile, providers.Style{BrandColor: "#6363f1"})
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// MapProfile maps a WorkOS profile to a user: id ← id, name ← "first_name
// last_name", email ← email, image ← raw_attributes.picture when it is a
// string.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	picture, _ := p.RawAttributes["picture"].(string)
	return profile.User{
		ID:    p.ID,
		Name:  profile.FullName(p.FirstName, p.LastName),
		Email: p.Email,
		Image: picture,
	}, nil
}
