package gatehouse

import (
	"errors"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
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
	y := h.oauth["yandex"].cfg
	if y.ClientID != "env-id" || y.ClientSecret != "env-secret" {
		t.Fatalf("yandex: client %q secret %q, want the environment's", y.ClientID, y.ClientSecret)
	}
	c := h.oauth["corp-sso"].cfg
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
