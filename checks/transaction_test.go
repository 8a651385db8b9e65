package checks

import (
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"github.com/gorilla/securecookie"
)

func TestTransaction(t *testing.T) {
	s, _ := NewSealer([]string{"new-secret-new-secret-new-secret-1"})
	tx := NewTransaction(true, true, true)
	for _, v := range []string{tx.Verifier, tx.State, tx.Nonce} {
		if len(v) != 43 {
			t.Fatalf("value %q: want 43 base64url characters (256 bits)", v)
		}
	}
	if tx.Verifier == tx.State || tx.State == tx.Nonce || tx.Verifier == tx.Nonce {
		t.Fatalf("values repeat: %+v", tx)
	}
	if got := NewTransaction(false, true, false); got.Verifier != "" || got.Nonce != "" || got.State == "" {
		t.Fatalf("only state asked for, got %+v", got)
	}

	sealed, err := s.SealTransaction("authjs.checks", "github", tx)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, tx.State) || strings.Contains(sealed, tx.Verifier) {
		t.Fatal("a check value is readable in the cookie")
	}
	got, err := s.OpenTransaction(State, "authjs.checks", "github", sealed)
	if err != nil || got != tx {
		t.Fatalf("OpenTransaction = %+v, %v; want %+v", got, err, tx)
	}
	for _, c := range refusals(sealed, "authjs.checks", "authjs.session-token") {
		_, err := s.OpenTransaction(PKCE, c.cookie, c.provider, c.value)
		var ce *Error
		if !errors.Is(err, c.cause) || !errors.As(err, &ce) || ce.Check != PKCE {
			t.Errorf("%s: err = %v, want a pkce check failure with %v", c.name, err, c.cause)
		}
	}
	// A single value sealed with Seal is not a transaction.
	single, _ := s.Seal("authjs.checks", "github", tx.State)
	if _, err := s.OpenTransaction(State, "authjs.checks", "github", single); !errors.Is(err, ErrCookieInvalid) {
		t.Errorf("single value opened as a transaction: %v", err)
	}
}

func TestTransactionNeed(t *testing.T) {
	onlyState := Transaction{State: "s"}
	if err := onlyState.Need(false, true, false); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pkce, state, nonce bool
		want               Kind
	}{{true, true, false, PKCE}, {false, true, true, Nonce}, {true, false, true, PKCE}} {
		err := onlyState.Need(c.pkce, c.state, c.nonce)
		var ce *Error
		if !errors.As(err, &ce) || ce.Check != c.want || !errors.Is(err, ErrCookieInvalid) {
			t.Errorf("Need(%v,%v,%v) = %v, want %s cookie_invalid", c.pkce, c.state, c.nonce, err, c.want)
		}
	}
	if err := (Transaction{}).Need(false, true, false); err == nil {
		t.Error("an empty transaction passed the state check")
	}
}

func BenchmarkSealTransaction(b *testing.B) {
	s, _ := NewSealer([]string{"new-secret-new-secret-new-secret-1"})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SealTransaction("authjs.checks", "github", NewTransaction(true, true, true)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSealTransactionSecureCookie seals the same transaction with
// gorilla/securecookie (AES-CTR then HMAC-SHA256, base64 twice, its own
// timestamp), the codec twofactor's pending sign-ins use: the cost of
// moving the check cookies to it, which BenchmarkSealTransaction's
// AES-GCM in one buffer avoids.
func BenchmarkSealTransactionSecureCookie(b *testing.B) {
	key := sha256.Sum256([]byte("new-secret-new-secret-new-secret-1"))
	codec := securecookie.New(key[:], key[:])
	codec.SetSerializer(securecookie.NopEncoder{})
	t := NewTransaction(true, true, true)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.Encode("authjs.checks", []byte("github\x00"+t.Verifier+sep+t.State+sep+t.Nonce+sep+t.Binding)); err != nil {
			b.Fatal(err)
		}
	}
}
