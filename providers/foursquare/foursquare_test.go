package foursquare

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "foursquare"},
		{"name", c.Name, "Foursquare"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://foursquare.com/oauth2/authenticate"},
		{"token", c.Token.URL, "https://foursquare.com/oauth2/access_token"},
		{"userinfo", c.Userinfo.URL, "https://api.foursquare.com/v2/users/self"},
		{"scope set", hasScope, false},
		{"scope", scope, ""},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#000", Text: "#fff"}},
		{"issuer", c.Issuer, ""},
		{"profile callback set", c.Profile != nil, true},
		{"api version", c.Userinfo.Params["v"], "20230131"},
		{"userinfo handler", c.Userinfo.Request != nil, true},
	} {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.field, tt.got, tt.want)
		}
	}
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []struct {
		name     string
		json     string
		tokens   account.TokenSet
		want     profile.User
		verified bool // EmailVerified is set
		wantErr  bool
	}{
		{
			name: "user",
			json: `{"meta": {"code": 200, "requestId": "5ac51d7e6a607143d811cecb"},
		"response": {"user": {"id": "1234567", "firstName": "Jimmy", "lastName": "Foursquare",
			"gender": "male", "relationship": "self", "homeCity": "New York, NY",
			"photo": {"prefix": "https://fastly.4sqi.net/img/user/", "suffix": "/1234567-XYZ.jpg"},
			"contact": {"email": "jimmy@example.com", "phone": "5555555555"}}}}`,
			want: profile.User{ID: "1234567", Name: "Jimmy Foursquare", Email: "jimmy@example.com", Image: "https://fastly.4sqi.net/img/user/original/1234567-XYZ.jpg"},
		},
		{
			name: "first name only, no photo",
			json: `{"meta": {"code": 200}, "response": {"user": {"id": "9", "firstName": "Jimmy", "photo": {}, "contact": {}}}}`,
			want: profile.User{ID: "9", Name: "Jimmy"},
		},
		{
			name:    "no id",
			json:    `{"response": {"user": {"firstName": "x"}}}`,
			wantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := o.DecodeProfile([]byte(tt.json))
			if err != nil {
				t.Fatalf("DecodeProfile: %v", err)
			}
			u, err := o.MapProfile(context.Background(), p, tt.tokens)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("MapProfile = %+v, want an error", u)
				}
				return
			}
			if err != nil {
				t.Fatalf("MapProfile: %v", err)
			}
			if (u.EmailVerified != nil) != tt.verified {
				t.Errorf("EmailVerified = %v, want set: %v", u.EmailVerified, tt.verified)
			}
			u.EmailVerified = nil
			if u != tt.want {
				t.Errorf("user = %+v\nwant   %+v", u, tt.want)
			}
		})
	}
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
