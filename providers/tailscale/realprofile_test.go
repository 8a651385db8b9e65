package tailscale

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

// TestRealProfile maps a profile shaped like the provider's documented
// answer, with every claim it lists, nested objects and odd types: tsidp's (Tailscale's OpenID provider) ID token, username and tailnet claims.
func TestRealProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	providertest.CheckMapping(t, o, []providertest.MappingCase{{
		Name: "documented answer",
		JSON: `{
		"iss": "https://idp.example.ts.net",
		"sub": "userid:3a9b1c7d2e4f",
		"aud": "gatehouse",
		"exp": 1700003600,
		"iat": 1700000000,
		"email": "alice@example.com",
		"email_verified": true,
		"name": "Alice Architect",
		"picture": "https://lh3.googleusercontent.com/a/alice",
		"preferred_username": "alice@example.com",
		"username": "alice",
		"tailnet": "example.com"
	}`,
		Verified: true,
		Want:     profile.User{ID: "userid:3a9b1c7d2e4f", Name: "Alice Architect", Email: "alice@example.com", Image: "https://lh3.googleusercontent.com/a/alice"},
	}})
}
