package session

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/profile"
)

// A Token's JSON is flat: Extra's claims sit beside the standard ones,
// never override them, and come back in Extra.
func TestTokenJSON(t *testing.T) {
	in := Token{Subject: "u1", Name: "Ada", IssuedAt: 10, Expires: 20, ID: "j", Provider: "dev", AuthTime: 10,
		Extra: map[string]any{"role": "admin", "sub": "forged", "n": float64(3)}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var flat map[string]any
	if err := json.Unmarshal(b, &flat); err != nil || flat["sub"] != "u1" || flat["role"] != "admin" || flat["auth_time"] != float64(10) {
		t.Fatalf("JSON %s (%v): want sub u1, role admin beside it", b, err)
	}
	var out Token
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	want := in
	want.Extra = map[string]any{"role": "admin", "n": float64(3)} // "sub" is the claim's, not Extra's
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("round trip: %+v, want %+v", out, want)
	}
	if u := out.User(); u != (profile.User{ID: "u1", Name: "Ada"}) {
		t.Fatalf("User() = %+v", u)
	}
}

// A Session's JSON has user, expires in UTC (ISO 8601) and Extra at the
// top level; Extra cannot replace user or expires.
func TestSessionJSON(t *testing.T) {
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.FixedZone("x", 3600))
	b, err := json.Marshal(Session{User: profile.User{ID: "u1"}, Expires: at, Extra: map[string]any{"user": "forged", "plan": "pro"}})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["expires"] != "2026-11-27T11:00:00Z" || got["plan"] != "pro" || got["user"].(map[string]any)["id"] != "u1" {
		t.Fatalf("JSON %s", b)
	}
}

// The active organization: the token's claim "org" comes back in
// Organization, never in Extra, and Extra cannot forge it; the session's
// JSON holds activeOrganizationId only when there is one, so the answer
// of GET {base}/session is unchanged without organizations.
func TestActiveOrganizationJSON(t *testing.T) {
	b, err := json.Marshal(Token{Subject: "u1", Organization: "org1", Extra: map[string]any{"org": "forged"}})
	if err != nil {
		t.Fatal(err)
	}
	var out Token
	if err := json.Unmarshal(b, &out); err != nil || out.Organization != "org1" || out.Extra["org"] != nil {
		t.Errorf("token round trip: %s -> %+v, %v", b, out, err)
	}
	exp := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		s    Session
		want string
	}{
		{Session{User: profile.User{ID: "u1"}, Expires: exp}, `{"expires":"2030-01-01T00:00:00Z","user":{"id":"u1"}}`},
		{Session{User: profile.User{ID: "u1"}, Expires: exp, ActiveOrganizationID: "org1"}, `{"activeOrganizationId":"org1","expires":"2030-01-01T00:00:00Z","user":{"id":"u1"}}`},
	} {
		b, err := json.Marshal(tc.s)
		if err != nil || string(b) != tc.want {
			t.Errorf("Marshal = %s, %v; want %s", b, err, tc.want)
		}
	}
}
