package trakt

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

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
