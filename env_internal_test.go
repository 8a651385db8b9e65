package gatehouse

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
)

// TestEnvDefaultsAtNew: a configured provider whose client id, secret or
// issuer is empty takes AUTH_<ID>_ID, _SECRET, _ISSUER at New, as Auth.js
// does; set values are kept; still missing, the error names the
// variable. Failed before: New answered "clientId is required".
func TestEnvDefaultsAtNew(t *testing.T) {
	env := map[string]string{"AUTH_YANDEX_ID": "env-id", "AUTH_YANDEX_SECRET": "env-secret", "AUTH_CORP_SSO_ISSUER": "https://sso.example"}
	cfg := Config{Secret: []string{"test-secret-test-secret-test-secret-0123"}, URL: "https://app.example/auth",
		Getenv: func(k string) string { return env[k] },
		Providers: []providers.Provider{
			yandex.New(providers.OAuthUserConfig[yandex.Profile]{}),
			providers.OAuthConfig[map[string]any]{ID: "corp-sso", Name: "Corp", Type: providers.TypeOIDC, ClientID: "own-id"},
		}}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	y := h.flows["yandex"].(oauthFlow).Config()
	if y.ClientID != "env-id" || y.ClientSecret != "env-secret" {
		t.Fatalf("yandex: client %q secret %q, want the environment's", y.ClientID, y.ClientSecret)
	}
	c := h.flows["corp-sso"].(oauthFlow).Config()
	if c.ClientID != "own-id" || c.Issuer != "https://sso.example" {
		t.Fatalf("corp-sso: client %q issuer %q, want its own id and the environment's issuer", c.ClientID, c.Issuer)
	}

	cfg.Getenv = func(string) string { return "" }
	_, err = New(cfg)
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Provider != "yandex" || !strings.Contains(err.Error(), "AUTH_YANDEX_ID") {
		t.Fatalf("New without the variables: %v, want a ConfigError naming AUTH_YANDEX_ID", err)
	}
}

// TestEmailAPIKeyFromEnv: an HTTP API e-mail provider made without a key
// takes AUTH_<ID>_KEY at New, and sends with it; without it, New names the
// variable. Failed before: the provider was accepted and every send
// failed with "no API key".
func TestEmailAPIKeyFromEnv(t *testing.T) {
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		w.Write([]byte(`{"id":"1"}`))
	}))
	t.Cleanup(srv.Close)
	env := map[string]string{"AUTH_RESEND_KEY": "re_from_env"}
	cfg := Config{Secret: []string{"test-secret-test-secret-test-secret-0123"}, URL: "https://app.example/auth",
		Adapter: memory.New(), Getenv: func(k string) string { return env[k] },
		Providers: []providers.Provider{email.Resend(email.Config{From: "Site <site@example.com>"}, email.API{URL: srv.URL})}}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := h.flows["resend"].(*emailRuntime).cfg
	if err := p.SendVerificationRequest(context.Background(), email.VerificationRequest{Identifier: "a@example.com", URL: "https://app.example/x", Provider: p}); err != nil {
		t.Fatal(err)
	}
	if gotAuth != "Bearer re_from_env" {
		t.Fatalf("sent with Authorization %q, want the key from AUTH_RESEND_KEY", gotAuth)
	}
	cfg.Getenv = func(string) string { return "" }
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "AUTH_RESEND_KEY") {
		t.Fatalf("New without a key: %v, want an error naming AUTH_RESEND_KEY", err)
	}
}
