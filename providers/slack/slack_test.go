package slack

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
		ID: "slack", Name: "Slack", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     "https://slack.com",
		Checks:     []providers.Check{providers.CheckNonce},
		Style:      providers.Style{BrandColor: "#611f69"},
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
		"iss": "https://slack.com",
		"sub": "U0R7JM",
		"aud": "25259531569.1115258246291",
		"exp": 1626874955,
		"iat": 1626874655,
		"auth_time": 1626874655,
		"nonce": "abcd",
		"https://slack.com/user_id": "U0R7JM",
		"https://slack.com/team_id": "T0R7GR",
		"email": "krane@slack-corp.com",
		"email_verified": true,
		"date_email_verified": 1622128723,
		"name": "krane",
		"picture": "https://secure.gravatar.com/avatar/bc.png",
		"given_name": "Bront",
		"family_name": "Labradoodle",
		"locale": "en-US",
		"https://slack.com/team_name": "kraneflannel"
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	got.EmailVerified = nil
	want := profile.User{ID: "U0R7JM", Name: "krane", Email: "krane@slack-corp.com", Image: "https://secure.gravatar.com/avatar/bc.png"}
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
