package servicetoken_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

const secret = "a-test-secret-of-at-least-thirty-two-bytes"

// clock is a test's time, moved by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newSigner(t *testing.T, store servicetoken.KeyStore, c *clock, secrets ...string) *servicetoken.Signer {
	t.Helper()
	if len(secrets) == 0 {
		secrets = []string{secret}
	}
	s, err := servicetoken.NewSigner(servicetoken.Config{Audiences: []string{"api"}}, store, secrets)
	if err != nil {
		t.Fatal(err)
	}
	servicetoken.SetClock(s, c.now)
	return s
}

func kids(t *testing.T, s *servicetoken.Signer) []string {
	t.Helper()
	raw, err := s.JWKS(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, k := range set.Keys {
		out = append(out, k.KeyID)
	}
	return out
}

func signedBy(t *testing.T, s *servicetoken.Signer) string {
	t.Helper()
	tok, _, err := s.Issue(context.Background(), "https://issuer", servicetoken.Claims{Subject: "u", Audience: "api", ClientID: "c"})
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := jose.ParseSignedCompact(tok, []jose.SignatureAlgorithm{jose.EdDSA})
	if err != nil {
		t.Fatal(err)
	}
	return parsed.Signatures[0].Header.KeyID
}

// TestSchedule walks a day and a half with the defaults (rotation a day,
// overlap an hour, tokens of 5 minutes): the next key is published an hour
// before it signs, the old one stays published until its last token has
// expired (and a minute), and a second instance agrees on every step.
func TestSchedule(t *testing.T) {
	store := memory.New()
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	a, b := newSigner(t, store, c), newSigner(t, store, c)
	first := signedBy(t, a)
	if got := kids(t, b); len(got) != 1 || got[0] != first || signedBy(t, b) != first {
		t.Fatalf("after the first key: published %v; want [%s], signing with it on both", got, first)
	}
	c.add(23*time.Hour - time.Minute)
	if got := kids(t, a); len(got) != 1 {
		t.Errorf("61 minutes before the rotation: %v; want one key", got)
	}
	c.add(time.Minute) // an hour before: the next key is published, and not yet used
	published := kids(t, b)
	if len(published) != 2 || published[0] != first || signedBy(t, a) != first || signedBy(t, b) != first {
		t.Fatalf("an hour before the rotation: published %v; want the first and the next, signing with the first", published)
	}
	next := published[1]
	c.add(time.Hour + time.Minute) // a minute after the rotation
	if signedBy(t, a) != next || signedBy(t, b) != next {
		t.Error("after the rotation, an instance still signs with the old key")
	}
	if got := kids(t, a); len(got) != 2 {
		t.Errorf("a minute after the rotation: %v; want the old key still published", got)
	}
	c.add(5 * time.Minute) // the old key's last token expired 1 minute ago; a minute of skew
	if got := kids(t, b); len(got) != 1 || got[0] != next {
		t.Errorf("6 minutes after the rotation: %v; want [%s]", got, next)
	}
	keys, _ := store.SigningKeys(context.Background())
	if len(keys) != 2 || keys[1].NotBefore.Sub(keys[0].NotBefore) != 24*time.Hour {
		t.Errorf("stored %d keys; want 2, a day apart", len(keys))
	}
	c.add(2 * time.Hour) // long past: the retired key is deleted
	kids(t, a)
	if keys, _ := store.SigningKeys(context.Background()); len(keys) != 1 {
		t.Errorf("stored %d keys after the old one's time; want 1", len(keys))
	}
}

// TestLapse: after days without a request, the first one signs with the
// old key and publishes the next for Overlap before it signs: a new key
// is never used before a verifier could have it.
func TestLapse(t *testing.T) {
	store := memory.New()
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := newSigner(t, store, c)
	first := signedBy(t, s)
	c.add(72 * time.Hour)
	if signedBy(t, s) != first {
		t.Error("after a lapse, a key was used at once")
	}
	c.add(time.Hour)
	if signedBy(t, s) == first {
		t.Error("an hour after the lapse, the old key still signs")
	}
}

// TestSecretRotation: keys sealed under an old secret still sign when it
// follows a new one, and not at all without it.
func TestSecretRotation(t *testing.T) {
	store := memory.New()
	c := &clock{t: time.Now()}
	first := signedBy(t, newSigner(t, store, c))
	other := "another-secret-of-at-least-thirty-two-bytes!"
	if got := signedBy(t, newSigner(t, store, c, other, secret)); got != first {
		t.Errorf("signed by %s; want %s", got, first)
	}
	s := newSigner(t, store, c, other)
	if _, _, err := s.Issue(context.Background(), "https://issuer", servicetoken.Claims{Audience: "api"}); err == nil {
		t.Error("a key sealed under a secret no longer configured signed")
	}
}

// TestConfig: Normalize refuses what cannot work.
func TestConfig(t *testing.T) {
	for name, c := range map[string]servicetoken.Config{
		"no audience":         {},
		"empty audience":      {Audiences: []string{""}},
		"unknown algorithm":   {Audiences: []string{"a"}, Algorithm: "HS256"},
		"overlap > rotation":  {Audiences: []string{"a"}, Rotation: time.Hour, Overlap: 2 * time.Hour},
		"lifetime > rotation": {Audiences: []string{"a"}, Rotation: time.Hour, Overlap: time.Minute, Lifetime: 2 * time.Hour},
	} {
		if _, err := c.Normalize(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	c, err := servicetoken.Config{Audiences: []string{"a"}}.Normalize()
	if err != nil || c.Algorithm != servicetoken.EdDSA || c.Lifetime != 5*time.Minute || c.MaxAge() != 15*time.Minute {
		t.Errorf("defaults %+v, %v", c, err)
	}
}

// failing is a KeyStore whose reads fail while down is set.
type failing struct {
	servicetoken.KeyStore
	down bool
}

func (f *failing) SigningKeys(ctx context.Context) ([]servicetoken.SigningKey, error) {
	if f.down {
		return nil, errors.New("store down")
	}
	return f.KeyStore.SigningKeys(ctx)
}

// TestStoreDown: while the store cannot be read, the keys read last sign
// for up to half the Overlap; past that, Issue fails rather than guess.
func TestStoreDown(t *testing.T) {
	store := &failing{KeyStore: memory.New()}
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := newSigner(t, store, c)
	first := signedBy(t, s)
	store.down = true
	c.add(20 * time.Minute)
	if signedBy(t, s) != first {
		t.Error("the cached key did not sign while the store was down")
	}
	c.add(15 * time.Minute)
	if _, _, err := s.Issue(context.Background(), "https://issuer", servicetoken.Claims{Audience: "api"}); err == nil {
		t.Error("signed with keys read 35 minutes ago from a store that is down")
	}
	store.down = false
	if signedBy(t, s) != first {
		t.Error("after the store came back")
	}
}
