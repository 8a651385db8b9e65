package twitter

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestDefaults(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	if o.ID != "twitter" || o.Type != providers.TypeOAuth {
		t.Fatalf("base = %+v", o.Base)
	}
	if o.Authorization.URL != "https://x.com/i/oauth2/authorize" || o.Token.URL != "https://api.x.com/2/oauth2/token" ||
		o.UserinfoURL != "https://api.x.com/2/users/me?user.fields=profile_image_url" {
		t.Errorf("endpoints = %q %q %q", o.Authorization.URL, o.Token.URL, o.UserinfoURL)
	}
	if s, _ := o.Authorization.Scope(); s != "users.read tweet.read offline.access" {
		t.Errorf("scope = %q", s)
	}
	if got := o.EffectiveChecks(false); !reflect.DeepEqual(got, []providers.Check{providers.CheckPKCE, providers.CheckState}) {
		t.Errorf("checks = %v", got)
	}
	if o.Style != (providers.Style{BrandColor: "#1da1f2"}) {
		t.Errorf("style = %+v", o.Style)
	}
	if err := o.Validate(); err != nil {
		t.Error(err)
	}
	c := New(providers.OAuthUserConfig[Profile]{ID: "x", Name: "X", Checks: []providers.Check{providers.CheckPKCE}})
	if c.ID != "x" || c.Name != "X" || len(c.Checks) != 1 || c.Token.URL != TokenURL || c.Type != providers.TypeOAuth {
		t.Errorf("merge = %+v", c)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	tests := []struct {
		answer string
		want   profile.User
		err    bool
	}{
		{`{"data":{"id":"2244994945","name":"X Developers","username":"XDevelopers",
			"profile_image_url":"https://pbs.twimg.com/profile_images/1/normal.jpg"}}`,
			profile.User{ID: "2244994945", Name: "X Developers", Image: "https://pbs.twimg.com/profile_images/1/normal.jpg"}, false},
		{`{"data":{"id":"1","name":"N","username":"n","email":"n@example.com"}}`,
			profile.User{ID: "1", Name: "N", Email: "n@example.com"}, false},
		{`{"errors":[{"title":"Unauthorized"}]}`, profile.User{}, true},
	}
	for _, tt := range tests {
		p, err := o.DecodeProfile([]byte(tt.answer))
		if err != nil {
			t.Fatal(err)
		}
		u, err := o.MapProfile(context.Background(), p, account.TokenSet{})
		if (err != nil) != tt.err || u != tt.want {
			t.Errorf("%s: user = %+v, err = %v", tt.answer, u, err)
		}
	}
}
