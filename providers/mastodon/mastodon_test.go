package mastodon

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	for _, issuer := range []string{"https://mastodon.social", "https://mastodon.social/"} {
		o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: issuer}).OAuth()
		want := providertest.Config{
			ID: "mastodon", Name: "Mastodon", Type: providers.TypeOAuth,
			AuthURL:     "https://mastodon.social/oauth/authorize",
			AuthParams:  map[string]string{"scope": "read"},
			TokenURL:    "https://mastodon.social/oauth/token",
			UserinfoURL: "https://mastodon.social/api/v1/accounts/verify_credentials",
			Issuer:      issuer,
			Checks:      []providers.Check{providers.CheckPKCE},
		}
		t.Run(issuer, func(t *testing.T) { providertest.CheckConfig(t, o, want) })
		if err := o.Validate(); err != nil {
			t.Errorf("Validate: %v", err)
		}
	}
}

func TestNoIssuer(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	if o.Authorization.URL != "" || o.Token.URL != "" || o.UserinfoURL != "" {
		t.Errorf("endpoints without an issuer: %q %q %q", o.Authorization.URL, o.Token.URL, o.UserinfoURL)
	}
	if err := o.Validate(); err == nil {
		t.Error("Validate accepts a Mastodon provider without an issuer")
	}
}
