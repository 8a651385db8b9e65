package fusionauth

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestDefaults(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid", Issuer: "https://auth.example.com/"}).OAuth()
	if o.ID != "fusionauth" || o.Name != "FusionAuth" || o.Type != providers.TypeOIDC || o.Issuer != "https://auth.example.com/" {
		t.Fatalf("config = %+v", o)
	}
	if o.Authorization.URL != "" || o.Token.URL != "https://auth.example.com/oauth2/token" || o.UserinfoURL != "https://auth.example.com/oauth2/userinfo" {
		t.Errorf("endpoints = %q %q %q", o.Authorization.URL, o.Token.URL, o.UserinfoURL)
	}
	if s, _ := o.Authorization.Scope(); s != "openid offline_access email profile" {
		t.Errorf("scope = %q", s)
	}
	if err := o.Validate(); err != nil {
		t.Error(err)
	}
	// Without an issuer there is nothing to derive.
	if c := New(providers.OAuthUserConfig[profile.Claims]{}); c.Token.URL != "" || c.Userinfo.URL != "" {
		t.Errorf("endpoints without issuer: %q %q", c.Token.URL, c.Userinfo.URL)
	}
	// A set endpoint wins over the derived one.
	c := New(providers.OAuthUserConfig[profile.Claims]{Issuer: "https://a", Token: providers.TokenEndpoint{URL: "https://b/token"}})
	if c.Token.URL != "https://b/token" || c.Userinfo.URL != "https://a/oauth2/userinfo" {
		t.Errorf("endpoints = %q %q", c.Token.URL, c.Userinfo.URL)
	}
}

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

func TestMapProfile(t *testing.T) {
	tests := []struct {
		claims profile.Claims
		want   profile.User
	}{
		{profile.Claims{"sub": "1", "name": "Richard Hendricks", "preferred_username": "rich", "email": "r@piedpiper.com", "picture": "https://p/r"},
			profile.User{ID: "1", Name: "Richard Hendricks", Email: "r@piedpiper.com", Image: "https://p/r"}},
		{profile.Claims{"sub": "2", "preferred_username": "gilfoyle", "given_name": "Bertram"},
			profile.User{ID: "2", Name: "gilfoyle"}},
		{profile.Claims{"sub": "3", "given_name": "Jared", "middle_name": "Donald", "family_name": "Dunn"},
			profile.User{ID: "3", Name: "Jared Donald Dunn"}},
		{profile.Claims{"sub": "4", "given_name": "Monica", "family_name": "Hall"},
			profile.User{ID: "4", Name: "Monica Hall"}},
		{profile.Claims{"id": "not-used", "sub": "5"}, profile.User{ID: "5"}},
	}
	o := New(providers.OAuthUserConfig[profile.Claims]{}).OAuth()
	for _, tt := range tests {
		u, err := o.MapProfile(context.Background(), tt.claims, account.TokenSet{})
		if err != nil || u != tt.want {
			t.Errorf("%v: user = %+v, %v; want %+v", tt.claims, u, err, tt.want)
		}
	}
}
