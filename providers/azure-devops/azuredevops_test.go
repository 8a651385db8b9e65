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
		{"id", c.ID, "azure-devops"},
		{"name", c.Name, "Azure DevOps"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://app.vssps.visualstudio.com/oauth2/authorize"},
		{"token", c.Token.URL, "https://app.vssps.visualstudio.com/oauth2/token"},
		{"userinfo", c.Userinfo.URL, "https://app.vssps.visualstudio.com/_apis/profile/profiles/me"},
		{"scope", scope, "vso.profile"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckState}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{}},
		{"issuer", c.Issuer, ""},
		{"profile callback set", c.Profile != nil, true},
		{"response_type", c.Authorization.Params["response_type"], "Assertion"},
		{"userinfo params", c.Userinfo.Params, map[string]string{"details": "true", "coreAttributes": "Avatar", "api-version": "6.0"}},
		{"token handler", c.Token.Request != nil, true},
		{"scope option", New(providers.OAuthUserConfig[Profile]{Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": "vso.profile vso.code"}}}).Authorization.Params["scope"], "vso.profile vso.code"},
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
			name: "profile with PNG avatar",
			json: `{"displayName": "Jamal Hartnett", "publicAlias": "4f7c2e1a-9b3d-4c5e-8f6a-1b2c3d4e5f60",
		"emailAddress": "jamal@fabrikam.com", "coreRevision": 4, "timeStamp": "2023-05-04T21:06:17.37+00:00",
		"id": "4f7c2e1a-9b3d-4c5e-8f6a-1b2c3d4e5f60", "revision": 4,
		"coreAttributes": {"Avatar": {"descriptor": {"attributeName": "Avatar", "containerName": "Core"},
			"value": {"$type": "System.Byte[]", "$value": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="},
			"timeStamp": "2023-05-04T21:06:17.37+00:00", "revision": 4}}}`,
			want: profile.User{ID: "4f7c2e1a-9b3d-4c5e-8f6a-1b2c3d4e5f60", Name: "Jamal Hartnett", Email: "jamal@fabrikam.com", Image: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="},
		},
		{
			name: "avatar under \"value\", unknown bytes",
			json: `{"id": "a1", "displayName": "A", "emailAddress": "a@fabrikam.com",
		"coreAttributes": {"Avatar": {"value": {"value": "AAECAw=="}}}}`,
			want: profile.User{ID: "a1", Name: "A", Email: "a@fabrikam.com", Image: "data:image/jpeg;base64,AAECAw=="},
		},
		{
			name: "no avatar",
			json: `{"id": "a2", "displayName": "B", "emailAddress": "b@fabrikam.com"}`,
			want: profile.User{ID: "a2", Name: "B", Email: "b@fabrikam.com"},
		},
		{
			name:    "no id",
			json:    `{"displayName": "x"}`,
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
