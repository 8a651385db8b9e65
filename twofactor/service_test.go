package twofactor

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clock is a settable clock for a Service.
type clock struct{ t atomic.Int64 }

func (c *clock) now() time.Time          { return time.Unix(c.t.Load(), 0) }
func (c *clock) advance(d time.Duration) { c.t.Add(int64(d / time.Second)) }

func newService(t *testing.T) (*Service, *MemoryStore, *clock) {
	t.Helper()
	store := &MemoryStore{}
	c := &clock{}
	c.t.Store(1_700_000_000)
	svc, err := New(Config{TOTP: TOTP{Issuer: "Example"}, Secret: []string{secretA}, Store: store, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return svc, store, c
}

// enrolled returns a Service whose user "alice" confirmed the returned
// secret and has the returned backup codes.
func enrolled(t *testing.T) (svc *Service, store *MemoryStore, c *clock, secret string, codes []string) {
	t.Helper()
	svc, store, c = newService(t)
	ctx := context.Background()
	e, err := svc.Enroll(ctx, "alice", "alice@example.com")
	if err != nil {
		t.Fatal(err)
	}
	codes, err = svc.Confirm(ctx, "alice", totpCode(t, e.Secret, c.now()))
	if err != nil {
		t.Fatal(err)
	}
	return svc, store, c, e.Secret, codes
}

func totpCode(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	code, err := TOTP{}.Code(secret, at)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

func TestNewRefused(t *testing.T) {
	good := Config{TOTP: TOTP{Issuer: "Example"}, Secret: []string{secretA}, Store: &MemoryStore{}}
	for name, edit := range map[string]func(*Config){
		"no issuer":    func(c *Config) { c.TOTP.Issuer = "" },
		"bad digits":   func(c *Config) { c.TOTP.Digits = 4 },
		"no store":     func(c *Config) { c.Store = nil },
		"no secret":    func(c *Config) { c.Secret = nil },
		"short secret": func(c *Config) { c.Secret = []string{"short"} },
	} {
		cfg := good
		edit(&cfg)
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := New(good); err != nil {
		t.Errorf("good config: %v", err)
	}
}

func TestEnrollConfirm(t *testing.T) {
	svc, store, c := newService(t)
	ctx := context.Background()
	if st, err := svc.Status(ctx, "alice"); err != nil || st != (Status{}) {
		t.Errorf("Status before enrolling = %+v, %v", st, err)
	}
	if _, err := svc.Confirm(ctx, "alice", "123456"); !errors.Is(err, ErrNotEnrolled) {
		t.Errorf("Confirm before Enroll: %v; want ErrNotEnrolled", err)
	}
	e, err := svc.Enroll(ctx, "alice", "alice@example.com")
	if err != nil {
		t.Fatal(err)
	}
	// Enrolled but not confirmed: sign-in does not ask for it yet.
	if st, err := svc.Status(ctx, "alice"); err != nil || st.Enabled {
		t.Errorf("Status before Confirm = %+v, %v", st, err)
	}
	code := totpCode(t, e.Secret, c.now())
	if _, err := svc.Verify(ctx, "alice", code); !errors.Is(err, ErrNotEnrolled) {
		t.Errorf("Verify before Confirm: %v; want ErrNotEnrolled", err)
	}
	stored, err := store.TwoFactor(ctx, "alice")
	if err != nil || strings.Contains(stored.Sealed, e.Secret) {
		t.Fatalf("stored %+v, %v: the secret is in the clear", stored, err)
	}
	wrong := "000000"
	if wrong == code {
		wrong = "111111"
	}
	if _, err := svc.Confirm(ctx, "alice", wrong); !errors.Is(err, ErrInvalidCode) {
		t.Errorf("Confirm with a wrong code: %v; want ErrInvalidCode", err)
	}
	codes, err := svc.Confirm(ctx, "alice", code)
	if err != nil || len(codes) != BackupCodeCount {
		t.Fatalf("Confirm = %d codes, %v", len(codes), err)
	}
	if st, err := svc.Status(ctx, "alice"); err != nil || st != (Status{Enabled: true, BackupCodesLeft: BackupCodeCount}) {
		t.Errorf("Status after Confirm = %+v, %v", st, err)
	}
	// The confirming code counts as used.
	if _, err := svc.Verify(ctx, "alice", code); !errors.Is(err, ErrReplayed) {
		t.Errorf("the confirming code at sign-in: %v; want ErrReplayed", err)
	}
	if _, err := svc.Confirm(ctx, "alice", code); !errors.Is(err, ErrAlreadyEnabled) {
		t.Errorf("Confirm again: %v; want ErrAlreadyEnabled", err)
	}
	if _, err := svc.Enroll(ctx, "alice", "alice@example.com"); !errors.Is(err, ErrAlreadyEnabled) {
		t.Errorf("Enroll while enabled: %v; want ErrAlreadyEnabled", err)
	}
	stored, _ = store.TwoFactor(ctx, "alice")
	for i, h := range stored.BackupCodes {
		if strings.Contains(h, NormalizeBackupCode(codes[i])) {
			t.Errorf("backup code %q stored in the clear", codes[i])
		}
	}
}

func TestVerifyTOTP(t *testing.T) {
	svc, store, c, secret, _ := enrolled(t)
	ctx := context.Background()
	c.advance(30 * time.Second)
	code := totpCode(t, secret, c.now())
	if m, err := svc.Verify(ctx, "alice", code); err != nil || m != MethodTOTP {
		t.Fatalf("Verify = %q, %v", m, err)
	}
	if _, err := svc.Verify(ctx, "alice", code); !errors.Is(err, ErrReplayed) {
		t.Errorf("same code twice: %v; want ErrReplayed", err)
	}
	c.advance(30 * time.Second)
	if _, err := svc.Verify(ctx, "alice", totpCode(t, secret, c.now())); err != nil {
		t.Errorf("next step's code: %v", err)
	}
	c.advance(30 * time.Second)
	for _, code := range []string{"", "abc", "12345678", "00000-00000"} {
		if _, err := svc.Verify(ctx, "alice", code); !errors.Is(err, ErrInvalidCode) {
			t.Errorf("Verify(%q) = %v; want ErrInvalidCode", code, err)
		}
	}
	if _, err := svc.Verify(ctx, "bob", totpCode(t, secret, c.now())); !errors.Is(err, ErrNotEnrolled) {
		t.Errorf("a user who never enrolled: %v; want ErrNotEnrolled", err)
	}
	// Alice's row copied to Bob's does not work for Bob.
	alice, _ := store.TwoFactor(ctx, "alice")
	_ = store.SetTwoFactor(ctx, "bob", alice)
	if _, err := svc.Verify(ctx, "bob", totpCode(t, secret, c.now())); err == nil {
		t.Error("alice's sealed secret works for bob")
	}
}

func TestVerifyBackupCode(t *testing.T) {
	svc, _, _, _, codes := enrolled(t)
	ctx := context.Background()
	if m, err := svc.Verify(ctx, "alice", strings.ToUpper(codes[3])); err != nil || m != MethodBackup {
		t.Fatalf("Verify(backup code) = %q, %v", m, err)
	}
	if _, err := svc.Verify(ctx, "alice", codes[3]); !errors.Is(err, ErrInvalidCode) {
		t.Errorf("backup code twice: %v; want ErrInvalidCode", err)
	}
	if st, _ := svc.Status(ctx, "alice"); st.BackupCodesLeft != BackupCodeCount-1 {
		t.Errorf("%d backup codes left; want %d", st.BackupCodesLeft, BackupCodeCount-1)
	}
	fresh, err := svc.RegenerateBackupCodes(ctx, "alice")
	if err != nil || len(fresh) != BackupCodeCount {
		t.Fatalf("RegenerateBackupCodes = %d, %v", len(fresh), err)
	}
	if _, err := svc.Verify(ctx, "alice", codes[4]); !errors.Is(err, ErrInvalidCode) {
		t.Errorf("an old backup code after regenerating: %v; want ErrInvalidCode", err)
	}
	if _, err := svc.Verify(ctx, "alice", fresh[0]); err != nil {
		t.Errorf("a new backup code: %v", err)
	}
	if _, err := svc.RegenerateBackupCodes(ctx, "bob"); !errors.Is(err, ErrNotEnrolled) {
		t.Errorf("RegenerateBackupCodes for a user who never enrolled: %v; want ErrNotEnrolled", err)
	}
}

// TestBackupCodeRotation checks that a backup code hashed under a secret
// that is no longer the newest still works, once.
func TestBackupCodeRotation(t *testing.T) {
	_, store, c, secret, codes := enrolled(t)
	ctx := context.Background()
	svc, err := New(Config{TOTP: TOTP{Issuer: "Example"}, Secret: []string{secretB, secretA}, Store: store, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Verify(ctx, "alice", codes[0]); err != nil {
		t.Errorf("backup code after rotation: %v", err)
	}
	if _, err := svc.Verify(ctx, "alice", codes[0]); !errors.Is(err, ErrInvalidCode) {
		t.Errorf("backup code twice after rotation: %v; want ErrInvalidCode", err)
	}
	c.advance(30 * time.Second)
	if _, err := svc.Verify(ctx, "alice", totpCode(t, secret, c.now())); err != nil {
		t.Errorf("TOTP code after rotation: %v", err)
	}
}

// barrierStore holds every TwoFactor call until Racers calls were made,
// so that racing requests all read the Secret before any of them writes:
// then only the store's atomic updates stand between them.
type barrierStore struct {
	Store
	arrived *sync.WaitGroup
}

func (b barrierStore) TwoFactor(ctx context.Context, userID string) (Secret, error) {
	s, err := b.Store.TwoFactor(ctx, userID)
	b.arrived.Done()
	b.arrived.Wait()
	return s, err
}

// TestVerifyRace checks that of many requests racing with one code,
// exactly one succeeds: for a TOTP code and for a backup code.
func TestVerifyRace(t *testing.T) {
	const racers = 20
	_, store, c, secret, codes := enrolled(t)
	c.advance(30 * time.Second)
	for _, code := range []string{totpCode(t, secret, c.now()), codes[0]} {
		var arrived, wg sync.WaitGroup
		arrived.Add(racers)
		svc, err := New(Config{TOTP: TOTP{Issuer: "Example"}, Secret: []string{secretA}, Store: barrierStore{store, &arrived}, Now: c.now})
		if err != nil {
			t.Fatal(err)
		}
		var ok atomic.Int32
		for range racers {
			wg.Go(func() {
				if _, err := svc.Verify(context.Background(), "alice", code); err == nil {
					ok.Add(1)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 1 {
			t.Errorf("%q: %d of %d racing requests succeeded; want 1", code, ok.Load(), racers)
		}
	}
}

func TestDisable(t *testing.T) {
	svc, _, c, secret, codes := enrolled(t)
	ctx := context.Background()
	if err := svc.Disable(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if st, err := svc.Status(ctx, "alice"); err != nil || st != (Status{}) {
		t.Errorf("Status after Disable = %+v, %v", st, err)
	}
	c.advance(30 * time.Second)
	for _, code := range []string{totpCode(t, secret, c.now()), codes[0]} {
		if _, err := svc.Verify(ctx, "alice", code); !errors.Is(err, ErrNotEnrolled) {
			t.Errorf("Verify(%q) after Disable: %v; want ErrNotEnrolled", code, err)
		}
	}
	if err := svc.Disable(ctx, "alice"); err != nil {
		t.Errorf("Disable twice: %v", err)
	}
	// Enrolling again makes a new secret.
	e, err := svc.Enroll(ctx, "alice", "alice@example.com")
	if err != nil || e.Secret == secret {
		t.Errorf("Enroll after Disable: %v, same secret %v", err, e.Secret == secret)
	}
}

func TestServicePending(t *testing.T) {
	svc, _, c := newService(t)
	sealed, p, err := svc.StartPending(Pending{UserID: "alice", Provider: "credentials"}, "csrf")
	if err != nil {
		t.Fatal(err)
	}
	if p.UserID != "alice" || p.Provider != "credentials" || !p.Issued.Equal(c.now()) || p.ID == "" {
		t.Errorf("pending %+v", p)
	}
	c.advance(PendingMaxAge)
	if got, err := svc.OpenPending(sealed, "csrf"); err != nil || got != p {
		t.Errorf("OpenPending at the maximum age = %+v, %v; want %+v", got, err, p)
	}
	if _, err := svc.OpenPending(sealed, "other"); !errors.Is(err, ErrBindingMismatch) {
		t.Errorf("wrong binding: %v; want ErrBindingMismatch", err)
	}
	c.advance(time.Second)
	if _, err := svc.OpenPending(sealed, "csrf"); !errors.Is(err, ErrExpired) {
		t.Errorf("past the maximum age: %v; want ErrExpired", err)
	}
}
