package medium

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := facts{
		ID: "medium", Name: "Medium", Type: providers.TypeOAuth,
		AuthURL:     "https://medium.com/m/oauth/authorize",
		AuthParams:  map[string]string{"scope": "basicProfile"},
		TokenURL:    "https://api.medium.com/v1/tokens",
		UserinfoURL: "https://api.medium.com/v1/me",
		Checks:      []providers.Check{providers.CheckState},
		AuthMethod:  providers.AuthClientSecretPost,
	}
	if got := factsOf(o); !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"data": {
			"id": "5303d74c64f66366f00cb9b2a94f3251bf5",
			"username": "majelbstoat",
			"name": "Jamie Talbot",
			"url": "https://medium.com/@majelbstoat",
			"imageUrl": "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png"
		}
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{
		ID:    "5303d74c64f66366f00cb9b2a94f3251bf5",
		Name:  "Jamie Talbot",
		Image: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png",
	}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

// facts is what a configuration says, in a form reflect.DeepEqual compares.
type facts struct {
	ID, Name     string
	Type         providers.ProviderType
	AuthURL      string
	AuthParams   map[string]string
	TokenURL     string
	TokenParams  map[string]string
	UserinfoURL  string
	Issuer       string
	Checks       []providers.Check
	AuthMethod   providers.AuthMethod
	Style        providers.Style
	TokenRequest bool
	UserRequest  bool
}

func factsOf(o *providers.OAuth) facts {
	return facts{
		ID: o.ID, Name: o.Name, Type: o.Type,
		AuthURL: o.Authorization.URL, AuthParams: o.Authorization.Params,
		TokenURL: o.Token.URL, TokenParams: o.Token.Params,
		UserinfoURL: o.UserinfoURL, Issuer: o.Issuer,
		Checks:       o.EffectiveChecks(false),
		AuthMethod:   o.Client.TokenEndpointAuthMethod,
		Style:        o.Style,
		TokenRequest: o.Token.Request != nil,
		UserRequest:  o.UserinfoRequest != nil,
	}
}

// mapJSON decodes raw as the provider's profile and maps it as the sign-in
// flow does.
func mapJSON(t *testing.T, o *providers.OAuth, raw string, tokens account.TokenSet) profile.User {
	t.Helper()
	p, err := o.DecodeProfile([]byte(raw))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	u, err := o.MapProfile(context.Background(), p, tokens)
	if err != nil {
		t.Fatalf("map: %v", err)
	}
	return u
}
