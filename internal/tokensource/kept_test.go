package tokensource

import (
	"encoding/json"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
)

// The kept tokens survive the session token's JSON round trip, the other
// claims are kept, and the claims given are not changed in place.
func TestKeptRoundTrip(t *testing.T) {
	extra := map[string]any{"role": "admin"}
	ts := account.TokenSet{AccessToken: "at", RefreshToken: "rt", ExpiresAt: 1700000000, TokenType: "Bearer", Scope: "openid"}
	kept := Keep(extra, "corp", ts, nil)
	if _, ok := extra[Claim]; ok {
		t.Fatal("Keep changed the map it was given")
	}
	raw, err := json.Marshal(kept)
	if err != nil {
		t.Fatal(err)
	}
	var decoded map[string]any
	if err := json.Unmarshal(raw, &decoded); err != nil {
		t.Fatal(err)
	}
	k, ok := KeptIn(decoded)
	if !ok || k.Provider != "corp" || k.TokenSet().AccessToken != ts.AccessToken || k.TokenSet().RefreshToken != ts.RefreshToken || k.ExpiresAt != ts.ExpiresAt || k.Scope != ts.Scope || decoded["role"] != "admin" {
		t.Fatalf("KeptIn = %+v, %v; claims %v", k, ok, decoded)
	}
	if _, ok := KeptIn(map[string]any{Claim: map[string]any{"provider": "corp"}}); ok {
		t.Fatal("a kept claim without an access token was accepted")
	}
}
