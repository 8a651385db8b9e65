package gatehouse

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// benchConfig is a Config as an application keeps it: built once, with an
// OAuth provider of fixed endpoints (no discovery) and callbacks.
func benchConfig() Config {
	return Config{
		Secret: []string{"test-secret-test-secret-test-secret-0123"}, URL: "http://localhost/auth",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "p", Name: "P", Type: providers.TypeOAuth,
			ClientID: "client", ClientSecret: "secret",
			Authorization: providers.AuthorizationEndpoint{URL: "https://p.example/authorize"},
			Token:         providers.TokenEndpoint{URL: "https://p.example/token"},
			Userinfo:      providers.UserinfoEndpoint[profile.Claims]{URL: "https://p.example/me"}}},
		Callbacks: Callbacks{Redirect: func(url, _ string) string { return url }},
		Events:    Events{SignIn: nil, Session: func(_ context.Context, _ *Session) {}},
	}
}

// BenchmarkAuthOverhead: Auth(r, cfg) with a Config reused from call to
// call, against the Handler it finds called directly with an in-memory
// ResponseWriter. The difference is what Auth adds: finding the Handler
// and building the *http.Response.
func BenchmarkAuthOverhead(b *testing.B) {
	cfg := benchConfig()
	r := httptest.NewRequest(http.MethodGet, "http://localhost/auth/providers", nil)
	if res := Auth(r, cfg); res.StatusCode != http.StatusOK {
		b.Fatalf("Auth answered %d", res.StatusCode)
	}
	h, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Handler", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var w httpx.Response
			h.ServeHTTP(&w, r)
		}
	})
	b.Run("Auth", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Auth(r, cfg)
		}
	})
}
