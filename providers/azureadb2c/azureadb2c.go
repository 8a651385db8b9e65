package azureadb2c

import (
	"context"
	"errors"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// WellKnown returns the discovery document URL of user flow userFlow
// (e.g. "B2C_1_signupsignin") in the tenant named tenant (e.g. "contoso",
// for contoso.onmicrosoft.com).
func WellKnown(tenant, userFlow string) string {
	return "https://" + tenant + ".b2clogin.com/" + tenant + ".onmicrosoft.com/" + userFlow + "/v2.0/.well-known/openid-configuration"
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
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
