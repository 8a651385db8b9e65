package signin

import (
	"encoding/base64"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
)

// jws returns a compact JWS with the given JSON payload and a dummy
// signature: ProviderSID reads a token that was verified before.
func jws(payload string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256"}`)) + "." + enc([]byte(payload)) + ".c2ln"
}

// TestProviderSID: the recorded SID wins over the ID token's, the ID
// token's sid is read when no SID is recorded, and a result without
// either (or with an unreadable token) has none.
func TestProviderSID(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  Result
		want string
	}{
		{"none", Result{}, ""},
		{"recorded", Result{SID: "kept"}, "kept"},
		{"from id token", Result{Tokens: account.TokenSet{IDToken: jws(`{"sub":"u","sid":"s-1"}`)}}, "s-1"},
		{"recorded wins", Result{SID: "kept", Tokens: account.TokenSet{IDToken: jws(`{"sid":"s-1"}`)}}, "kept"},
		{"token without sid", Result{Tokens: account.TokenSet{IDToken: jws(`{"sub":"u"}`)}}, ""},
		{"not a JWS", Result{Tokens: account.TokenSet{IDToken: "opaque-token"}}, ""},
		{"payload not JSON", Result{Tokens: account.TokenSet{IDToken: "e30." + base64.RawURLEncoding.EncodeToString([]byte("{")) + ".x"}}, ""},
		{"payload not base64", Result{Tokens: account.TokenSet{IDToken: "e30.!!!.x"}}, ""},
	} {
		if got := tc.res.ProviderSID(); got != tc.want {
			t.Errorf("%s: ProviderSID() = %q, want %q", tc.name, got, tc.want)
		}
	}
}
