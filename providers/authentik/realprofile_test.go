package authentik

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

// TestRealProfile maps a profile shaped like the provider's documented
// answer, with every claim it lists, nested objects and odd types: authentik's ID token, a hashed sub, groups, nickname.
func TestRealProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	providertest.CheckMapping(t, o, []providertest.MappingCase{{
		Name: "documented answer",
		JSON: `{
		"iss": "https://authentik.example.com/application/o/gatehouse/",
		"sub": "7d1e0a6f2a4c4c5b9f0e6b3c2a1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d",
		"aud": "gatehouse",
		"exp": 1700003600,
		"iat": 1700000000,
		"auth_time": 1699999990,
		"acr": "goauthentik.io/providers/oauth2/default",
		"email": "akadmin@example.com",
		"email_verified": true,
		"name": "authentik Default Admin",
		"given_name": "authentik Default Admin",
		"preferred_username": "akadmin",
		"nickname": "akadmin",
		"groups": ["authentik Admins", "users"]
	}`,
		Verified: true,
		Want:     profile.User{ID: "7d1e0a6f2a4c4c5b9f0e6b3c2a1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d", Name: "authentik Default Admin", Email: "akadmin@example.com", Image: ""},
	}})
}
