package frontegg

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://acme.frontegg.com/"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "frontegg"},
		{"name", c.Name, "Frontegg"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer", c.Issuer, "https://acme.frontegg.com/"},
		{"authorization", c.Authorization.URL, "https://acme.frontegg.com/oauth/authorize"},
		{"token", c.Token.URL, "https://acme.frontegg.com/oauth/token"},
		{"userinfo", c.Userinfo.URL, "https://acme.frontegg.com/identity/resources/users/v2/me"},
		{"wellKnown", c.WellKnown, "https://acme.frontegg.com/oauth/.well-known/openid-configuration"},
		{"scope", scope, "openid profile email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{}},
		{"profile callback", c.Profile == nil, true},
	} {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.field, tt.got, tt.want)
		}
	}
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	noIssuer := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"})
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
			name: "user",
			json: `{"sub": "5c7e2f3a-1b4d-4e8f-9a0b-c1d2e3f4a5b6", "name": "Yael Mizrahi",
		"email": "yael@acme.com", "email_verified": true,
		"profilePictureUrl": "https://www.gravatar.com/avatar/1a2b?d=identicon",
		"roles": ["Admin"], "tenantId": "b2d9e1f0-0000-4000-8000-000000000001",
		"iss": "https://acme.frontegg.com", "aud": "cid", "type": "userToken"}`,
			want:     profile.User{ID: "5c7e2f3a-1b4d-4e8f-9a0b-c1d2e3f4a5b6", Name: "Yael Mizrahi", Email: "yael@acme.com"},
			verified: true,
		},
	}
	o := New(providers.OIDCUserConfig[Profile]{Issuer: "https://acme.frontegg.com"}).OAuth()
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
