package linktoken

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// laxStore holds one token. An honest one finds it by identifier and
// hash; a lax one by the identifier only, as the adapter of
// CVE-2022-39263 did.
type laxStore struct {
	vt     adapter.VerificationToken
	honest bool
}

func (s laxStore) UseVerificationToken(_ context.Context, identifier, hash string) (adapter.VerificationToken, error) {
	if identifier != s.vt.Identifier || s.honest && hash != s.vt.TokenHash {
		return adapter.VerificationToken{}, adapter.ErrNotFound
	}
	return s.vt, nil
}

func TestTokensUse(t *testing.T) {
	old, _ := NewTokens([]string{"old-secret-old-secret-old-secret-0"}, "salt", "info")
	tokens, _ := NewTokens([]string{"new-secret-new-secret-new-secret-0", "old-secret-old-secret-old-secret-0"}, "salt", "info")
	other, _ := NewTokens([]string{"new-secret-new-secret-new-secret-0"}, "salt", "another purpose")
	later := time.Now().Add(time.Hour)
	for _, tc := range []struct {
		name  string
		store laxStore
		token string
		want  error
	}{
		{"newest key", laxStore{adapter.VerificationToken{Identifier: "a@example.com", TokenHash: tokens.Hash("tok"), Expires: later}, false}, "tok", nil},
		{"rotated key", laxStore{adapter.VerificationToken{Identifier: "a@example.com", TokenHash: old.Hash("tok"), Expires: later}, true}, "tok", nil},
		{"wrong token, lax adapter", laxStore{adapter.VerificationToken{Identifier: "a@example.com", TokenHash: tokens.Hash("tok"), Expires: later}, false}, "guess", ErrTokenUnknown},
		{"another purpose's key", laxStore{adapter.VerificationToken{Identifier: "a@example.com", TokenHash: other.Hash("tok"), Expires: later}, false}, "tok", ErrTokenUnknown},
		{"expired", laxStore{adapter.VerificationToken{Identifier: "a@example.com", TokenHash: tokens.Hash("tok"), Expires: time.Now().Add(-time.Second)}, false}, "tok", ErrTokenExpired},
		{"empty", laxStore{adapter.VerificationToken{Identifier: "a@example.com", TokenHash: tokens.Hash(""), Expires: later}, false}, "", ErrTokenUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tokens.Use(context.Background(), tc.store, "a@example.com", tc.token)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("Use = %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := NewTokens(nil, "salt", "info"); err == nil {
		t.Fatal("NewTokens without a secret succeeded")
	}
}
