package salesforce

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
		ID: "salesforce", Name: "Salesforce", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     "https://login.salesforce.com",
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		Style:      providers.Style{Bg: "#00a1e0"},
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
		"sub": "https://login.salesforce.com/id/00Dx0000000A9y0EAC/005x0000000UnYmAAK",
		"user_id": "005x0000000UnYmAAK",
		"organization_id": "00Dx0000000A9y0EAC",
		"preferred_username": "admin@acme.example",
		"nickname": "admin",
		"name": "Alice Admin",
		"email": "admin@acme.example",
		"email_verified": true,
		"given_name": "Alice",
		"family_name": "Admin",
		"zoneinfo": "America/Los_Angeles",
		"picture": "https://acme.my.salesforce.com/profilephoto/005/F",
		"locale": "en_US"
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	got.EmailVerified = nil
	want := profile.User{ID: "https://login.salesforce.com/id/00Dx0000000A9y0EAC/005x0000000UnYmAAK", Name: "Alice Admin", Email: "admin@acme.example", Image: "https://acme.my.salesforce.com/profilephoto/005/F"}
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
