package simplelogin

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestConfig(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := facts{
		ID: "simplelogin", Name: "SimpleLogin", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     "https://app.simplelogin.io",
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		Style:      providers.Style{BrandColor: "#e3156a"},
	}
	if got := factsOf(o); !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"sub": "1234",
		"name": "John Wick",
		"email": "john.wick@sl.local",
		"email_verified": true,
		"avatar_url": "https://app.simplelogin.io/static/default-avatar.png",
		"client": "Demo App"
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	if got.EmailVerified == nil {
		t.Error("email_verified true gave no EmailVerified")
	}
	got.EmailVerified = nil
	want := profile.User{ID: "1234", Name: "John Wick", Email: "john.wick@sl.local", Image: "https://app.simplelogin.io/static/default-avatar.png"}
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
