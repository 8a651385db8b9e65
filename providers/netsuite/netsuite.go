// Package netsuite is the built-in Oracle NetSuite provider (OAuth 2.0).
// NetSuite's endpoints are per account: the Issuer option
// (AUTH_NETSUITE_ISSUER) is the account ID, e.g. "TSTDRV1234567" or
// "1234567_SB1", as in Auth.js. NetSuite has no userinfo endpoint: the
// application deploys a RESTlet that answers the current user (from
// N/runtime.getCurrentUser) as JSON, and passes its external URL as the
// userinfo URL.
//
//	p := netsuite.New(providers.OAuthUserConfig[netsuite.Profile]{
//		ClientID:     os.Getenv("AUTH_NETSUITE_ID"),
//		ClientSecret: os.Getenv("AUTH_NETSUITE_SECRET"),
//		Issuer:       "TSTDRV1234567",
//		Userinfo: providers.UserinfoEndpoint[netsuite.Profile]{
//			URL: "https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1",
//		},
//	})
//
// The account ID is not an issuer identifier (NetSuite's authorization
// responses carry none), so New uses it only to build the endpoint URLs
// and leaves Issuer empty in the configuration it returns.
package netsuite

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "netsuite"
	// Name is the display name.
	Name = "NetSuite"
	// Scope grants access to RESTlets (the userinfo RESTlet needs it) and
	// to the REST web services.
	Scope = "restlets rest_webservices"
)

// AuthorizationURL returns the account's authorization endpoint:
// https://<account>.app.netsuite.com/app/login/oauth2/authorize.nl.
func AuthorizationURL(accountID string) string {
	return "https://" + AccountDomain(accountID) + ".app.netsuite.com/app/login/oauth2/authorize.nl"
}

// TokenURL returns the account's token endpoint:
// https://<account>.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token.
func TokenURL(accountID string) string {
	return "https://" + AccountDomain(accountID) + ".suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token"
}

// AccountDomain returns the account ID as it appears in NetSuite's
// account-specific host names: lower-cased, with '_' turned into '-'
// ("1234567_SB1" → "1234567-sb1"). Given a URL of such a host, it returns
// the host's first label.
func AccountDomain(accountID string) string {
	s := strings.TrimSpace(accountID)
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		s, _, _ = strings.Cut(u.Hostname(), ".")
	}
	return strings.ToLower(strings.ReplaceAll(s, "_", "-"))
}

// Profile is what the userinfo RESTlet answers: the fields of
// N/runtime.getCurrentUser().
type Profile struct {
	// ID is the user's internal id (a number, or a string of digits).
	ID json.Number `json:"id"`
	// Name is the user's name.
	Name string `json:"name"`
	// Email is the user's e-mail address.
	Email string `json:"email"`
	// Location is the user's location id.
	Location json.RawMessage `json:"location,omitempty"`
	// Role is the id of the role the user signed in with.
	Role json.RawMessage `json:"role,omitempty"`
	// Contact is the user's contact id, if any.
	Contact json.RawMessage `json:"contact,omitempty"`
}

// New returns the NetSuite provider configuration for the account
// opts.Issuer, with opts laid over its defaults by providers.Merge. The
// returned configuration's Issuer is empty.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	accountID := opts.Issuer
	opts.Issuer = ""
	return providers.Merge(Defaults(accountID), opts)
}

// Defaults returns the configuration for the account accountID, with no
// userinfo URL. With accountID "" the endpoints are left empty, and
// gatehouse.New reports them missing.
func Defaults(accountID string) providers.OAuthConfig[Profile] {
	c := providers.OAuthConfig[Profile]{
		ID:            ID,
		Name:          Name,
		Type:          providers.TypeOAuth,
		Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": Scope}},
		Checks:        []providers.Check{providers.CheckState},
		Profile:       MapProfile,
		Style:         providers.Style{BrandColor: "#181a1b"},
	}
	if AccountDomain(accountID) != "" {
		c.Authorization.URL = AuthorizationURL(accountID)
		c.Token.URL = TokenURL(accountID)
	}
	return c
}

// MapProfile maps the RESTlet's answer to a user: id ← id (as a string),
// name ← name, email ← email, no image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{ID: p.ID.String(), Name: p.Name, Email: p.Email}, nil
}
