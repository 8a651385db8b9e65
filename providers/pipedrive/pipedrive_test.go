package pipedrive

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const me = `{
	"success": true,
	"data": {
		"id": 777,
		"name": "James Bond",
		"default_currency": "USD",
		"locale": "en_US",
		"lang": 1,
		"email": "james@example.com",
		"phone": null,
		"activated": true,
		"last_login": "2017-12-18 08:43:13",
		"created": "2017-11-08 12:00:22",
		"modified": "2017-12-18 08:43:13",
		"has_created_company": true,
		"is_admin": 1,
		"timezone_name": "Europe/Helsinki",
		"timezone_offset": "+02:00",
		"active_flag": true,
		"role_id": 1,
		"icon_url": "https://d3myhnqlqw2314.cloudfront.net/profile_120x120_622732.jpg",
		"is_you": true,
		"company_id": 5189,
		"company_name": "MI6",
		"company_domain": "mi6",
		"company_country": "GB",
		"language": {"language_code": "en", "country_code": "US"}
	}
}`

func TestUserinfo(t *testing.T) {
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		if r.Header.Get("Authorization") != "Bearer tok" {
			t.Errorf("authorization = %q", r.Header.Get("Authorization"))
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(me))
	}))
	defer srv.Close()
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/v1/users/me"}}).OAuth()
	want := profile.User{ID: "777", Name: "James Bond", Email: "james@example.com", Image: "https://d3myhnqlqw2314.cloudfront.net/profile_120x120_622732.jpg"}
	for _, extra := range []map[string]any{
		{"api_domain": srv.URL + "/"}, // the company's API: <api_domain>/api/v1/users/me
		nil,                           // no api_domain: the userinfo URL
		{"api_domain": "not a url"},   // unusable: the userinfo URL
	} {
		tokens := account.TokenSet{AccessToken: "tok", Extra: extra}
		p, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{Tokens: tokens, URL: o.UserinfoURL, HTTPClient: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		got, err := o.MapProfile(context.Background(), p, tokens)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("user = %+v, want %+v", got, want)
		}
	}
	if wantPaths := []string{"/api/v1/users/me", "/v1/users/me", "/v1/users/me"}; !reflect.DeepEqual(paths, wantPaths) {
		t.Errorf("paths = %v, want %v", paths, wantPaths)
	}
}
