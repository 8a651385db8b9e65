package fusionauth

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestTenant(t *testing.T) {
	c := NewForTenant("t-1", providers.OAuthUserConfig[profile.Claims]{Issuer: "https://a"})
	if c.Authorization.Params["tenantId"] != "t-1" || c.Authorization.Params["scope"] != Scope {
		t.Errorf("params = %v", c.Authorization.Params)
	}
	c = NewForTenant("t-1", providers.OAuthUserConfig[profile.Claims]{Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"tenantId": "t-2", "scope": "openid"}}})
	if c.Authorization.Params["tenantId"] != "t-2" || c.Authorization.Params["scope"] != "openid" {
		t.Errorf("params = %v", c.Authorization.Params)
	}
}
