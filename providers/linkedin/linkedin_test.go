package linkedin

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestDefaults(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	if o.ID != "linkedin" || o.Name != "LinkedIn" || o.Type != providers.TypeOIDC || o.Issuer != "https://www.linkedin.com/oauth" {
		t.Fatalf("config = %+v", o)
	}
	if s, _ := o.Authorization.Scope(); s != "openid profile email" {
		t.Errorf("scope = %q", s)
	}
	if got := o.EffectiveChecks(false); !reflect.DeepEqual(got, []providers.Check{providers.CheckState}) {
		t.Errorf("checks = %v", got)
	}
	if o.Client.TokenEndpointAuthMethod != providers.AuthClientSecretPost {
		t.Errorf("client = %+v", o.Client)
	}
	if o.Style != (providers.Style{BrandColor: "#069"}) {
		t.Errorf("style = %+v", o.Style)
	}
	if err := o.Validate(); err != nil {
		t.Error(err)
	}
	u, _ := o.MapProfile(context.Background(), profile.Claims{
		"sub": "782bbtaQ", "name": "John Doe", "given_name": "John", "family_name": "Doe",
		"picture": "https://media.licdn.com/dms/image/x", "email": "doe@email.com", "email_verified": true, "locale": "en-US",
	}, account.TokenSet{})
	if u.ID != "782bbtaQ" || u.Name != "John Doe" || u.Email != "doe@email.com" || u.Image != "https://media.licdn.com/dms/image/x" || u.EmailVerified == nil {
		t.Errorf("user = %+v", u)
	}
	c := New(providers.OAuthUserConfig[profile.Claims]{Client: providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretBasic}})
	if c.Client.TokenEndpointAuthMethod != providers.AuthClientSecretBasic || c.Issuer != Issuer || c.Type != providers.TypeOIDC {
		t.Errorf("merge = %+v", c)
	}
}
