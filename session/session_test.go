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
