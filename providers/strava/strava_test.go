package strava

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
		ID: "strava", Name: "Strava", Type: providers.TypeOAuth,
		AuthURL:     "https://www.strava.com/api/v3/oauth/authorize",
		AuthParams:  map[string]string{"scope": "read", "approval_prompt": "auto", "response_type": "code"},
		TokenURL:    "https://www.strava.com/api/v3/oauth/token",
		UserinfoURL: "https://www.strava.com/api/v3/athlete",
		Checks:      []providers.Check{providers.CheckPKCE},
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
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"id": 1234567890987654321,
		"username": "marianne_t",
		"resource_state": 3,
		"firstname": "Marianne",
		"lastname": "Teutenberg",
		"city": "San Francisco",
		"state": "CA",
		"country": "US",
		"sex": "F",
		"premium": true,
		"created_at": "2017-11-14T02:30:05Z",
		"updated_at": "2018-02-06T19:32:20Z",
		"badge_type_id": 4,
		"profile_medium": "https://xxxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/medium.jpg",
		"profile": "https://xxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/large.jpg",
		"follower_count": 5,
		"friend_count": 5,
		"measurement_preference": "feet",
		"ftp": null,
		"weight": 0
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "1234567890987654321", Name: "Marianne Teutenberg", Image: "https://xxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/large.jpg"}
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
