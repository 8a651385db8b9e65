package cognito

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

// TestRealProfile maps a profile shaped like the provider's documented
// answer, with every claim it lists, nested objects and odd types: Amazon Cognito's /oauth2/userInfo answer, email_verified a string, custom: attributes, no name.
func TestRealProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	providertest.CheckMapping(t, o, []providertest.MappingCase{{
		Name: "documented answer",
		JSON: `{
		"sub": "94f8c1a2-7001-70c5-23b4-6d1e2f3a4b5c",
		"email_verified": "true",
		"phone_number_verified": "false",
		"phone_number": "+12065551212",
		"custom:tenant": "acme",
		"username": "94f8c1a2-7001-70c5-23b4-6d1e2f3a4b5c",
		"email": "user@example.com"
	}`,
		Verified: true,
		Want:     profile.User{ID: "94f8c1a2-7001-70c5-23b4-6d1e2f3a4b5c", Name: "", Email: "user@example.com", Image: ""},
	}})
}
