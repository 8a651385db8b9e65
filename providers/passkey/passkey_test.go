package passkey_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		cfg   passkey.WebAuthnConfig
		field string // "" for valid
	}{
		{"defaults", passkey.New(passkey.WebAuthnConfig{}), ""},
		{"own id", passkey.New(passkey.WebAuthnConfig{ID: "keys", RPID: "example.com", Origin: "https://app.example.com"}), ""},
		{"bad id", passkey.New(passkey.WebAuthnConfig{ID: "Pass Key"}), "id"},
		{"rp id with scheme", passkey.New(passkey.WebAuthnConfig{RPID: "https://example.com"}), "rpId"},
		{"plain http origin", passkey.New(passkey.WebAuthnConfig{Origin: "http://example.com"}), "origin"},
		{"bad user verification", passkey.New(passkey.WebAuthnConfig{UserVerification: "always"}), "userVerification"},
		{"bad resident key", passkey.New(passkey.WebAuthnConfig{ResidentKey: "yes"}), "residentKey"},
		{"long timeout", passkey.New(passkey.WebAuthnConfig{Timeout: 2 * time.Hour}), "timeout"},
		{"not built with New", passkey.WebAuthnConfig{ID: "passkey", Name: "Passkey"}, "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			switch {
			case tt.field == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tt.field != "" && (err == nil || !strings.Contains(err.Error(), tt.field+":")):
				t.Fatalf("Validate = %v, want an error about %s", err, tt.field)
			}
		})
	}
}

func TestDefaultUserInfo(t *testing.T) {
	for q, want := range map[string]string{
		"email=Ada@Example.COM":             "ada@example.com",
		"email=%20ada@example.com%20":       "ada@example.com",
		"email=":                            "",
		"email=not-an-address":              "",
		"email=Ada%20%3Cada@example.com%3E": "", // a display name, not an address
		"email=a@b.example,c@d.example":     "",
	} {
		r := httptest.NewRequest("GET", "/auth/webauthn-options/passkey?"+q, nil)
		u, err := passkey.DefaultUserInfo(r.Context(), r)
		if u.Email != want || (want == "") != (err != nil) {
			t.Errorf("%s: got %q, %v; want %q", q, u.Email, err, want)
		}
	}
}
