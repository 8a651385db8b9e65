package reddit

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
