package azuredevops

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestExchangeAssertion(t *testing.T) {
	var got url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/oauth2/token" || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			t.Errorf("%s %s (%s), want a form POST to /oauth2/token", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		}
		if err := r.ParseForm(); err != nil {
			t.Error(err)
		}
		got = r.PostForm
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"access_token": "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.at", "token_type": "jwt-bearer",
			"expires_in": "3599", "refresh_token": "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.rt", "scope": "vso.profile"}`)
	}))
	defer srv.Close()
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "app-id", ClientSecret: "eyJ.client-secret-jwt",
		Token: providers.TokenEndpoint{URL: srv.URL + "/oauth2/token"}})
	tokens, err := c.Token.Request(context.Background(), providers.TokenRequest{
		Code: "eyJ.the-code", RedirectURI: "https://app.example/auth/callback/azure-devops",
		ClientID: c.ClientID, ClientSecret: c.ClientSecret, URL: c.Token.URL, HTTPClient: srv.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := url.Values{
		"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion":      {"eyJ.client-secret-jwt"},
		"grant_type":            {"urn:ietf:params:oauth:grant-type:jwt-bearer"},
		"assertion":             {"eyJ.the-code"},
		"redirect_uri":          {"https://app.example/auth/callback/azure-devops"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("form = %v\nwant   %v", got, want)
	}
	if tokens.AccessToken != "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.at" || tokens.RefreshToken == "" || tokens.ExpiresIn != 3599 {
		t.Errorf("tokens = %+v", tokens)
	}

	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"Error": "invalid_client", "ErrorDescription": "Client secret is invalid"}`, http.StatusUnauthorized)
	}))
	defer bad.Close()
	_, err = ExchangeAssertion(context.Background(), providers.TokenRequest{Code: "c", URL: bad.URL, HTTPClient: bad.Client()})
	var he *providers.HTTPError
	if !errors.As(err, &he) || he.StatusCode != http.StatusUnauthorized || !strings.Contains(he.Body, "invalid_client") {
		t.Errorf("err = %v, want the provider's 401 answer", err)
	}
}
