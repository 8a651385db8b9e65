package foursquare

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "foursquare"},
		{Name: "name", Got: c.Name, Want: "Foursquare"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://foursquare.com/oauth2/authenticate"},
		{Name: "token", Got: c.Token.URL, Want: "https://foursquare.com/oauth2/access_token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://api.foursquare.com/v2/users/self"},
		{Name: "scope set", Got: hasScope, Want: false},
		{Name: "scope", Got: scope, Want: ""},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#000"}},
		{Name: "issuer", Got: c.Issuer, Want: ""},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
		{Name: "api version", Got: c.Userinfo.Params["v"], Want: "20230131"},
		{Name: "userinfo handler", Got: c.Userinfo.Request != nil, Want: true},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "user",
			JSON: `{"meta": {"code": 200, "requestId": "5ac51d7e6a607143d811cecb"},
		"response": {"user": {"id": "1234567", "firstName": "Jimmy", "lastName": "Foursquare",
			"gender": "male", "relationship": "self", "homeCity": "New York, NY",
			"photo": {"prefix": "https://fastly.4sqi.net/img/user/", "suffix": "/1234567-XYZ.jpg"},
			"contact": {"email": "jimmy@example.com", "phone": "5555555555"}}}}`,
			Want: profile.User{ID: "1234567", Name: "Jimmy Foursquare", Email: "jimmy@example.com", Image: "https://fastly.4sqi.net/img/user/original/1234567-XYZ.jpg"},
		},
		{
			Name: "first name only, no photo",
			JSON: `{"meta": {"code": 200}, "response": {"user": {"id": "9", "firstName": "Jimmy", "photo": {}, "contact": {}}}}`,
			Want: profile.User{ID: "9", Name: "Jimmy"},
		},
		{
			Name:    "no id",
			JSON:    `{"response": {"user": {"firstName": "x"}}}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}

func TestFetchProfile(t *testing.T) {
	tests := []struct {
		name  string
		opts  providers.OAuthUserConfig[Profile]
		wantV string
	}{
		{"default API version", providers.OAuthUserConfig[Profile]{}, "20230131"},
		{"apiVersion option", providers.OAuthUserConfig[Profile]{Userinfo: providers.UserinfoEndpoint[Profile]{Params: map[string]string{"v": "20240101"}}}, "20240101"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				q := r.URL.Query()
				if r.Method != http.MethodGet || r.URL.Path != "/v2/users/self" {
					t.Errorf("%s %s, want GET /v2/users/self", r.Method, r.URL.Path)
				}
				if q.Get("oauth_token") != "fsq-at" || q.Get("v") != tt.wantV || r.Header.Get("Authorization") != "" {
					t.Errorf("query %v, Authorization %q: want oauth_token=fsq-at, v=%s and no header", q, r.Header.Get("Authorization"), tt.wantV)
				}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"meta": {"code": 200, "requestId": "5ac51d7e6a607143d811cecb"},
		"response": {"user": {"id": "1234567", "firstName": "Jimmy", "lastName": "Foursquare",
			"gender": "male", "relationship": "self", "homeCity": "New York, NY",
			"photo": {"prefix": "https://fastly.4sqi.net/img/user/", "suffix": "/1234567-XYZ.jpg"},
			"contact": {"email": "jimmy@example.com", "phone": "5555555555"}}}}`)
			}))
			defer srv.Close()
			opts := tt.opts
			opts.Userinfo.URL = srv.URL + "/v2/users/self"
			c := New(opts)
			o := c.OAuth()
			p, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{URL: c.Userinfo.URL, Tokens: account.TokenSet{AccessToken: "fsq-at"}, HTTPClient: srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			u, err := o.MapProfile(context.Background(), p, account.TokenSet{})
			if err != nil || u.ID != "1234567" || u.Email != "jimmy@example.com" {
				t.Errorf("user = %+v, %v", u, err)
			}
		})
	}
}

func TestFetchProfileErrorHidesToken(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"meta": {"code": 401, "errorType": "invalid_auth"}}`, http.StatusUnauthorized)
	}))
	defer srv.Close()
	_, err := FetchProfile(context.Background(), providers.UserinfoRequest{URL: srv.URL, Tokens: account.TokenSet{AccessToken: "secret-fsq"}, HTTPClient: srv.Client()})
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("err = %v, want the 401", err)
	}
	var he *providers.HTTPError
	if errors.As(err, &he) && strings.Contains(he.URL, "secret-fsq") {
		t.Errorf("HTTPError.URL %q holds the token", he.URL)
	}
}
