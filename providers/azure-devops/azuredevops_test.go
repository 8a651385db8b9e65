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

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "azure-devops"},
		{Name: "name", Got: c.Name, Want: "Azure DevOps"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://app.vssps.visualstudio.com/oauth2/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://app.vssps.visualstudio.com/oauth2/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://app.vssps.visualstudio.com/_apis/profile/profiles/me"},
		{Name: "scope", Got: scope, Want: "vso.profile"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckState}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{}},
		{Name: "issuer", Got: c.Issuer, Want: ""},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
		{Name: "response_type", Got: c.Authorization.Params["response_type"], Want: "Assertion"},
		{Name: "userinfo params", Got: c.Userinfo.Params, Want: map[string]string{"details": "true", "coreAttributes": "Avatar", "api-version": "6.0"}},
		{Name: "token handler", Got: c.Token.Request != nil, Want: true},
		{Name: "scope option", Got: New(providers.OAuthUserConfig[Profile]{Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": "vso.profile vso.code"}}}).Authorization.Params["scope"], Want: "vso.profile vso.code"},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "profile with PNG avatar",
			JSON: `{"displayName": "Jamal Hartnett", "publicAlias": "4f7c2e1a-9b3d-4c5e-8f6a-1b2c3d4e5f60",
		"emailAddress": "jamal@fabrikam.com", "coreRevision": 4, "timeStamp": "2023-05-04T21:06:17.37+00:00",
		"id": "4f7c2e1a-9b3d-4c5e-8f6a-1b2c3d4e5f60", "revision": 4,
		"coreAttributes": {"Avatar": {"descriptor": {"attributeName": "Avatar", "containerName": "Core"},
			"value": {"$type": "System.Byte[]", "$value": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="},
			"timeStamp": "2023-05-04T21:06:17.37+00:00", "revision": 4}}}`,
			Want: profile.User{ID: "4f7c2e1a-9b3d-4c5e-8f6a-1b2c3d4e5f60", Name: "Jamal Hartnett", Email: "jamal@fabrikam.com", Image: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="},
		},
		{
			Name: "avatar under \"value\", unknown bytes",
			JSON: `{"id": "a1", "displayName": "A", "emailAddress": "a@fabrikam.com",
		"coreAttributes": {"Avatar": {"value": {"value": "AAECAw=="}}}}`,
			Want: profile.User{ID: "a1", Name: "A", Email: "a@fabrikam.com", Image: "data:image/jpeg;base64,AAECAw=="},
		},
		{
			Name: "no avatar",
			JSON: `{"id": "a2", "displayName": "B", "emailAddress": "b@fabrikam.com"}`,
			Want: profile.User{ID: "a2", Name: "B", Email: "b@fabrikam.com"},
		},
		{
			Name:    "no id",
			JSON:    `{"displayName": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
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
