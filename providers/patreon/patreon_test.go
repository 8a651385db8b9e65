package patreon

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
		ID: "patreon", Name: "Patreon", Type: providers.TypeOAuth,
		AuthURL:     "https://www.patreon.com/oauth2/authorize",
		AuthParams:  map[string]string{"scope": "identity identity[email]"},
		TokenURL:    "https://www.patreon.com/api/oauth2/token",
		UserinfoURL: "https://www.patreon.com/api/oauth2/api/current_user",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{Bg: "#e85b46", Text: "#fff"},
	}
	if got := factsOf(o); !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"data": {
			"attributes": {
				"about": null,
				"created": "2017-10-20T21:36:23+00:00",
				"email": "corgi@example.com",
				"first_name": "Corgi",
				"full_name": "Corgi The Dev",
				"image_url": "https://c8.patreon.com/2/200/207",
				"is_email_verified": true,
				"last_name": "The Dev",
				"thumb_url": "https://c8.patreon.com/2/100/207",
				"url": "https://www.patreon.com/corgithedev",
				"vanity": "corgithedev"
			},
			"id": "207",
			"relationships": {"pledges": {"data": []}},
			"type": "user"
		},
		"links": {"self": "https://www.patreon.com/api/user/207"}
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "207", Name: "Corgi The Dev", Email: "corgi@example.com", Image: "https://c8.patreon.com/2/200/207"}
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
