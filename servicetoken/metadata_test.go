package servicetoken_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// TestMetadataPath: RFC 8414 §3.1 puts the well-known segment between the
// host and the issuer's path.
func TestMetadataPath(t *testing.T) {
	for issuer, want := range map[string]string{
		"https://app.example.com/auth":     "/.well-known/oauth-authorization-server/auth",
		"https://app.example.com/a/b/":     "/.well-known/oauth-authorization-server/a/b",
		"https://app.example.com":          "/.well-known/oauth-authorization-server",
		"http://127.0.0.1:8080/tenant/one": "/.well-known/oauth-authorization-server/tenant/one",
	} {
		if got := servicetoken.MetadataPath(issuer); got != want {
			t.Errorf("MetadataPath(%q) = %q; want %q", issuer, got, want)
		}
	}
}

// TestMetadataServed: the metadata names the issuer as given (without a
// trailing slash, as the tokens' iss), its routes, no response type, the
// one grant and the one way to authenticate; only GET and HEAD are
// answered.
func TestMetadataServed(t *testing.T) {
	h := servicetoken.NewMetadata("https://app.example.com/auth/")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %s %v", rec.Code, rec.Body, err)
	}
	want := map[string]any{"issuer": "https://app.example.com/auth", "jwks_uri": "https://app.example.com/auth/jwks",
		"token_endpoint": "https://app.example.com/auth/token"}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v; want %v", k, m[k], v)
		}
	}
	if rt, ok := m["response_types_supported"].([]any); !ok || len(rt) != 0 {
		t.Errorf("response_types_supported = %v; want present and empty", m["response_types_supported"])
	}
	if gt, _ := m["grant_types_supported"].([]any); len(gt) != 1 || gt[0] != "client_credentials" {
		t.Errorf("grant_types_supported = %v", m["grant_types_supported"])
	}
	// Present: left out, it would mean client_secret_basic (RFC 8414 §2).
	if am, _ := m["token_endpoint_auth_methods_supported"].([]any); len(am) != 1 || am[0] != servicetoken.AuthMethodAPIKey {
		t.Errorf("token_endpoint_auth_methods_supported = %v; want [%s]", m["token_endpoint_auth_methods_supported"], servicetoken.AuthMethodAPIKey)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d; want 405", rec.Code)
	}
}
