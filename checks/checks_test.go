package checks

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestChallengeRFC7636AppendixB(t *testing.T) {
	// The worked example of RFC 7636 Appendix B.
	got := Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
	if want := "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"; got != want {
		t.Fatalf("Challenge = %q, want %q", got, want)
	}
}

func TestRandomValues(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		for _, v := range []string{NewVerifier(), NewState(), NewNonce()} {
			if len(v) != 43 {
				t.Fatalf("len(%q) = %d, want 43 (RFC 7636 §4.1: 43-128)", v, len(v))
			}
			if _, err := base64.RawURLEncoding.DecodeString(v); err != nil {
				t.Fatalf("%q is not base64url: %v", v, err)
			}
			if seen[v] {
				t.Fatalf("value %q repeated", v)
			}
			seen[v] = true
		}
	}
}

func TestVerify(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		check Kind
		cause error
		code  string
	}{
		{"state ok", VerifyState("abc", "abc"), "", nil, ""},
		{"state missing", VerifyState("", "abc"), State, ErrParamMissing, "state_missing"},
		{"state altered", VerifyState("abd", "abc"), State, ErrMismatch, "state_mismatch"},
		{"nonce ok", VerifyNonce("n", "n"), "", nil, ""},
		{"nonce missing", VerifyNonce("", "n"), Nonce, ErrParamMissing, "nonce_missing"},
		{"nonce wrong", VerifyNonce("x", "n"), Nonce, ErrMismatch, "nonce_mismatch"},
		{"iss ok", VerifyIssuer("https://op", "https://op", true), "", nil, ""},
		{"iss absent, not advertised", VerifyIssuer("", "https://op", false), "", nil, ""},
		{"iss absent, advertised", VerifyIssuer("", "https://op", true), Issuer, ErrParamMissing, "iss_missing"},
		{"iss other", VerifyIssuer("https://evil", "https://op", false), Issuer, ErrMismatch, "iss_mismatch"},
		{"iss trailing slash", VerifyIssuer("https://op/", "https://op", false), Issuer, ErrMismatch, "iss_mismatch"},
		{"iss case", VerifyIssuer("https://OP", "https://op", false), Issuer, ErrMismatch, "iss_mismatch"},
		{"iss with no expected issuer", VerifyIssuer("https://op", "", false), Issuer, ErrMismatch, "iss_mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cause == nil {
				if tt.err != nil {
					t.Fatalf("unexpected error %v", tt.err)
				}
				return
			}
			var ce *Error
			if !errors.As(tt.err, &ce) || ce.Check != tt.check || !errors.Is(tt.err, tt.cause) || ce.Code() != tt.code {
				t.Fatalf("got %#v (%v), want %s check with %v, code %s", tt.err, tt.err, tt.check, tt.cause, tt.code)
			}
		})
	}
}

// refusal is a cookie that must not open, and the cause the error names.
type refusal struct {
	name, cookie, provider, value string
	cause                         error
}

// refusals are the cookies that must not open where sealed, sealed for
// the cookie name and the provider github, would: the same value for
// another provider (GHSA-x445-f3h2-j279) or under the cookie name other,
// no value, and the value tampered with.
func refusals(sealed, name, other string) []refusal {
	return []refusal{
		{"other provider (GHSA-x445-f3h2-j279)", name, "google", sealed, ErrWrongProvider},
		{"other cookie name", other, "github", sealed, ErrCookieInvalid},
		{"missing", name, "github", "", ErrCookieMissing},
		{"tampered", name, "github", changedAt(sealed, len(sealed)-10), ErrCookieInvalid},
	}
}

