package wordpress

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
		ID: "wordpress", Name: "WordPress.com", Type: providers.TypeOAuth,
		AuthURL:     "https://public-api.wordpress.com/oauth2/authorize",
		AuthParams:  map[string]string{"scope": "auth"},
		TokenURL:    "https://public-api.wordpress.com/oauth2/token",
		UserinfoURL: "https://public-api.wordpress.com/rest/v1/me",
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
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"ID": 76543210,
		"display_name": "Matt Example",
		"username": "mattexample",
		"email": "matt@example.com",
		"primary_blog": 123456789,
		"primary_blog_url": "https://mattexample.wordpress.com",
		"language": "en",
		"locale_variant": "",
		"token_site_id": false,
		"token_scope": ["auth"],
		"avatar_URL": "https://0.gravatar.com/avatar/5d41402abc4b2a76b9719d911017c592?s=96&d=identicon",
		"profile_URL": "https://gravatar.com/mattexample",
		"verified": true,
		"email_verified": true,
		"date": "2012-05-01T10:00:00+00:00",
		"site_count": 3,
		"visible_site_count": 3,
		"has_unseen_notes": false,
		"newest_note_type": "",
		"phone_account": false,
		"meta": {"links": {"self": "https://public-api.wordpress.com/rest/v1/me"}}
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "76543210", Name: "Matt Example", Email: "matt@example.com", Image: "https://0.gravatar.com/avatar/5d41402abc4b2a76b9719d911017c592?s=96&d=identicon"}
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
