package builtin

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

// TestRealProfiles maps, for each of these providers, a profile shaped
// like its documented answer: every claim the documentation lists, nested
// objects and odd types included (doc says which).
func TestRealProfiles(t *testing.T) {
	for _, tc := range []struct {
		id, doc, json string
		verified      bool
		want          profile.User
	}{
		{
			id:  "google",
			doc: "Google's ID token payload, hd for a Workspace domain",
			json: `{
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
			verified: true,
			want:     profile.User{ID: "10769150350006150715113082367", Name: "Jane Smith", Email: "jsmith@example.com", Image: "https://lh3.googleusercontent.com/a/ACg8ocJ-example=s96-c"},
		},
		{
			id:  "auth0",
			doc: "Auth0's /userinfo answer, updated_at a string, a namespaced custom claim, an unverified address",
			json: `{
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
			verified: false,
			want:     profile.User{ID: "auth0|5f7c8ec7c33c6c004bbafe82", Name: "Jane Doe", Email: "jane.doe@example.com", Image: "https://s.gravatar.com/avatar/8eb1b522f60d11fa897de1dc6351b7e8?s=480&r=pg"},
		},
		{
			id:  "okta",
			doc: "Okta's /userinfo answer, updated_at a number, an address object, groups",
			json: `{
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
			verified: true,
			want:     profile.User{ID: "00uid4BxXw6I6TV4m0g3", Name: "John Doe", Email: "john.doe@example.com", Image: ""},
		},
		{
			id:  "keycloak",
			doc: "Keycloak's ID token, realm_access and resource_access objects, sid, no picture",
			json: `{
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
			verified: true,
			want:     profile.User{ID: "f0c8a2b4-3c6e-4a43-9d19-0e5b7f2f8a11", Name: "Ada Lovelace", Email: "ada@example.com", Image: ""},
		},
		{
			id:  "cognito",
			doc: "Amazon Cognito's /oauth2/userInfo answer, email_verified a string, custom: attributes, no name",
			json: `{
		"sub": "94f8c1a2-7001-70c5-23b4-6d1e2f3a4b5c",
		"email_verified": "true",
		"phone_number_verified": "false",
		"phone_number": "+12065551212",
		"custom:tenant": "acme",
		"username": "94f8c1a2-7001-70c5-23b4-6d1e2f3a4b5c",
		"email": "user@example.com"
	}`,
			verified: true,
			want:     profile.User{ID: "94f8c1a2-7001-70c5-23b4-6d1e2f3a4b5c", Name: "", Email: "user@example.com", Image: ""},
		},
		{
			id:  "zitadel",
			doc: "ZITADEL's /oidc/v1/userinfo answer, the roles claim an object of objects, resource-owner URNs",
			json: `{
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
			verified: true,
			want:     profile.User{ID: "277384112345678901", Name: "Road Runner", Email: "road.runner@acme.example", Image: ""},
		},
		{
			id:  "authentik",
			doc: "authentik's ID token, a hashed sub, groups, nickname",
			json: `{
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
			verified: true,
			want:     profile.User{ID: "7d1e0a6f2a4c4c5b9f0e6b3c2a1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d", Name: "authentik Default Admin", Email: "akadmin@example.com", Image: ""},
		},
		{
			id:  "tailscale",
			doc: "tsidp's (Tailscale's OpenID provider) ID token, username and tailnet claims",
			json: `{
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
			verified: true,
			want:     profile.User{ID: "userid:3a9b1c7d2e4f", Name: "Alice Architect", Email: "alice@example.com", Image: "https://lh3.googleusercontent.com/a/alice"},
		},
		{
			id:  "azure-ad",
			doc: "the Microsoft identity platform's v2.0 ID token sample, oid, tid, roles, no email claim",
			json: `{
		"aud": "6cb04018-a3f5-46a7-b995-940c78f5aef3",
		"iss": "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0",
		"iat": 1536361411,
		"nbf": 1536361411,
		"exp": 1536365311,
		"aio": "AXQAi/8IAAAAqxsuB+R4D2rFQqOETO4YdXbLD9kZ8xfXadeAM0Q2NkNT5izfg3uwbWSXhuSSj6UT5hy2D6WqApB5jKA6ZgZ9k/SU27uV9cetXfLOtpNttgk5DcBtk+LLstz/Jg+gYRmv9bUU4XlphTc6C86Jmj1FCw==",
		"name": "Abe Lincoln",
		"oid": "00000000-0000-0000-66f3-3332eca7ea81",
		"preferred_username": "AbeLi@microsoft.com",
		"rh": "I",
		"roles": ["Reader"],
		"sub": "HKZpfaHyWadeOouYlitjrI-KffTm222X5rrV3xDqfKQ",
		"tid": "b9419818-09af-49c2-b0c3-653adc1f376e",
		"uti": "fqiBqXLPj0eQa82S-IYFAA",
		"ver": "2.0"
	}`,
			verified: false,
			want:     profile.User{ID: "HKZpfaHyWadeOouYlitjrI-KffTm222X5rrV3xDqfKQ", Name: "Abe Lincoln", Email: "", Image: ""},
		},
	} {
		t.Run(tc.id, func(t *testing.T) {
			p := registry[providers.BuiltinID(tc.id)](Options{ClientID: "cid"})
			o := p.(providers.OAuthProvider).OAuth()
			providertest.CheckMapping(t, o, []providertest.MappingCase{{Name: tc.doc, JSON: tc.json, Verified: tc.verified, Want: tc.want}})
		})
	}
}