func TestSealer(t *testing.T) {
	old, _ := NewSealer([]string{"old-secret-old-secret-old-secret-0"})
	s, err := NewSealer([]string{"new-secret-new-secret-new-secret-1", "old-secret-old-secret-old-secret-0"})
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := s.Seal("authjs.state", "github", "v1")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.Open(State, "authjs.state", "github", sealed); err != nil || v != "v1" {
		t.Fatalf("Open = %q, %v", v, err)
	}
	// Sealed before a rotation: still opens.
	fromOld, _ := old.Seal("authjs.state", "github", "v0")
	if v, err := s.Open(State, "authjs.state", "github", fromOld); err != nil || v != "v0" {
		t.Fatalf("rotated Open = %q, %v", v, err)
	}
	// Sealed with the new secret: the old-only sealer refuses it.
	if _, err := old.Open(State, "authjs.state", "github", sealed); !errors.Is(err, ErrCookieInvalid) {
		t.Fatalf("unknown secret: %v", err)
	}
	// One sealed value has one text: a last character whose unused bits
	// differ (which lenient base64 decoding drops) is refused.
	odd, _ := s.Seal("authjs.state", "github", "v12") // 46 bytes: 4 bits of the last character unused
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	alias := odd[:len(odd)-1] + string(alphabet[strings.IndexByte(alphabet, odd[len(odd)-1])^1])
	if a, b := must(base64.RawURLEncoding.DecodeString(alias)), must(base64.RawURLEncoding.DecodeString(odd)); !bytes.Equal(a, b) {
		t.Fatalf("the alias %q does not decode leniently to the sealed bytes", alias)
	}
	if v, err := s.Open(State, "authjs.state", "github", alias); !errors.Is(err, ErrCookieInvalid) {
		t.Errorf("a second text of a sealed value opened: %q, %v", v, err)
	}
	cases := append(refusals(sealed, "authjs.state", "authjs.nonce"), refusal{"garbage", "authjs.state", "github", "%%%", ErrCookieInvalid})
	for _, c := range cases {
		if _, err := s.Open(State, c.cookie, c.provider, c.value); !errors.Is(err, c.cause) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.cause)
		}
	}
}

func FuzzOpen(f *testing.F) {
	s, _ := NewSealer([]string{"fuzz-secret-fuzz-secret-fuzz-secret"})
	good, _ := s.Seal("authjs.pkce.code_verifier", "p", "verifier")
	f.Add(good)
	f.Add("")
	f.Add("a|b|c")
	f.Fuzz(func(t *testing.T, cookie string) {
		v, err := s.Open(PKCE, "authjs.pkce.code_verifier", "p", cookie)
		if err == nil && v != "verifier" {
			t.Fatalf("opened forged cookie %q to %q", cookie, v)
		}
		// Every refusal is typed: a *Error of the PKCE check with one of
		// the cookie causes.
		var ce *Error
		if err != nil && (!errors.As(err, &ce) || !(errors.Is(err, ErrCookieMissing) || errors.Is(err, ErrCookieInvalid) || errors.Is(err, ErrWrongProvider))) {
			t.Fatalf("untyped refusal %v (%T)", err, err)
		}
	})
}

func TestSealerMaxAge(t *testing.T) {
	s, _ := NewSealer([]string{"new-secret-new-secret-new-secret-1"})
	start := time.Now()
	s.now = func() time.Time { return start }
	sealed, _ := s.Seal("authjs.state", "github", "v1")
	for _, c := range []struct {
		after time.Duration
		ok    bool
	}{{MaxAge - time.Second, true}, {MaxAge + time.Second, false}, {-2 * time.Minute, false}} {
		s.now = func() time.Time { return start.Add(c.after) }
		_, err := s.Open(State, "authjs.state", "github", sealed)
		if c.ok != (err == nil) || (err != nil && !errors.Is(err, ErrCookieInvalid)) {
			t.Errorf("opened %v after sealing: err = %v", c.after, err)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// changedAt returns s with its i-th character replaced by another
// base64url character, never the same one.
func changedAt(s string, i int) string {
	c := byte('A')
	if s[i] == 'A' {
		c = 'B'
	}
	return s[:i] + string(c) + s[i+1:]
}
