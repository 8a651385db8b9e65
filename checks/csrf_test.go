package checks

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"sync"
	"testing"
)

func TestCSRFPairs(t *testing.T) {
	const oldSecret, newSecret = "old-secret-old-secret-old-secret-0", "new-secret-new-secret-new-secret-1"
	old, _ := NewCSRF([]string{oldSecret})
	c, _ := NewCSRF([]string{newSecret, oldSecret})
	other, _ := NewCSRF([]string{"other-secret-other-secret-other-01"})

	token, cookie := c.NewPair()
	// The cookie's MAC is HMAC-SHA256 of the token under the HKDF key,
	// its first 128 bits, whatever state the pooled MACs were left in; the
	// token is 256 random bits. Both are base64url.
	key, _ := hkdf.Key(sha256.New, []byte(newSecret), []byte("gatehouse csrf"), "Gatehouse CSRF token MAC", 32)
	m := hmac.New(sha256.New, key)
	m.Write([]byte(token))
	if want := token + "|" + base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16]); cookie != want {
		t.Fatalf("cookie %q, want %q", cookie, want)
	}
	if raw, err := base64.RawURLEncoding.DecodeString(token); err != nil || len(raw) != 32 || len(cookie) != 66 {
		t.Fatalf("token %q (%d bytes, %v), cookie of %d characters", token, len(raw), err, len(cookie))
	}
	if !c.Verify(cookie, token) {
		t.Fatal("a fresh pair was refused")
	}
	_, oldCookie := old.NewPair()
	oldToken, _, _ := strings.Cut(oldCookie, "|")
	cases := []struct {
		name              string
		cookie, submitted string
		want              bool
	}{
		{"made before a rotation", oldCookie, oldToken, true},
		{"wrong token submitted", cookie, oldToken, false},
		{"short token submitted", cookie, token[:10], false},
		{"nothing submitted", cookie, "", false},
		{"token altered in the cookie", changedAt(cookie, 0), changedAt(token, 0), false},
		{"MAC altered", changedAt(cookie, len(cookie)-10), token, false},
		{"no MAC", token, token, false},
		{"a separator inside the token", token[:10] + "|" + cookie[11:], token[:10] + "|" + token[11:], false},
		{"the full 256-bit MAC", token + "|" + base64.RawURLEncoding.EncodeToString(m.Sum(nil)), token, false},
	}
	for _, tc := range cases {
		if got := c.Verify(tc.cookie, tc.submitted); got != tc.want {
			t.Errorf("%s: verify = %v, want %v", tc.name, got, tc.want)
		}
	}
	if other.Verify(cookie, token) {
		t.Error("a pair made with another secret was accepted")
	}

	// Concurrent use of the pooled MAC states.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				tok, ck := c.NewPair()
				if !c.Verify(ck, tok) || c.Verify(ck, token) && tok != token {
					t.Error("concurrent pair refused or confused")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkNewPair(b *testing.B) {
	c, _ := NewCSRF([]string{"new-secret-new-secret-new-secret-1"})
	b.ReportAllocs()
	for b.Loop() {
		if t, cookie := c.NewPair(); !c.Verify(cookie, t) {
			b.Fatal("the pair does not verify")
		}
	}
}
