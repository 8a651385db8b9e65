package netsuite

import (
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/providers"
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
