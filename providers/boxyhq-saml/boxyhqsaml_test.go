package boxyhqsaml

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "dummy", ClientSecret: "dummy", Issuer: "https://jackson.acme.test/"})
	withTenant := New(providers.OAuthUserConfig[Profile]{Issuer: "https://jackson.acme.test",
		Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"tenant": "acme.com", "product": "crm"}}})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "boxyhq-saml"},
		{"name", c.Name, "BoxyHQ SAML"},
		{"type", c.Type, providers.TypeOAuth},
		{"issuer", c.Issuer, "https://jackson.acme.test/"},
		{"authorization", c.Authorization.URL, "https://jackson.acme.test/api/oauth/authorize"},
		{"token", c.Token.URL, "https://jackson.acme.test/api/oauth/token"},
		{"userinfo", c.Userinfo.URL, "https://jackson.acme.test/api/oauth/userinfo"},
		{"provider param", c.Authorization.Params["provider"], "saml"},
		{"scope set", hasScope, false},
		{"scope", scope, ""},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{BrandColor: "#25c2a0"}},
		{"tenant and product kept", withTenant.Authorization.Params, map[string]string{"provider": "saml", "tenant": "acme.com", "product": "crm"}},
	} {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.field, tt.got, tt.want)
		}
	}
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	noIssuer := New(providers.OAuthUserConfig[Profile]{ClientID: "dummy"})
	if noIssuer.Authorization.URL != "" || noIssuer.OAuth().Validate() == nil {
		t.Errorf("without an issuer: authorization %q and Validate passed, want no endpoints and an error", noIssuer.Authorization.URL)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []struct {
		name     string
		json     string
		tokens   account.TokenSet
		want     profile.User
		verified bool // EmailVerified is set
		wantErr  bool
	}{
		{
			name: "SAML user",
			json: `{"id": "00u1xb8kflEtLvN4b5d7", "email": "grace@acme.com", "firstName": "Grace",
		"lastName": "Hopper", "roles": ["admin"], "groups": ["engineering"],
		"raw": {"id": "00u1xb8kflEtLvN4b5d7", "email": "grace@acme.com", "firstName": "Grace", "lastName": "Hopper"},
		"requested": {"tenant": "acme.com", "product": "crm", "client_id": "dummy", "state": "abc"}}`,
			want: profile.User{ID: "00u1xb8kflEtLvN4b5d7", Name: "Grace Hopper", Email: "grace@acme.com"},
		},
		{
			name: "no last name",
			json: `{"id": "u2", "email": "g@acme.com", "firstName": "Grace"}`,
			want: profile.User{ID: "u2", Name: "Grace", Email: "g@acme.com"},
		},
		{
			name:    "no id",
			json:    `{"email": "x@acme.com"}`,
			wantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{Issuer: "https://jackson.acme.test"}).OAuth()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := o.DecodeProfile([]byte(tt.json))
			if err != nil {
				t.Fatalf("DecodeProfile: %v", err)
			}
			u, err := o.MapProfile(context.Background(), p, tt.tokens)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("MapProfile = %+v, want an error", u)
				}
				return
			}
			if err != nil {
				t.Fatalf("MapProfile: %v", err)
			}
			if (u.EmailVerified != nil) != tt.verified {
				t.Errorf("EmailVerified = %v, want set: %v", u.EmailVerified, tt.verified)
			}
			u.EmailVerified = nil
			if u != tt.want {
				t.Errorf("user = %+v\nwant   %+v", u, tt.want)
			}
		})
	}
}
