package azuread

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/microsoftentraid"
)

func TestAlias(t *testing.T) {
	a := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	e := microsoftentraid.New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	if a.ID != "azure-ad" || a.Name != "Azure Active Directory" || a.Type != providers.TypeOIDC {
		t.Fatalf("base = %+v", a.Base)
	}
	as, _ := a.Authorization.Scope()
	es, _ := e.Authorization.Scope()
	if a.Issuer != e.Issuer || as != es || a.Style != e.Style || a.ClientID != "cid" {
		t.Errorf("alias differs from Entra: %+v vs %+v", a, e)
	}
	c := NewForTenant("72f988bf-86f1-41af-91ab-2d7cd011db47", providers.OAuthUserConfig[profile.Claims]{Name: "Contoso"})
	if c.Issuer != "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0" || c.Name != "Contoso" || c.ID != "azure-ad" {
		t.Errorf("tenant = %+v", c)
	}
}
