package reddit

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
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"})
	o := c.OAuth()
	want := providertest.Config{
		ID: "reddit", Name: "Reddit", Type: providers.TypeOAuth,
		AuthURL:     "https://www.reddit.com/api/v1/authorize",
		AuthParams:  map[string]string{"scope": "identity"},
		TokenURL:    "https://www.reddit.com/api/v1/access_token",
		UserinfoURL: "https://oauth.reddit.com/api/v1/me",
		Checks:      []providers.Check{providers.CheckState},
		Style:       providers.Style{BrandColor: "#FF4500"},
		UserRequest: true,
	}
	providertest.CheckConfig(t, o, want)
	if c.Profile != nil {
		t.Error("Profile is set; Reddit uses the default mapping")
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

const me = `{
	"is_employee": false,
	"has_verified_email": true,
	"over_18": true,
	"icon_img": "https://styles.redditmedia.com/t5_abc/styles/profileIcon_xyz.png?width=256",
	"snoovatar_img": "",
	"id": "1w72",
	"name": "spez",
	"created": 1118030400.0,
	"created_utc": 1118030400.0,
	"total_karma": 937621,
	"link_karma": 150000,
	"comment_karma": 787621,
	"verified": true
}`

func TestUserinfo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") != UserAgent || r.Header.Get("Authorization") != "Bearer tok" {
			t.Errorf("headers = %v", r.Header)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(me))
	}))
	defer srv.Close()
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/api/v1/me"}}).OAuth()
	p, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{
		Tokens: account.TokenSet{AccessToken: "tok"}, URL: o.UserinfoURL, HTTPClient: srv.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.MapProfile(context.Background(), p, account.TokenSet{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (profile.User{ID: "1w72", Name: "spez"}); got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	got := providertest.MapJSON(t, o, me, account.TokenSet{})
	if want := (profile.User{ID: "1w72", Name: "spez"}); got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
