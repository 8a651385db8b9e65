package netlify

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
		ID: "netlify", Name: "Netlify", Type: providers.TypeOAuth,
		AuthURL:     "https://app.netlify.com/authorize",
		AuthParams:  map[string]string{"scope": ""},
		TokenURL:    "https://api.netlify.com/oauth/token",
		UserinfoURL: "https://api.netlify.com/api/v1/user",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{BrandColor: "#32e6e2"},
	}
	if got := factsOf(o); !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
	if s, ok := o.Authorization.Scope(); !ok || s != "" {
		t.Errorf("scope = %q, %v; want an explicitly empty scope", s, ok)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"id": "5a1d0b4e8198c6133f1c6b83",
		"uid": null,
		"full_name": "Ada Lovelace",
		"avatar_url": "https://avatars.githubusercontent.com/u/1?v=4",
		"email": "ada@example.com",
		"affiliate_id": "",
		"site_count": 7,
		"created_at": "2017-11-28T07:29:18.392Z",
		"last_login": "2024-03-01T09:00:00.000Z",
		"login_providers": ["github", "email"]
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{
		ID: "5a1d0b4e8198c6133f1c6b83", Name: "Ada Lovelace", Email: "ada@example.com",
		Image: "https://avatars.githubusercontent.com/u/1?v=4",
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
