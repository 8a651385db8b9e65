package trakt

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := providertest.Config{
		ID: "trakt", Name: "Trakt", Type: providers.TypeOAuth,
		AuthURL:     "https://trakt.tv/oauth/authorize",
		AuthParams:  map[string]string{"scope": ""},
		TokenURL:    "https://api.trakt.tv/oauth/token",
		UserinfoURL: "https://api.trakt.tv/users/me?extended=full",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{BrandColor: "#ED2224"},
		UserRequest: true,
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

const me = `{
	"username": "sean",
	"private": false,
	"name": "Sean Rudford",
	"vip": true,
	"vip_ep": true,
	"ids": {"slug": "sean"},
	"joined_at": "2010-09-25T17:49:25.000Z",
	"location": "SF",
	"about": "I have all your cassette tapes.",
	"gender": "male",
	"age": 35,
	"images": {"avatar": {"full": "https://secure.gravatar.com/avatar/30c2f0dfbc39e77b1b0e1b8a3c1a1f1c.jpg?size=256"}}
}`

func TestUserinfo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("trakt-api-version") != "2" || r.Header.Get("trakt-api-key") != "cid" || r.Header.Get("Authorization") != "Bearer tok" {
			t.Errorf("headers = %v", r.Header)
		}
		if r.URL.Query().Get("extended") != "full" {
			t.Errorf("query = %q", r.URL.RawQuery)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(me))
	}))
	defer srv.Close()
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/users/me?extended=full"}}).OAuth()
	p, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{
		Tokens: account.TokenSet{AccessToken: "tok"}, URL: o.UserinfoURL, ClientID: "cid", HTTPClient: srv.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.MapProfile(context.Background(), p, account.TokenSet{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (profile.User{ID: "sean", Name: "Sean Rudford", Image: "https://secure.gravatar.com/avatar/30c2f0dfbc39e77b1b0e1b8a3c1a1f1c.jpg?size=256"}); got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	got := providertest.MapJSON(t, o, me, account.TokenSet{})
	if want := (profile.User{ID: "sean", Name: "Sean Rudford", Image: "https://secure.gravatar.com/avatar/30c2f0dfbc39e77b1b0e1b8a3c1a1f1c.jpg?size=256"}); got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
