package workos

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "client_01H", ClientSecret: "sk_test"}).OAuth()
	want := facts{
		ID: "workos", Name: "WorkOS", Type: providers.TypeOAuth,
		AuthURL:     "https://api.workos.com/sso/authorize",
		TokenURL:    "https://api.workos.com/sso/token",
		UserinfoURL: "https://api.workos.com/sso/profile",
		Checks:      []providers.Check{providers.CheckPKCE},
		AuthMethod:  providers.AuthClientSecretPost,
		Style:       providers.Style{Bg: "#6363f1", Text: "#fff"},
	}
	if got := factsOf(o); !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "client_01H", ClientSecret: "sk_test"}).OAuth()
	const raw = `{
		"object": "profile",
		"id": "prof_01DMC79VCBZ0NY2099737PSVF1",
		"connection_id": "conn_01E4ZCR3C56J083X43JQXF3JK5",
		"connection_type": "okta",
		"organization_id": "org_01EHWNCE74X7JSDV0X3SZ3KJNY",
		"email": "todd@example.com",
		"first_name": "Todd",
		"last_name": "Rundgren",
		"idp_id": "00u1a0ufowBJlzPlk357",
		"role": {"slug": "admin"},
		"raw_attributes": {"picture": "https://example.com/todd.jpg", "department": "Engineering"}
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "prof_01DMC79VCBZ0NY2099737PSVF1", Name: "Todd Rundgren", Email: "todd@example.com", Image: "https://example.com/todd.jpg"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

func TestCustomDomain(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Issuer: "https://auth.example.com/"}).OAuth()
	if o.Authorization.URL != "https://auth.example.com/sso/authorize" || o.Token.URL != "https://auth.example.com/sso/token" || o.UserinfoURL != "https://auth.example.com/sso/profile" {
		t.Errorf("endpoints = %q, %q, %q", o.Authorization.URL, o.Token.URL, o.UserinfoURL)
	}
}

func TestMapProfileNoPicture(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	got := mapJSON(t, o, `{"id": "prof_1", "email": "a@example.com", "first_name": "Ann", "last_name": "", "raw_attributes": {"picture": 7}}`, account.TokenSet{})
	if want := (profile.User{ID: "prof_1", Name: "Ann", Email: "a@example.com"}); got != want {
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
