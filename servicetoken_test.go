package gatehouse_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// TestTokenEndpointAuthMethods: the metadata's
// token_endpoint_auth_methods_supported is true of the token endpoint. An
// API key as a bearer token gets a token; the same key sent as a
// registered method would send it (client_secret_basic, the default when
// the field is left out, or client_secret_post) is refused.
func TestTokenEndpointAuthMethods(t *testing.T) {
	store := memory.New()
	ctx := context.Background()
	u, err := store.CreateUser(ctx, adapter.User{Email: "ada@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	full, id, hash := apikey.New(apikey.DefaultPrefix)
	if err := store.CreateAPIKey(ctx, apikey.Key{ID: id, Hash: hash, Name: "ci", UserID: u.ID, CreatedAt: time.Now()}, 0); err != nil {
		t.Fatal(err)
	}
	_, secret, err := apikey.Parse(apikey.DefaultPrefix, full)
	if err != nil {
		t.Fatal(err)
	}
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Adapter = store
		c.MachineAccess = apikey.Enable(apikey.Config{Tokens: &servicetoken.Config{Audiences: []string{"https://api.example.test"}}})
	})

	resp, err := http.Get(a.url + "/auth/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Methods []string `json:"token_endpoint_auth_methods_supported"`
	}
	err = json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if err != nil || len(m.Methods) != 1 || m.Methods[0] != servicetoken.AuthMethodAPIKey {
		t.Fatalf("token_endpoint_auth_methods_supported = %v (%v); want [%s]", m.Methods, err, servicetoken.AuthMethodAPIKey)
	}

	token := func(form url.Values, auth func(*http.Request)) int {
		form.Set("grant_type", servicetoken.GrantType)
		req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/token", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		auth(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := token(url.Values{}, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+full) }); code != http.StatusOK {
		t.Fatalf("the key as a bearer token: %d; want 200", code)
	}
	for name, tc := range map[string]struct {
		form url.Values
		auth func(*http.Request)
	}{
		"client_secret_basic, the key":    {url.Values{}, func(r *http.Request) { r.SetBasicAuth(id, full) }},
		"client_secret_basic, the secret": {url.Values{}, func(r *http.Request) { r.SetBasicAuth(id, secret) }},
		"client_secret_post, the key":     {url.Values{"client_id": {id}, "client_secret": {full}}, func(*http.Request) {}},
		"client_secret_post, the secret":  {url.Values{"client_id": {id}, "client_secret": {secret}}, func(*http.Request) {}},
	} {
		if code := token(tc.form, tc.auth); code != http.StatusUnauthorized {
			t.Errorf("%s: %d; want 401", name, code)
		}
	}
}
