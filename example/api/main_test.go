package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/example/internal/apiservice"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// TestTokenFromTheSite: a token the site issues for this service's
// audience opens GET /me; no token, a token without profile:read, or a
// token for another service does not.
func TestTokenFromTheSite(t *testing.T) {
	store := memory.New()
	user, err := store.CreateUser(context.Background(), adapter.User{Email: "ada@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	full, id, hash := apikey.New(apikey.DefaultPrefix)
	if err := store.CreateAPIKey(context.Background(), apikey.Key{ID: id, Hash: hash, Name: "ci", UserID: user.ID,
		Permissions: permission.MustSet("profile:read"), CreatedAt: time.Now()}, 0); err != nil {
		t.Fatal(err)
	}
	const audience = "https://api.example.test"
	site, err := gatehouse.New(gatehouse.Config{Secret: []string{"the-example-api-test-secret-of-32-bytes"}, Adapter: store,
		Providers: []providers.Provider{credentials.Config{Fields: []credentials.Field{{Name: "u"}},
			Authorize: func(context.Context, map[string]string, *http.Request) (*profile.User, error) { return nil, nil }}},
		MachineAccess: apikey.Enable(apikey.Config{
			Permissions: func(context.Context, string, string) (permission.Set, error) {
				return permission.MustSet("profile:read"), nil
			},
			Tokens: &servicetoken.Config{Audiences: []string{audience, "https://other.example.test"}},
		})})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site)
	defer srv.Close()
	token := func(form url.Values) string {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/auth/token", strings.NewReader(form.Encode()))
		req.Header.Set("Authorization", "Bearer "+full)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			AccessToken string `json:"access_token"`
		}
		json.NewDecoder(resp.Body).Decode(&out)
		return out.AccessToken
	}
	api, err := apiservice.New(srv.URL+"/auth", audience)
	if err != nil {
		t.Fatal(err)
	}
	me := func(tok string) (int, map[string]any) {
		req := httptest.NewRequest(http.MethodGet, "/me", nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, req)
		var out map[string]any
		json.Unmarshal(rec.Body.Bytes(), &out)
		return rec.Code, out
	}
	if status, out := me(token(url.Values{"audience": {audience}, "scope": {"profile:read"}})); status != http.StatusOK || out["user"] != user.ID || out["client"] != id {
		t.Errorf("GET /me with the site's token: %d %v", status, out)
	}
	for name, tc := range map[string]struct {
		token string
		want  int
	}{
		"no token":          {"", http.StatusUnauthorized},
		"no profile:read":   {token(url.Values{"audience": {audience}}), http.StatusForbidden},
		"another service's": {token(url.Values{"audience": {"https://other.example.test"}, "scope": {"profile:read"}}), http.StatusUnauthorized},
		"the API key":       {full, http.StatusUnauthorized},
	} {
		if status, _ := me(tc.token); status != tc.want {
			t.Errorf("%s: %d; want %d", name, status, tc.want)
		}
	}
}
