// Package azureadb2c is the built-in Azure Active Directory B2C provider
// (OpenID Connect). The issuer belongs to the application's tenant and
// user flow, so the application supplies it; the endpoints come from
// discovery.
//
//	p := azureadb2c.New(providers.OIDCUserConfig[azureadb2c.Profile]{
//		ClientID:     os.Getenv("AUTH_AZURE_AD_B2C_ID"),
//		ClientSecret: os.Getenv("AUTH_AZURE_AD_B2C_SECRET"),
//		Issuer:       os.Getenv("AUTH_AZURE_AD_B2C_ISSUER"),
//	})
//
// B2C's discovery document lives under the user flow
// (https://<tenant>.b2clogin.com/<tenant>.onmicrosoft.com/<flow>/v2.0/...),
// while the issuer it announces, and that its ID tokens carry, names the
// tenant by its GUID: https://<tenant>.b2clogin.com/<tenant-guid>/v2.0/.
// Set Issuer to the latter and, when discovery from it fails, WellKnown
// to WellKnown(tenant, flow).
package azureadb2c

import (
	"context"
	"errors"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "azure-ad-b2c"
	// Name is the display name.
	Name = "Azure Active Directory B2C"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the claims of a B2C ID token. Which optional claims are
// present depends on the user flow's "Return claim" settings.
type Profile struct {
	// Sub is the user's object id in the tenant (the token's subject).
	Sub string `json:"sub"`
	// OID is the user's object id in the directory.
	OID string `json:"oid,omitempty"`
	// Name is the user's display name.
	Name string `json:"name,omitempty"`
	// PreferredUsername is the user's sign-in name, when the flow returns it.
	PreferredUsername string `json:"preferred_username,omitempty"`
	// GivenName is the user's first name.
	GivenName string `json:"given_name,omitempty"`
	// FamilyName is the user's surname.
	FamilyName string `json:"family_name,omitempty"`
	// Emails are the user's addresses ("Email Addresses" claim).
	Emails []string `json:"emails,omitempty"`
	// Country is the user's country.
	Country string `json:"country,omitempty"`
	// PostalCode is the user's postal code.
	PostalCode string `json:"postalCode,omitempty"`
	// IDP is the identity provider the user signed in with, for federated
	// sign-ins.
	IDP string `json:"idp,omitempty"`
	// TFP is the user flow (policy) that issued the token.
	TFP string `json:"tfp,omitempty"`
	// Ver is the token version, "1.0".
	Ver string `json:"ver,omitempty"`
	// Iss is the token's issuer.
	Iss string `json:"iss,omitempty"`
	// Aud is the client id the token is for.
	Aud string `json:"aud,omitempty"`
	// Exp is when the token expires, in seconds since the epoch.
	Exp int64 `json:"exp,omitempty"`
	// Nbf is when the token becomes valid, in seconds since the epoch.
	Nbf int64 `json:"nbf,omitempty"`
	// Iat is when the token was issued, in seconds since the epoch.
	Iat int64 `json:"iat,omitempty"`
	// AuthTime is when the user authenticated, in seconds since the epoch.
	AuthTime int64 `json:"auth_time,omitempty"`
}

// WellKnown returns the discovery document URL of user flow userFlow
// (e.g. "B2C_1_signupsignin") in the tenant named tenant (e.g. "contoso",
// for contoso.onmicrosoft.com).
func WellKnown(tenant, userFlow string) string {
	return "https://" + tenant + ".b2clogin.com/" + tenant + ".onmicrosoft.com/" + userFlow + "/v2.0/.well-known/openid-configuration"
}

// New returns the Azure AD B2C provider configuration with opts laid over
// its defaults by providers.Merge. opts.Issuer is required: without it
// the configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option: the scope,
// the default checks, MapProfile and the button style.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCWith(ID, Name, Scope, providers.Style{BrandColor: "#0072c6"}, MapProfile)
}

// MapProfile maps B2C claims to a user: id ← sub, name ← name, else
// preferred_username, email ← the first of emails, no image. B2C does not
// assert that the address is verified, so EmailVerified stays nil.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.Sub == "" {
		return profile.User{}, errors.New("azure-ad-b2c: claims have no sub")
	}
	u := profile.User{ID: p.Sub, Name: p.Name}
	if u.Name == "" {
		u.Name = p.PreferredUsername
	}
	if len(p.Emails) > 0 {
		u.Email = p.Emails[0]
	}
	return u, nil
}
