package auth0

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

// TestRealProfile maps a profile shaped like the provider's documented
// answer, with every claim it lists, nested objects and odd types: Auth0's /userinfo answer, updated_at a string, a namespaced custom claim, an unverified address.
func TestRealProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	providertest.CheckMapping(t, o, []providertest.MappingCase{{
		Name: "documented answer",
		JSON: `{
		"sub": "auth0|5f7c8ec7c33c6c004bbafe82",
		"given_name": "Jane",
		"family_name": "Doe",
		"nickname": "jane.doe",
		"name": "Jane Doe",
		"picture": "https://s.gravatar.com/avatar/8eb1b522f60d11fa897de1dc6351b7e8?s=480&r=pg",
		"locale": "en",
		"updated_at": "2024-01-15T10:04:21.123Z",
		"email": "jane.doe@example.com",
		"email_verified": false,
		"https://example.com/roles": ["admin", "editor"],
		"org_id": "org_9ybsU1dN2dKfDkBi"
	}`,
		Verified: false,
		Want:     profile.User{ID: "auth0|5f7c8ec7c33c6c004bbafe82", Name: "Jane Doe", Email: "jane.doe@example.com", Image: "https://s.gravatar.com/avatar/8eb1b522f60d11fa897de1dc6351b7e8?s=480&r=pg"},
	}})
}
