package gitea

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestEndpoints(t *testing.T) {
	tests := []struct {
		name string
		c    providers.OAuthConfig[profile.Claims]
		base string
	}{
		{"default instance", New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}), "https://gitea.com"},
		{"issuer as base URL", New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid", Issuer: "https://git.example.com/"}), "https://git.example.com"},
		{"NewAt with sub-path", NewAt("https://example.com/git/", providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}), "https://example.com/git"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.c.OAuth()
			if o.ID != "gitea" || o.Name != "Gitea" || o.Type != providers.TypeOAuth {
				t.Fatalf("base = %+v", o.Base)
			}
			if o.Authorization.URL != tt.base+"/login/oauth/authorize" || o.Token.URL != tt.base+"/login/oauth/access_token" ||
				o.UserinfoURL != tt.base+"/login/oauth/userinfo" {
				t.Errorf("endpoints = %q %q %q", o.Authorization.URL, o.Token.URL, o.UserinfoURL)
			}
			if s, _ := o.Authorization.Scope(); s != "openid profile email" {
				t.Errorf("scope = %q", s)
			}
			if err := o.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
	c := New(providers.OAuthUserConfig[profile.Claims]{Token: providers.TokenEndpoint{URL: "https://proxy/token"}, Name: "Forge"})
	if c.Token.URL != "https://proxy/token" || c.Name != "Forge" || c.Authorization.URL != "https://gitea.com/login/oauth/authorize" {
		t.Errorf("merge = %+v", c)
	}
}

func TestProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{}).OAuth()
	p, err := o.DecodeProfile([]byte(`{"sub":"7","name":"","preferred_username":"lunny","email":"lunny@example.com",
		"email_verified":true,"picture":"https://gitea.com/avatars/abc","groups":["org"]}`))
	if err != nil {
		t.Fatal(err)
	}
	u, err := o.MapProfile(context.Background(), p, account.TokenSet{})
	if err != nil || u.ID != "7" || u.Name != "lunny" || u.Email != "lunny@example.com" || u.Image != "https://gitea.com/avatars/abc" || u.EmailVerified == nil {
		t.Errorf("user = %+v, %v", u, err)
	}
}
