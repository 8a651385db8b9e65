package okta

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

// TestRealProfile maps a profile shaped like the provider's documented
// answer, with every claim it lists, nested objects and odd types: Okta's /userinfo answer, updated_at a number, an address object, groups.
func TestRealProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	providertest.CheckMapping(t, o, []providertest.MappingCase{{
		Name: "documented answer",
		JSON: `{
		"sub": "00uid4BxXw6I6TV4m0g3",
		"name": "John Doe",
		"nickname": "Jimmy",
		"given_name": "John",
		"middle_name": "James",
		"family_name": "Doe",
		"profile": "https://example.com/john.doe",
		"zoneinfo": "America/Los_Angeles",
		"locale": "en-US",
		"updated_at": 1311280970,
		"email": "john.doe@example.com",
		"email_verified": true,
		"address": {"street_address": "123 Hollywood Blvd.", "locality": "Los Angeles", "region": "CA", "postal_code": "90210", "country": "US"},
		"phone_number": "+1 (425) 555-1212",
		"groups": ["Everyone", "Admins"]
	}`,
		Verified: true,
		Want:     profile.User{ID: "00uid4BxXw6I6TV4m0g3", Name: "John Doe", Email: "john.doe@example.com", Image: ""},
	}})
}
