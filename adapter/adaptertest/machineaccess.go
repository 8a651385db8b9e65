package adaptertest

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// runMachineAccess runs the tests of apikey.Store and
// servicetoken.KeyStore on adapters that implement them (adapter.Supports).
func runMachineAccess(t *testing.T, newAdapter func(t *testing.T) adapter.Adapter) {
	runStore(t, newAdapter, []storeTest[apikey.Store]{
		{"APIKey/CreateAndGet", testAPIKeyCreateAndGet},
		{"APIKey/Refused", testAPIKeyRefused},
		{"APIKey/DeleteUser", testAPIKeyDeleteUser},
		{"APIKey/RevokeAndRotate", testAPIKeyRevokeAndRotate},
		{"APIKey/Touch", testAPIKeyTouch},
		{"APIKey/MaxKeys", testAPIKeyMaxKeys},
	})
	t.Run("SigningKeys/OnePerGeneration", func(t *testing.T) {
		t.Parallel()
		a := newAdapter(t)
		if !adapter.Supports[servicetoken.KeyStore](a) {
			t.Skip("not a servicetoken.KeyStore")
		}
		testSigningKeys(t, a.(servicetoken.KeyStore))
	})
}

// newKey returns a key of userID with every field set.
func newKey(userID, id string) apikey.Key {
	return apikey.Key{ID: id, Name: "ci " + id, UserID: userID, OrganizationID: "org-1",
		Permissions: permission.MustSet("report:read", "report:write"), Hash: apikey.HashSecret("s-" + id),
		PreviousHash: apikey.HashSecret("old-" + id), PreviousUntil: now.Add(time.Minute),
		Expires: now.Add(time.Hour), CreatedAt: now, LastUsedAt: now.Add(time.Second)}
}

func sameKey(t *testing.T, got, want apikey.Key) {
	t.Helper()
	if got.ID != want.ID || got.Name != want.Name || got.UserID != want.UserID || got.OrganizationID != want.OrganizationID ||
		got.Hash != want.Hash || got.PreviousHash != want.PreviousHash || !got.Permissions.Covers(want.Permissions) ||
		len(got.Permissions) != len(want.Permissions) || !sameTime(got.PreviousUntil, want.PreviousUntil) ||
		!sameTime(got.Expires, want.Expires) || !sameTime(got.CreatedAt, want.CreatedAt) ||
		!sameTime(got.LastUsedAt, want.LastUsedAt) || !sameTime(got.RevokedAt, want.RevokedAt) {
		t.Errorf("key %+v; want %+v", got, want)
	}
	checkUTC(t, "CreatedAt", got.CreatedAt)
}

// testAPIKeyCreateAndGet: a key comes back as stored; ListAPIKeys returns
// the user's keys only, newest first.
func testAPIKeyCreateAndGet(t *testing.T, a adapter.Adapter, s apikey.Store) {
	u := mustCreateUser(t, a, newUser("keys@example.com"))
	other := mustCreateUser(t, a, newUser("other@example.com"))
	k1, k2 := newKey(u.ID, "k1"), newKey(u.ID, "k2")
	k2.CreatedAt = now.Add(time.Minute)
	k2.Expires, k2.PreviousHash, k2.PreviousUntil, k2.LastUsedAt = time.Time{}, "", time.Time{}, time.Time{}
	for _, k := range []apikey.Key{k1, k2, newKey(other.ID, "k3")} {
		if err := s.CreateAPIKey(ctx(t), k, 0); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.APIKey(ctx(t), "k1")
	if err != nil {
		t.Fatal(err)
	}
	sameKey(t, got, k1)
	list, err := s.ListAPIKeys(ctx(t), u.ID)
	if err != nil || len(list) != 2 {
		t.Fatalf("ListAPIKeys = %v, %v; want two keys", list, err)
	}
	sameKey(t, list[0], k2)
	sameKey(t, list[1], k1)
	if list, err := s.ListAPIKeys(ctx(t), "nobody"); err != nil || list == nil || len(list) != 0 {
		t.Errorf("ListAPIKeys(nobody) = %#v, %v; want empty, not nil", list, err)
	}
}

// testAPIKeyRefused: an unknown key is ErrNotFound; a key of an unknown
// user is refused with ErrNotFound, a second key with one id with
// ErrConflict.
func testAPIKeyRefused(t *testing.T, a adapter.Adapter, s apikey.Store) {
	if _, err := s.APIKey(ctx(t), "none"); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("APIKey(unknown) = %v; want ErrNotFound", err)
	}
	if err := s.CreateAPIKey(ctx(t), newKey("nobody", "k"), 0); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("CreateAPIKey(unknown user) = %v; want ErrNotFound", err)
	}
	u := mustCreateUser(t, a, newUser("dup@example.com"))
	if err := s.CreateAPIKey(ctx(t), newKey(u.ID, "k"), 0); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateAPIKey(ctx(t), newKey(u.ID, "k"), 0); !errors.Is(err, adapter.ErrConflict) {
		t.Errorf("second CreateAPIKey(k) = %v; want ErrConflict", err)
	}
}

