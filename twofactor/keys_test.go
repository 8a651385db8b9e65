package twofactor

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/checks"
)

const (
	secretA = "test secret A, 32 bytes or more.."
	secretB = "test secret B, 32 bytes or more.."
)

func mustKeys(t *testing.T, secrets ...string) *Keys {
	t.Helper()
	k, err := NewKeys(secrets)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestNewKeysRefused(t *testing.T) {
	for _, secrets := range [][]string{nil, {}, {"short"}, {secretA, strings.Repeat("x", MinSecretLen-1)}} {
		if _, err := NewKeys(secrets); err == nil {
			t.Errorf("NewKeys(%q): no error", secrets)
		}
	}
}

func TestSealSecret(t *testing.T) {
	a, b := mustKeys(t, secretA), mustKeys(t, secretB)
	rotated := mustKeys(t, secretB, secretA)
	const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
	sealed, err := a.SealSecret("alice", secret)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, secret) || !strings.HasPrefix(sealed, sealedPrefix) {
		t.Errorf("sealed form %q", sealed)
	}
	again, _ := a.SealSecret("alice", secret)
	if again == sealed {
		t.Error("two sealings are equal: the nonce is not random")
	}
	for _, keys := range []*Keys{a, rotated} {
		if got, err := keys.OpenSecret("alice", sealed); err != nil || got != secret {
			t.Errorf("OpenSecret = %q, %v; want %q", got, err, secret)
		}
	}
	tampered := []byte(sealed)
	tampered[len(tampered)-5] ^= 1
	for name, open := range map[string]func() (string, error){
		"another user's":      func() (string, error) { return a.OpenSecret("mallory", sealed) },
		"another secret's":    func() (string, error) { return b.OpenSecret("alice", sealed) },
		"tampered":            func() (string, error) { return a.OpenSecret("alice", string(tampered)) },
		"without its version": func() (string, error) { return a.OpenSecret("alice", strings.TrimPrefix(sealed, sealedPrefix)) },
		"truncated":           func() (string, error) { return a.OpenSecret("alice", sealedPrefix+"AAAA") },
		"empty":               func() (string, error) { return a.OpenSecret("alice", "") },
	} {
		if got, err := open(); err == nil {
			t.Errorf("%s sealed secret opened: %q", name, got)
		}
	}
}

func TestBackupCodes(t *testing.T) {
	k := mustKeys(t, secretA)
	codes, hashes, err := k.NewBackupCodes()
	if err != nil {
		t.Fatal(err)
	}
	if len(codes) != BackupCodeCount || len(hashes) != BackupCodeCount {
		t.Fatalf("%d codes, %d hashes; want %d", len(codes), len(hashes), BackupCodeCount)
	}
	shape := regexp.MustCompile(`^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$`)
	seen := map[string]bool{}
	for i, c := range codes {
		if !shape.MatchString(c) || !looksLikeBackupCode(c) {
			t.Errorf("code %q has the wrong shape", c)
		}
		if seen[c] || seen[hashes[i]] {
			t.Errorf("code %q repeated", c)
		}
		seen[c], seen[hashes[i]] = true, true
		if hashes[i] != k.HashBackupCode(c) || strings.Contains(hashes[i], NormalizeBackupCode(c)) {
			t.Errorf("hash of %q: %q", c, hashes[i])
		}
		typed := " " + strings.ToUpper(strings.ReplaceAll(c, "-", " ")) + " "
		if k.HashBackupCode(typed) != hashes[i] {
			t.Errorf("%q typed as %q hashes differently", c, typed)
		}
	}
	if got := NormalizeBackupCode("IlO0-1a"); got != "11001a" {
		t.Errorf("NormalizeBackupCode = %q; want 11001a", got)
	}
	if mustKeys(t, secretB).HashBackupCode(codes[0]) == hashes[0] {
		t.Error("the hash does not depend on the secret")
	}
	for _, c := range []string{"123456", "12345-1234", "12345-123456", "abcde-fghu!"} {
		if looksLikeBackupCode(c) {
			t.Errorf("%q looks like a backup code", c)
		}
	}
}

func TestPending(t *testing.T) {
	k := mustKeys(t, secretA)
	now := time.Unix(1_700_000_000, 0)
	sealed, p, err := k.SealPending(Pending{UserID: "alice", Provider: "credentials", Issued: now}, "csrf-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.ID) < 22 || strings.Contains(sealed, "alice") {
		t.Errorf("pending %+v sealed as %q", p, sealed)
	}
	open := func(sealed, binding string, at time.Time) (Pending, error) {
		return k.OpenPending(sealed, binding, at, PendingMaxAge)
	}
	for _, at := range []time.Time{now, now.Add(PendingMaxAge), now.Add(-pendingFutureSlack)} {
		got, err := open(sealed, "csrf-1", at)
		if err != nil || got != p {
			t.Errorf("open at %v: %+v, %v; want %+v", at.Sub(now), got, err, p)
		}
	}
	if got, err := mustKeys(t, secretB, secretA).OpenPending(sealed, "csrf-1", now, PendingMaxAge); err != nil || got != p {
		t.Errorf("open after rotation: %+v, %v", got, err)
	}

	tampered := []byte(sealed)
	tampered[len(tampered)/2] ^= 1
	other, _, err := k.SealPending(Pending{UserID: "alice", Issued: now}, "csrf-2")
	if err != nil {
		t.Fatal(err)
	}
	// A value of the same secret sealed for another purpose.
	sealer, err := checks.NewSealer([]string{secretA})
	if err != nil {
		t.Fatal(err)
	}
	check, err := sealer.Seal(pendingName, "credentials", "alice")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		sealed  string
		binding string
		at      time.Time
		want    error
	}{
		{"expired", sealed, "csrf-1", now.Add(PendingMaxAge + time.Second), ErrExpired},
		{"from the future", sealed, "csrf-1", now.Add(-pendingFutureSlack - time.Second), ErrPendingInvalid},
		{"wrong binding", sealed, "csrf-2", now, ErrBindingMismatch},
		{"empty binding", sealed, "", now, ErrBindingMismatch},
		{"another browser's value", other, "csrf-1", now, ErrBindingMismatch},
		{"tampered", string(tampered), "csrf-1", now, ErrPendingInvalid},
		{"truncated", sealed[:len(sealed)-4], "csrf-1", now, ErrPendingInvalid},
		{"empty", "", "csrf-1", now, ErrPendingInvalid},
		{"a check cookie", check, "csrf-1", now, ErrPendingInvalid},
	}
	for _, tt := range tests {
		if got, err := open(tt.sealed, tt.binding, tt.at); !errors.Is(err, tt.want) {
			t.Errorf("%s: %+v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
	if _, err := mustKeys(t, secretB).OpenPending(sealed, "csrf-1", now, PendingMaxAge); !errors.Is(err, ErrPendingInvalid) {
		t.Errorf("another secret's value: %v; want ErrPendingInvalid", err)
	}
	if _, _, err := k.SealPending(Pending{UserID: "alice", Issued: now}, ""); err == nil {
		t.Error("SealPending with an empty binding: no error")
	}
	if _, _, err := k.SealPending(Pending{Issued: now}, "csrf-1"); err == nil {
		t.Error("SealPending without a user: no error")
	}
}
