package account

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestTokenSetJSON(t *testing.T) {
	var ts TokenSet
	if err := json.Unmarshal([]byte(`{"access_token":"a","expires_in":"3600","scope":"s","refresh_token_expires_in":60,"vendor":"x"}`), &ts); err != nil {
		t.Fatal(err)
	}
	if ts.AccessToken != "a" || ts.ExpiresIn != 3600 || ts.Extra["vendor"] != "x" || ts.Extra["refresh_token_expires_in"] != float64(60) {
		t.Fatalf("%+v", ts)
	}
	now := time.Unix(1000, 0)
	ts.Normalize(now)
	if ts.ExpiresAt != 4600 {
		t.Fatalf("expires_at = %d", ts.ExpiresAt)
	}
	d := Default(ts)
	if d.ExpiresIn != 0 || d.Extra != nil || d.AccessToken != "a" || d.ExpiresAt != 4600 || d.Scope != "s" {
		t.Fatalf("Default = %+v", d)
	}
}

func TestAccountJSONKeepsItsFields(t *testing.T) {
	a := Account{UserID: "u1", Type: TypeOIDC, Provider: "p", ProviderAccountID: "123",
		TokenSet: TokenSet{AccessToken: "at", ExpiresAt: 99, Extra: map[string]any{"k": "v"}}}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var back Account
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, back) {
		t.Fatalf("round trip:\n got %+v\nwant %+v\njson %s", back, a, b)
	}
}

func TestReduce(t *testing.T) {
	full := TokenSet{AccessToken: "a", ExpiresIn: 10, Extra: map[string]any{"refresh_token_expires_in": float64(60)}}
	got, err := Reduce(context.Background(), nil, full)
	if err != nil || got.Extra != nil || got.AccessToken != "a" {
		t.Fatalf("default: %+v %v", got, err)
	}
	cb := func(_ context.Context, t TokenSet) (*TokenSet, error) {
		k := Default(t)
		k.Set("refresh_token_expires_at", int64(1000)+int64(t.Extra["refresh_token_expires_in"].(float64)))
		t.Extra["mutated"] = true // must not reach the caller's map
		return &k, nil
	}
	got, err = Reduce(context.Background(), cb, full)
	if err != nil || got.Extra["refresh_token_expires_at"] != int64(1060) || full.Extra["mutated"] != nil {
		t.Fatalf("callback: %+v %v (input %+v)", got, err, full.Extra)
	}
}
