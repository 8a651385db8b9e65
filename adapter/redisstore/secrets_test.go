package redisstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// TestSecretsForwarding: password hashes and two-factor secrets go to the
// primary; over a primary without them the methods say ErrUnsupported
// (and errors.ErrUnsupported), and Supports tells beforehand.
func TestSecretsForwarding(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name      string
		primary   adapter.Adapter
		supported bool
	}{
		{"memory", memory.New(), true},
		{"sqlite", dbtest.SQLite(t, ""), true},
		{"bare", bare{memory.New()}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := redisstore.New(nil, tc.primary, redisstore.Options{})
			if got := redisstore.Supports[adapter.PasswordStore](a); got != tc.supported {
				t.Errorf("Supports[PasswordStore] = %v; want %v", got, tc.supported)
			}
			if got := redisstore.Supports[twofactor.Store](a); got != tc.supported {
				t.Errorf("Supports[twofactor.Store] = %v; want %v", got, tc.supported)
			}
			// On any other adapter, Supports is a type assertion.
			if got := redisstore.Supports[adapter.SessionRevoker](tc.primary); got != tc.supported {
				t.Errorf("Supports[SessionRevoker] on the primary itself = %v; want %v", got, tc.supported)
			}
			u, err := a.CreateUser(ctx, adapter.User{Email: "ada@example.com"})
			if err != nil {
				t.Fatal(err)
			}
			ps := a.(adapter.PasswordStore)
			tf := a.(twofactor.Store)
			errPW := ps.SetPasswordHash(ctx, u.ID, "$argon2id$x")
			errTF := tf.SetTwoFactor(ctx, u.ID, twofactor.Secret{Sealed: "v1.s", BackupCodes: []string{"h1"}})
			if !tc.supported {
				for _, err := range []error{errPW, errTF} {
					if !errors.Is(err, redisstore.ErrUnsupported) || !errors.Is(err, errors.ErrUnsupported) {
						t.Errorf("over a bare primary: %v; want ErrUnsupported", err)
					}
				}
				return
			}
			if errPW != nil || errTF != nil {
				t.Fatal(errPW, errTF)
			}
			// Stored in the primary, not in Redis (the client is nil).
			if h, err := tc.primary.(adapter.PasswordStore).PasswordHash(ctx, u.ID); err != nil || h != "$argon2id$x" {
				t.Errorf("primary's PasswordHash = %q, %v", h, err)
			}
			if err := tf.ConsumeBackupCode(ctx, u.ID, "h1"); err != nil {
				t.Errorf("ConsumeBackupCode: %v", err)
			}
			if s, err := tc.primary.(twofactor.Store).TwoFactor(ctx, u.ID); err != nil || s.Sealed != "v1.s" || len(s.BackupCodes) != 0 {
				t.Errorf("primary's TwoFactor = %+v, %v; want the code used", s, err)
			}
		})
	}
}

// TestSessionWithoutMetadata: a session hash written before the adapter
// kept CreatedAt, UpdatedAt and UserAgent reads with them zero, and
// UpdateSession gives it an UpdatedAt.
func TestSessionWithoutMetadata(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, u, c, prefix := withAda(t, redisstore.Options{})
	exp := time.Now().Add(time.Hour).UTC().Truncate(time.Microsecond)
	if _, err := a.CreateSession(ctx, adapter.Session{Token: "old", UserID: u.ID, Expires: exp, CreatedAt: time.Now(), UserAgent: "Firefox on Linux"}); err != nil {
		t.Fatal(err)
	}
	// As an older release wrote it: without c, m and a.
	if err := c.HDel(ctx, prefix+"session:old", "c", "m", "a").Err(); err != nil {
		t.Fatal(err)
	}
	s, _, err := a.GetSessionAndUser(ctx, "old")
	if err != nil || !s.Expires.Equal(exp) || !s.CreatedAt.IsZero() || !s.UpdatedAt.IsZero() || s.UserAgent != "" {
		t.Fatalf("GetSessionAndUser = %+v, %v; want the session with no metadata", s, err)
	}
	before := time.Now().Add(-time.Second)
	s, err = a.UpdateSession(ctx, "old", exp.Add(time.Hour))
	if err != nil || s.UpdatedAt.Before(before) || !s.CreatedAt.IsZero() {
		t.Fatalf("UpdateSession = %+v, %v; want UpdatedAt now", s, err)
	}
	list, err := a.(adapter.SessionLister).ListSessions(ctx, u.ID)
	if err != nil || len(list) != 1 || !list[0].UpdatedAt.Equal(s.UpdatedAt) {
		t.Fatalf("ListSessions = %+v, %v; want the updated session", list, err)
	}
	if d, err := a.DeleteSession(ctx, "old"); err != nil || !d.UpdatedAt.Equal(s.UpdatedAt) {
		t.Fatalf("DeleteSession = %+v, %v", d, err)
	}
}
