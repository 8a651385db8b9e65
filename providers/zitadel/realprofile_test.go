package zitadel

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

// TestRealProfile maps a profile shaped like the provider's documented
// answer, with every claim it lists, nested objects and odd types: ZITADEL's /oidc/v1/userinfo answer, the roles claim an object of objects, resource-owner URNs.
func TestRealProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	providertest.CheckMapping(t, o, []providertest.MappingCase{{
		Name: "documented answer",
		JSON: `{
		"sub": "277384112345678901",
		"name": "Road Runner",
		"given_name": "Road",
		"family_name": "Runner",
		"locale": "en",
		"updated_at": 1700000000,
		"preferred_username": "road.runner@acme.zitadel.cloud",
		"email": "road.runner@acme.example",
		"email_verified": true,
		"phone_number": "+41 79 123 45 67",
		"phone_number_verified": false,
		"urn:zitadel:iam:org:project:roles": {"admin": {"275671427955294244": "acme.zitadel.cloud"}},
		"urn:zitadel:iam:user:resourceowner:id": "275671427955294244",
		"urn:zitadel:iam:user:resourceowner:name": "ACME"
	}`,
		Verified: true,
		Want:     profile.User{ID: "277384112345678901", Name: "Road Runner", Email: "road.runner@acme.example", Image: ""},
	}})
}
