package osso

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: "https://demo.ossoapp.com/"}).OAuth()
	want := facts{
		ID: "osso", Name: "Osso", Type: providers.TypeOAuth,
		AuthURL:     "https://demo.ossoapp.com/oauth/authorize",
		TokenURL:    "https://demo.ossoapp.com/oauth/token",
		UserinfoURL: "https://demo.ossoapp.com/oauth/me",
		Issuer:      "https://demo.ossoapp.com/",
		Checks:      []providers.Check{providers.CheckPKCE},
	}
	if got := factsOf(o); !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: "https://demo.ossoapp.com/"}).OAuth()
	const raw = `{
		"email": "user@example.com",
		"id": "e6a5c1b5-4a2d-4f0e-8d3b-2f9c8a7b6d5e",
		"idp": "Okta",
		"requested": {"domain": "example.com", "email": null}
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "e6a5c1b5-4a2d-4f0e-8d3b-2f9c8a7b6d5e", Email: "user@example.com"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

func TestIssuerWithoutSlash(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Issuer: "https://demo.ossoapp.com"}).OAuth()
	if o.Authorization.URL != "https://demo.ossoapp.com/oauth/authorize" || o.UserinfoURL != "https://demo.ossoapp.com/oauth/me" {
		t.Errorf("endpoints = %q, %q", o.Authorization.URL, o.UserinfoURL)
	}
	if err := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate accepts an Osso provider without an issuer")
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
