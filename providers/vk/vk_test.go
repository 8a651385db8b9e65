package vk

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// tokens is a VK token response as account.TokenSet decodes it: email
// and user_id are extras.
var tokens = account.TokenSet{
	AccessToken: "vk1.a.tok",
	ExpiresIn:   86399,
	Extra:       map[string]any{"user_id": float64(210700286), "email": "lindsey@example.com"},
}

const usersGet = `{
	"response": [{
		"id": 210700286,
		"photo_100": "https://sun9-1.userapi.com/s/v1/ig2/abc.jpg?size=100x100&quality=96&crop=0,0,400,400&ava=1",
		"first_name": "Lindsey",
		"last_name": "Stirling",
		"can_access_closed": true,
		"is_closed": false
	}]
}`

func TestUserinfo(t *testing.T) {
	answer := usersGet
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer vk1.a.tok" {
			t.Errorf("authorization = %q", r.Header.Get("Authorization"))
		}
		if q := r.URL.Query(); q.Get("v") != "5.131" || q.Get("fields") != "photo_100" {
			t.Errorf("query = %q", r.URL.RawQuery)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(answer))
	}))
	defer srv.Close()
	o := New(providers.OAuthUserConfig[Profile]{
		ClientID: "cid",
		Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/method/users.get?fields=photo_100&v=5.131"},
	}).OAuth()
	req := providers.UserinfoRequest{Tokens: tokens, URL: o.UserinfoURL, HTTPClient: srv.Client()}
	p, err := o.UserinfoRequest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.MapProfile(context.Background(), p, tokens)
	if err != nil {
		t.Fatal(err)
	}
	want := profile.User{
		ID: "210700286", Name: "Lindsey Stirling", Email: "lindsey@example.com",
		Image: "https://sun9-1.userapi.com/s/v1/ig2/abc.jpg?size=100x100&quality=96&crop=0,0,400,400&ava=1",
	}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}

	for _, bad := range []string{
		`{"error": {"error_code": 5, "error_msg": "User authorization failed: invalid access_token (4).", "request_params": []}}`,
		`{"response": []}`,
	} {
		answer = bad
		if _, err := o.UserinfoRequest(context.Background(), req); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
