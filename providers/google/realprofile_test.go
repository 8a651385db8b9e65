package google

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

// TestRealProfile maps a profile shaped like the provider's documented
// answer, with every claim it lists, nested objects and odd types: Google's ID token payload, hd for a Workspace domain.
func TestRealProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	providertest.CheckMapping(t, o, []providertest.MappingCase{{
		Name: "documented answer",
		JSON: `{
		"iss": "https://accounts.google.com",
		"azp": "1234987819200.apps.googleusercontent.com",
		"aud": "1234987819200.apps.googleusercontent.com",
		"sub": "10769150350006150715113082367",
		"at_hash": "HK6E_P6Dh8Y93mRNtsDB1Q",
		"hd": "example.com",
		"email": "jsmith@example.com",
		"email_verified": true,
		"iat": 1353601026,
		"exp": 1353604926,
		"nonce": "0394852-3190485-2490358",
		"name": "Jane Smith",
		"given_name": "Jane",
		"family_name": "Smith",
		"locale": "en",
		"picture": "https://lh3.googleusercontent.com/a/ACg8ocJ-example=s96-c"
	}`,
		Verified: true,
		Want:     profile.User{ID: "10769150350006150715113082367", Name: "Jane Smith", Email: "jsmith@example.com", Image: "https://lh3.googleusercontent.com/a/ACg8ocJ-example=s96-c"},
	}})
}
