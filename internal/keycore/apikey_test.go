package keycore_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/keycore"
)

// TestNewAndParse: a new key parses back to its id and a secret whose
// hash is the one to store; a thousand keys are distinct.
func TestNewAndParse(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		full, id, hash := keycore.New("ghk")
		gotID, secret, err := keycore.Parse("ghk", full)
		if err != nil || gotID != id || keycore.HashSecret(secret) != hash {
			t.Fatalf("Parse(%q) = %q, %q, %v", full, gotID, secret, err)
		}
		if seen[id] || seen[secret] {
			t.Fatal("a repeated id or secret")
		}
		seen[id], seen[secret] = true, true
		if strings.Contains(hash, secret) {
			t.Fatal("the hash holds the secret")
		}
	}
}

func TestParseRefuses(t *testing.T) {
	full, _, _ := keycore.New("gh")
	for name, s := range map[string]string{
		"other prefix":  "xx" + full[2:],
		"no prefix":     full[3:],
		"short secret":  full[:len(full)-1],
		"long secret":   full + "a",
		"extra part":    full + "_a",
		"not base62":    full[:len(full)-1] + "-",
		"empty":         "",
		"prefix only":   "gh_",
		"space in id":   "gh_" + strings.Repeat(" ", 16) + full[19:],
		"session token": "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..x.y.z",
	} {
		if _, _, err := keycore.Parse("gh", s); !errors.Is(err, keycore.ErrMalformed) {
			t.Errorf("%s: Parse(%q) = %v; want ErrMalformed", name, s, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	full, _, _ := keycore.New("gh")
	f.Add(full)
	f.Add("gh__")
	f.Fuzz(func(t *testing.T, s string) {
		id, secret, err := keycore.Parse("gh", s)
		if err == nil && s != "gh_"+id+"_"+secret {
			t.Fatalf("Parse(%q) = %q, %q: not the parts", s, id, secret)
		}
	})
}

// TestCheck: the secret first, then revocation and expiry; the previous
// secret only within the overlap.
func TestCheck(t *testing.T) {
	now := time.Now()
	k := keycore.Key{Hash: keycore.HashSecret("right"), PreviousHash: keycore.HashSecret("old"), PreviousUntil: now.Add(time.Minute)}
	for name, tc := range map[string]struct {
		k      keycore.Key
		secret string
		at     time.Time
		want   error
	}{
		"right":                 {k, "right", now, nil},
		"wrong":                 {k, "wrong", now, keycore.ErrInvalid},
		"old, in the overlap":   {k, "old", now, nil},
		"old, after it":         {k, "old", now.Add(time.Minute), keycore.ErrInvalid},
		"revoked":               {withRevoked(k, now), "right", now, keycore.ErrRevoked},
		"wrong and revoked":     {withRevoked(k, now), "wrong", now, keycore.ErrInvalid},
		"expired":               {withExpiry(k, now), "right", now, keycore.ErrExpired},
		"not expired yet":       {withExpiry(k, now.Add(time.Second)), "right", now, nil},
		"empty secret, no hash": {keycore.Key{}, "", now, keycore.ErrInvalid},
	} {
		if err := tc.k.Check(tc.secret, tc.at); !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%s: %v; want %v", name, err, tc.want)
		}
	}
}

func withRevoked(k keycore.Key, at time.Time) keycore.Key { k.RevokedAt = at; return k }
func withExpiry(k keycore.Key, at time.Time) keycore.Key  { k.Expires = at; return k }

func TestValidPrefixAndName(t *testing.T) {
	for p, want := range map[string]bool{"gh": true, "acme2": true, "": false, "a_b": false, "GH": false, "abcdefghijklmnopq": false} {
		if keycore.ValidPrefix(p) != want {
			t.Errorf("ValidPrefix(%q) = %v", p, !want)
		}
	}
	for n, ok := range map[string]bool{"ci deploy": true, "": false, "a\x00b": false, strings.Repeat("x", 65): false} {
		if (keycore.CheckName(n) == nil) != ok {
			t.Errorf("CheckName(%q) ok = %v", n, !ok)
		}
	}
}
