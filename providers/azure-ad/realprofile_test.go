package azuread

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

// TestRealProfile maps a profile shaped like the provider's documented
// answer, with every claim it lists, nested objects and odd types: the Microsoft identity platform's v2.0 ID token sample, oid, tid, roles, no email claim.
func TestRealProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	providertest.CheckMapping(t, o, []providertest.MappingCase{{
		Name: "documented answer",
		JSON: `{
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
		Verified: false,
		Want:     profile.User{ID: "HKZpfaHyWadeOouYlitjrI-KffTm222X5rrV3xDqfKQ", Name: "Abe Lincoln", Email: "", Image: ""},
	}})
}
