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
	"github.com/gatehouse-auth/gatehouse/providers"
)

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