// testAPIKeyMaxKeys: CreateAPIKey counts the live keys only (a revoked or
// expired key frees its place), refuses with ErrTooManyKeys when the user
// holds max, and of parallel creations lets exactly max through.
func testAPIKeyMaxKeys(t *testing.T, a adapter.Adapter, s apikey.Store) {
	u := mustCreateUser(t, a, newUser("max@example.com"))
	expired, revoked := newKey(u.ID, "expired"), newKey(u.ID, "revoked")
	expired.Expires = now
	revoked.RevokedAt = now
	for _, k := range []apikey.Key{expired, revoked, newKey(u.ID, "live")} {
		if err := s.CreateAPIKey(ctx(t), k, 2); err != nil {
			t.Fatalf("CreateAPIKey(%s) under the limit: %v", k.ID, err)
		}
	}
	if err := s.CreateAPIKey(ctx(t), newKey(u.ID, "second"), 2); err != nil {
		t.Fatalf("the second live key: %v", err)
	}
	if err := s.CreateAPIKey(ctx(t), newKey(u.ID, "third"), 2); !errors.Is(err, apikey.ErrTooManyKeys) {
		t.Fatalf("a third live key with max 2 = %v; want ErrTooManyKeys", err)
	}
	if _, err := s.APIKey(ctx(t), "third"); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("the refused key was stored: %v", err)
	}
	other := mustCreateUser(t, a, newUser("max-other@example.com"))
	const max, tries = 3, 20
	var ok, full atomic.Int32
	var wg sync.WaitGroup
	for i := range tries {
		wg.Go(func() {
			switch err := s.CreateAPIKey(ctx(t), newKey(other.ID, fmt.Sprint("par-", i)), max); {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, apikey.ErrTooManyKeys):
				full.Add(1)
			default:
				t.Errorf("parallel CreateAPIKey: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != max || full.Load() != tries-max {
		t.Errorf("%d parallel creations with max %d: %d stored, %d refused; want %d and %d",
			tries, max, ok.Load(), full.Load(), max, tries-max)
	}
}

// testAPIKeyDeleteUser: deleting a user ends their keys at once.
func testAPIKeyDeleteUser(t *testing.T, a adapter.Adapter, s apikey.Store) {
	u := mustCreateUser(t, a, newUser("gone@example.com"))
	if err := s.CreateAPIKey(ctx(t), newKey(u.ID, "k"), 0); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteUser(ctx(t), u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.APIKey(ctx(t), "k"); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("APIKey of a deleted user = %v; want ErrNotFound", err)
	}
}

// testAPIKeyRevokeAndRotate: revoking and rotating touch the owner's live
// keys only; a rotation keeps the old hash only for a future overlap.
func testAPIKeyRevokeAndRotate(t *testing.T, a adapter.Adapter, s apikey.Store) {
	u := mustCreateUser(t, a, newUser("owner@example.com"))
	eve := mustCreateUser(t, a, newUser("eve@example.com"))
	k := newKey(u.ID, "k")
	k.Expires = time.Time{} // live: newKey's expiry follows the fixed clock, long past
	if err := s.CreateAPIKey(ctx(t), k, 0); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"revoke another's": s.RevokeAPIKey(ctx(t), eve.ID, "k", now),
		"rotate another's": s.RotateAPIKey(ctx(t), eve.ID, "k", "h", now),
		"revoke unknown":   s.RevokeAPIKey(ctx(t), u.ID, "none", now),
	} {
		if !errors.Is(err, adapter.ErrNotFound) {
			t.Errorf("%s = %v; want ErrNotFound", name, err)
		}
	}
	until := time.Now().Add(time.Hour)
	if err := s.RotateAPIKey(ctx(t), u.ID, "k", "new-hash", until); err != nil {
		t.Fatal(err)
	}
	got, _ := s.APIKey(ctx(t), "k")
	if got.Hash != "new-hash" || got.PreviousHash != k.Hash || !sameTime(got.PreviousUntil, until) {
		t.Errorf("after a rotation with overlap: %+v", got)
	}
	if err := s.RotateAPIKey(ctx(t), u.ID, "k", "newer-hash", time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	got, _ = s.APIKey(ctx(t), "k")
	if got.Hash != "newer-hash" || got.PreviousHash != "" || !got.PreviousUntil.IsZero() {
		t.Errorf("after a rotation without overlap: %+v", got)
	}
	if err := s.RevokeAPIKey(ctx(t), u.ID, "k", now); err != nil {
		t.Fatal(err)
	}
	got, _ = s.APIKey(ctx(t), "k")
	if !sameTime(got.RevokedAt, now) {
		t.Errorf("RevokedAt = %v; want %v", got.RevokedAt, now)
	}
	if err := s.RevokeAPIKey(ctx(t), u.ID, "k", now); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("second revoke = %v; want ErrNotFound", err)
	}
	if err := s.RotateAPIKey(ctx(t), u.ID, "k", "h", now); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("rotating a revoked key = %v; want ErrNotFound", err)
	}
	// An expired key is not live: a new secret for it would never work.
	// It can still be revoked.
	old := newKey(u.ID, "expired")
	old.Expires = time.Now().Add(-time.Minute).Truncate(time.Microsecond)
	if err := s.CreateAPIKey(ctx(t), old, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.RotateAPIKey(ctx(t), u.ID, "expired", "h", time.Now().Add(time.Hour)); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("rotating an expired key = %v; want ErrNotFound", err)
	}
	if got, _ := s.APIKey(ctx(t), "expired"); got.Hash != old.Hash {
		t.Errorf("an expired key's hash changed to %q", got.Hash)
	}
	if err := s.RevokeAPIKey(ctx(t), u.ID, "expired", now); err != nil {
		t.Errorf("revoking an expired key = %v", err)
	}
}

