package keycore_test

import (
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// TestNewSecret: a rotation keeps the id and gives a new secret, whose
// hash is the one returned.
func TestNewSecret(t *testing.T) {
	full, id, hash := keycore.New("gh")
	rotated, newHash := keycore.NewSecret("gh", id)
	gotID, secret, err := keycore.Parse("gh", rotated)
	if err != nil || gotID != id || keycore.HashSecret(secret) != newHash {
		t.Fatalf("Parse(NewSecret) = %q, %q, %v; want id %q and the new hash", gotID, secret, err, id)
	}
	if rotated == full || newHash == hash {
		t.Error("NewSecret returned the old secret")
	}
}

func TestLooks(t *testing.T) {
	for s, want := range map[string]bool{
		"gh_x": true, "gh_": true, "gh": false, "ghx_y": false, "g_h": false, "xh_y": false, "": false,
	} {
		if keycore.Looks("gh", s) != want {
			t.Errorf("Looks(%q) = %v, want %v", s, !want, want)
		}
	}
}

// TestLive: revoked and expired keys do not count; a key expiring at
// the instant asked is expired, as Check says.
func TestLive(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, tc := range map[string]struct {
		k    keycore.Key
		want bool
	}{
		"no expiry":       {keycore.Key{}, true},
		"expires later":   {keycore.Key{Expires: now.Add(time.Nanosecond)}, true},
		"expires now":     {keycore.Key{Expires: now}, false},
		"revoked":         {keycore.Key{RevokedAt: now.Add(-time.Hour)}, false},
		"revoked, future": {keycore.Key{RevokedAt: now.Add(time.Hour), Expires: now.Add(time.Hour)}, false},
	} {
		if got := tc.k.Live(now); got != tc.want {
			t.Errorf("%s: Live = %v, want %v", name, got, tc.want)
		}
	}
}

func TestPrincipalCan(t *testing.T) {
	p := &keycore.Principal{Permissions: permission.MustSet("project:read")}
	if !p.Can("project:read") || p.Can("project:delete") {
		t.Errorf("Can with %v is wrong", p.Permissions)
	}
	var none *keycore.Principal
	if none.Can("project:read") {
		t.Error("a nil Principal can")
	}
}
