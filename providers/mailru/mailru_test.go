package mailru

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestConfig(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"})
	o := c.OAuth()
	want := facts{
		ID: "mailru", Name: "Mail.ru", Type: providers.TypeOAuth,
		AuthURL:     "https://oauth.mail.ru/login",
		AuthParams:  map[string]string{"scope": "userinfo"},
		TokenURL:    "https://oauth.mail.ru/token",
		UserinfoURL: "https://oauth.mail.ru/userinfo",
		Checks:      []providers.Check{providers.CheckPKCE},
	}
	if got := factsOf(o); !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
	if c.Profile != nil {
		t.Error("Profile is set; Mail.ru uses the default mapping")
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"id": "1234567890123456789",
		"client_id": "app-1",
		"gender": "m",
		"name": "Иван Петров",
		"nickname": "vanya",
		"locale": "ru_RU",
		"first_name": "Иван",
		"last_name": "Петров",
		"birthday": "01.02.1990",
		"image": "https://filin.mail.ru/pic?d=abc&width=180&height=180",
		"email": "ivan@mail.ru"
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "1234567890123456789", Name: "Иван Петров", Email: "ivan@mail.ru"}
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
