package wordpress

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := providertest.Config{
		ID: "wordpress", Name: "WordPress.com", Type: providers.TypeOAuth,
		AuthURL:     "https://public-api.wordpress.com/oauth2/authorize",
		AuthParams:  map[string]string{"scope": "auth"},
		TokenURL:    "https://public-api.wordpress.com/oauth2/token",
		UserinfoURL: "https://public-api.wordpress.com/rest/v1/me",
		Checks:      []providers.Check{providers.CheckPKCE},
	}
	providertest.CheckConfig(t, o, want)
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
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "76543210", Name: "Matt Example", Email: "matt@example.com", Image: "https://0.gravatar.com/avatar/5d41402abc4b2a76b9719d911017c592?s=96&d=identicon"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
