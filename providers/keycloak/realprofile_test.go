package keycloak

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

// TestRealProfile maps a profile shaped like the provider's documented
// answer, with every claim it lists, nested objects and odd types: Keycloak's ID token, realm_access and resource_access objects, sid, no picture.
func TestRealProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	providertest.CheckMapping(t, o, []providertest.MappingCase{{
		Name: "documented answer",
		JSON: `{
		"exp": 1700003600,
		"iat": 1700000000,
		"auth_time": 1699999990,
		"jti": "b1a0e1a4-1f8c-4c1e-9a5e-6c2b9b0b6f1a",
		"iss": "https://keycloak.example.com/realms/acme",
		"aud": "account",
		"sub": "f0c8a2b4-3c6e-4a43-9d19-0e5b7f2f8a11",
		"typ": "ID",
		"azp": "gatehouse",
		"session_state": "5d1e6f0a-2a37-4b5f-8c7b-0f3d0c2a9e44",
		"acr": "1",
		"sid": "5d1e6f0a-2a37-4b5f-8c7b-0f3d0c2a9e44",
		"email_verified": true,
		"realm_access": {"roles": ["offline_access", "uma_authorization", "default-roles-acme"]},
		"resource_access": {"account": {"roles": ["manage-account", "view-profile"]}},
		"name": "Ada Lovelace",
		"preferred_username": "ada",
		"given_name": "Ada",
		"family_name": "Lovelace",
		"email": "ada@example.com"
	}`,
		Verified: true,
		Want:     profile.User{ID: "f0c8a2b4-3c6e-4a43-9d19-0e5b7f2f8a11", Name: "Ada Lovelace", Email: "ada@example.com", Image: ""},
	}})
}