// testAPIKeyTouch: a use is recorded at most once per TouchInterval.
func testAPIKeyTouch(t *testing.T, a adapter.Adapter, s apikey.Store) {
	u := mustCreateUser(t, a, newUser("touch@example.com"))
	k := newKey(u.ID, "k")
	k.LastUsedAt = time.Time{}
	if err := s.CreateAPIKey(ctx(t), k, 0); err != nil {
		t.Fatal(err)
	}
	first := now.Add(time.Hour)
	for _, at := range []time.Time{first, first.Add(30 * time.Second)} {
		if err := s.TouchAPIKey(ctx(t), "k", at); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := s.APIKey(ctx(t), "k"); !sameTime(got.LastUsedAt, first) {
		t.Errorf("LastUsedAt = %v; want %v (the second touch is within the interval)", got.LastUsedAt, first)
	}
	later := first.Add(apikey.TouchInterval + time.Second)
	if err := s.TouchAPIKey(ctx(t), "k", later); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.APIKey(ctx(t), "k"); !sameTime(got.LastUsedAt, later) {
		t.Errorf("LastUsedAt = %v; want %v", got.LastUsedAt, later)
	}
}

// testSigningKeys: of Racers concurrent adds of one generation, one
// stores it; keys come back by generation; old generations are deleted.
func testSigningKeys(t *testing.T, s servicetoken.KeyStore) {
	var stored atomic.Int32
	var wg sync.WaitGroup
	for i := range Racers {
		wg.Go(func() {
			ok, err := s.AddSigningKey(ctx(t), servicetoken.SigningKey{ID: "kid-" + string(rune('a'+i)), Generation: 2,
				Algorithm: "EdDSA", Sealed: "sealed", Public: "{}", NotBefore: now, CreatedAt: now})
			if err != nil {
				t.Error(err)
			}
			if ok {
				stored.Add(1)
			}
		})
	}
	wg.Wait()
	if stored.Load() != 1 {
		t.Fatalf("%d adds of generation 2 stored it; want 1", stored.Load())
	}
	if ok, err := s.AddSigningKey(ctx(t), servicetoken.SigningKey{ID: "kid-1", Generation: 1, Algorithm: "ES256",
		Sealed: "s1", Public: `{"kty":"EC"}`, NotBefore: now.Add(-time.Hour), CreatedAt: now}); !ok || err != nil {
		t.Fatalf("AddSigningKey(1) = %v, %v", ok, err)
	}
	keys, err := s.SigningKeys(ctx(t))
	if err != nil || len(keys) != 2 || keys[0].Generation != 1 || keys[1].Generation != 2 {
		t.Fatalf("SigningKeys = %+v, %v; want generations 1 and 2", keys, err)
	}
	if k := keys[0]; k.ID != "kid-1" || k.Algorithm != "ES256" || k.Sealed != "s1" || k.Public != `{"kty":"EC"}` || !sameTime(k.NotBefore, now.Add(-time.Hour)) {
		t.Errorf("key 1 = %+v", k)
	}
	if err := s.DeleteSigningKeys(ctx(t), 2); err != nil {
		t.Fatal(err)
	}
	if keys, _ := s.SigningKeys(ctx(t)); len(keys) != 1 || keys[0].Generation != 2 {
		t.Errorf("after DeleteSigningKeys(2): %+v", keys)
	}
}
