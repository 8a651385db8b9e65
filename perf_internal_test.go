package gatehouse

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The providers list is encoded once per origin: without Config.URL,
// requests from two origins in turn each get their own origin's URLs, the
// same bytes json.Encoder writes for the list of that moment.
func TestProvidersListPerOrigin(t *testing.T) {
	h, err := New(Config{Secret: []string{"test-secret-test-secret-test-secret-0123"}, BasePath: "/auth",
		Providers: []providers.Provider{
			providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Dev <&>", Type: providers.TypeOIDC, Issuer: "http://127.0.0.1:1", ClientID: "c", ClientSecret: "s"},
			providers.OAuthConfig[profile.Claims]{ID: "gh", Name: "GitHub", Type: providers.TypeOAuth, ClientID: "c", ClientSecret: "s",
				Authorization: providers.AuthorizationEndpoint{URL: "https://gh.example/authorize"}, Token: providers.TokenEndpoint{URL: "https://gh.example/token"},
				Userinfo: providers.UserinfoEndpoint[profile.Claims]{URL: "https://gh.example/user"}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"a.example", "b.example:8080", "a.example", "a.example", "b.example:8080"} {
		r := httptest.NewRequest(http.MethodGet, "http://"+host+"/auth/providers", nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		want := httptest.NewRecorder()
		list := map[string]providers.AppProvider{}
		for _, p := range h.Providers(r) {
			list[p.ID] = p
		}
		httpx.WriteJSON(want, http.StatusOK, list)
		if w.Code != http.StatusOK || w.Body.String() != want.Body.String() || w.Header().Get("Content-Type") != "application/json" ||
			w.Header().Get("Cache-Control") != want.Header().Get("Cache-Control") {
			t.Fatalf("%s: %d %v %s\nwant %s", host, w.Code, w.Header(), w.Body, want.Body)
		}
		var got map[string]providers.AppProvider
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got["gh"].SigninURL != "http://"+host+"/auth/signin/gh" {
			t.Fatalf("%s: %v %+v", host, err, got)
		}
	}
}

// The Middleware's context answers as context.WithValue would: its state
// under ctxKey, the parent's values and cancellation otherwise.
func TestStateContext(t *testing.T) {
	type other struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), other{}, "v"))
	c := &stateContext{Context: parent, st: reqState{csrfToken: "t"}}
	if st, ok := c.Value(ctxKey{}).(*reqState); !ok || st != &c.st || st.csrfToken != "t" {
		t.Fatalf("Value(ctxKey) = %v", c.Value(ctxKey{}))
	}
	if c.Value(other{}) != "v" {
		t.Fatal("the parent's value is lost")
	}
	inner := context.WithValue(c, ctxKey{}, &reqState{csrfToken: "inner"})
	if inner.Value(ctxKey{}).(*reqState).csrfToken != "inner" {
		t.Fatal("an inner state does not win")
	}
	child, stop := context.WithCancel(c)
	defer stop()
	cancel()
	<-child.Done()
	if c.Err() != context.Canceled || child.Err() != context.Canceled {
		t.Fatalf("cancellation: %v %v", c.Err(), child.Err())
	}
}
