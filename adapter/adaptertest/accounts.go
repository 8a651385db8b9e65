package adaptertest

import (
	"errors"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/twofactor"
	"github.com/gatehouse-auth/gatehouse/twofactor/storetest"
)

// testSessionMetadata: CreateSession keeps when a session was made and by
// which browser, UpdateSession moves UpdatedAt ("last seen") forward, and
// ListSessions returns all three.
func testSessionMetadata(t *testing.T, a adapter.Adapter) {
	sl := implements[adapter.SessionLister](t, a)
	u := mustCreateUser(t, a, newUser("meta@example.com"))
	created := now.Add(-time.Hour)
	in := adapter.Session{Token: "meta", UserID: u.ID, Expires: now.Add(time.Hour), CreatedAt: created, UserAgent: "Firefox on Linux"}
	if _, err := a.CreateSession(ctx(t), in); err != nil {
		t.Fatal(err)
	}
	one := func() adapter.Session {
		t.Helper()
		list, err := sl.ListSessions(ctx(t), u.ID)
		if err != nil || len(list) != 1 {
			t.Fatalf("ListSessions = %v, %v; want one session", list, err)
		}
		return list[0]
	}
	s := one()
	if !sameTime(s.CreatedAt, created) || s.UserAgent != "Firefox on Linux" {
		t.Fatalf("listed %+v; want CreatedAt %v and the user agent", s, created)
	}
	if got, _, err := a.GetSessionAndUser(ctx(t), "meta"); err != nil || !sameTime(got.CreatedAt, created) {
		t.Fatalf("GetSessionAndUser = %+v, %v; want CreatedAt %v", got, err, created)
	}
	if !s.UpdatedAt.Equal(s.CreatedAt) {
		t.Errorf("UpdatedAt = %v; want CreatedAt (%v) for a session never updated", s.UpdatedAt, s.CreatedAt)
	}
	before := time.Now().Add(-time.Second)
	if _, err := a.UpdateSession(ctx(t), "meta", now.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	s = one()
	if s.UpdatedAt.Before(before) || !sameTime(s.CreatedAt, created) || s.UserAgent != "Firefox on Linux" {
		t.Errorf("after UpdateSession: %+v; want UpdatedAt now, CreatedAt and UserAgent kept", s)
	}
}

// testPasswordHash: an adapter.PasswordStore keeps one hash per user,
// replaces it, deletes it, refuses unknown users, and forgets it with the
// user.
func testPasswordHash(t *testing.T, a adapter.Adapter) {
	ps := implements[adapter.PasswordStore](t, a)
	u := mustCreateUser(t, a, newUser("pw@example.com"))
	if _, err := ps.PasswordHash(ctx(t), u.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("PasswordHash before any = %v; want ErrNotFound", err)
	}
	if err := ps.SetPasswordHash(ctx(t), "nobody", "$argon2id$x"); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("SetPasswordHash(unknown user) = %v; want ErrNotFound", err)
	}
	for _, h := range []string{"$argon2id$first", "$argon2id$second"} {
		if err := ps.SetPasswordHash(ctx(t), u.ID, h); err != nil {
			t.Fatal(err)
		}
		if got, err := ps.PasswordHash(ctx(t), u.ID); err != nil || got != h {
			t.Fatalf("PasswordHash = %q, %v; want %q", got, err, h)
		}
	}
	if err := ps.DeletePasswordHash(ctx(t), u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := ps.PasswordHash(ctx(t), u.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("PasswordHash after delete = %v; want ErrNotFound", err)
	}
	if err := ps.DeletePasswordHash(ctx(t), u.ID); err != nil {
		t.Fatalf("deleting none = %v; want nil", err)
	}
	if err := ps.SetPasswordHash(ctx(t), u.ID, "$argon2id$third"); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteUser(ctx(t), u.ID); err != nil {
		t.Fatal(err)
	}
	again, err := a.CreateUser(ctx(t), adapter.User{ID: u.ID, Email: "pw2@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ps.PasswordHash(ctx(t), again.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("a deleted user's password survived: %v", err)
	}
}

// runTwoFactor runs the twofactor.Store conformance suite (storetest) on
// adapters that implement twofactor.Store, with its users created in the
// adapter first, since an SQL adapter keeps secrets only for its users.
// Its races (storetest.Racers goroutines advancing one TOTP step, or
// consuming one backup code) check that exactly one wins.
func runTwoFactor(t *testing.T, newAdapter func(t *testing.T) adapter.Adapter) {
	t.Run("TwoFactor", func(t *testing.T) {
		if _, ok := newAdapter(t).(twofactor.Store); !ok {
			t.Skip("not a twofactor.Store")
		}
		storetest.RunWithUsers(t, func(t *testing.T) twofactor.Store {
			return newAdapter(t).(twofactor.Store)
		}, func(t *testing.T, s twofactor.Store, name string) string {
			t.Helper()
			u, err := s.(adapter.Adapter).CreateUser(ctx(t), newUser(name+"@example.com"))
			if err != nil {
				t.Fatalf("creating user %q: %v", name, err)
			}
			return u.ID
		})
	})
}

// testDeleteUserTwoFactor: DeleteUser removes the user's two-factor
// secret and backup codes, so that a user created again with the same id
// is not enrolled.
func testDeleteUserTwoFactor(t *testing.T, a adapter.Adapter) {
	st := implements[twofactor.Store](t, a)
	u := mustCreateUser(t, a, newUser("tf@example.com"))
	other := mustCreateUser(t, a, newUser("tf-other@example.com"))
	secret := twofactor.Secret{Sealed: "v1.sealed", Enabled: true, LastStep: 7, BackupCodes: []string{"h1", "h2"}}
	for _, id := range []string{u.ID, other.ID} {
		if err := st.SetTwoFactor(ctx(t), id, secret); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.DeleteUser(ctx(t), u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.TwoFactor(ctx(t), u.ID); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("TwoFactor of a deleted user = %v; want ErrNotEnrolled", err)
	}
	if _, err := a.CreateUser(ctx(t), adapter.User{ID: u.ID, Email: "tf2@example.com"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.TwoFactor(ctx(t), u.ID); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("a deleted user's two-factor secret survived: %v", err)
	}
	if err := st.ConsumeBackupCode(ctx(t), u.ID, "h1"); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("a deleted user's backup code: %v; want ErrNotEnrolled", err)
	}
	if got, err := st.TwoFactor(ctx(t), other.ID); err != nil || len(got.BackupCodes) != 2 {
		t.Errorf("another user's secret = %+v, %v; want it kept", got, err)
	}
}
