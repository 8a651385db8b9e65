// Package linktoken hashes and uses up the single-use tokens of links
// sent by e-mail: the e-mail provider's sign-in links and the
// password-accounts provider's confirmation and reset links
// (providers/email re-exports it).
package linktoken

import (
	"context"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// The errors of Tokens.Use. Neither says more to the user than "this link
// does not work".
var (
	// ErrTokenUnknown is a token that matches no unused stored token: used
	// already, never issued, or altered.
	ErrTokenUnknown = errors.New("email: no unused token matches the link (used, unknown, or altered)")
	// ErrTokenExpired is a token that matched, past its expiry. It is
	// used up all the same.
	ErrTokenExpired = errors.New("email: the link has expired")
)

// MaxTokenLen bounds the tokens the handler accepts in a link.
const MaxTokenLen = 512

// Tokens hashes the single-use tokens of links (sign-in links, and the
// password-accounts provider's confirmation and reset links) and uses
// them up. The adapter keeps only a token's keyed hash, so a copy of the
// table gives no working link.
type Tokens struct {
	keys [][]byte // newest first
}

// NewTokens derives one hashing key per secret (newest first: tokens are
// hashed under the first, and found under any, so secrets rotate without
// breaking links in flight). salt and info name the purpose (HKDF, RFC
// 5869): tokens of one purpose never hash to another's.
func NewTokens(secrets []string, salt, info string) (*Tokens, error) {
	if len(secrets) == 0 {
		return nil, errors.New("email: a secret is required to key the link tokens")
	}
	t := &Tokens{}
	for _, s := range secrets {
		k, err := hkdf.Key(sha256.New, []byte(s), []byte(salt), info, 32)
		if err != nil {
			return nil, err
		}
		t.keys = append(t.keys, k)
	}
	return t, nil
}

// TokenStore is the part of an adapter.Adapter that Use needs.
type TokenStore interface {
	UseVerificationToken(ctx context.Context, identifier, tokenHash string) (adapter.VerificationToken, error)
}

// Hash returns what the adapter stores for token: HMAC-SHA-256 under the
// newest key, in hex.
func (t *Tokens) Hash(token string) string { return hashToken(t.keys[0], token) }

func hashToken(key []byte, token string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(token))
	return hex.EncodeToString(m.Sum(nil))
}

// Use uses up the token stored for identifier: the adapter deletes it as
// it returns it, so of two uses of one link only one succeeds. Each key
// is tried, for rotated secrets. It returns ErrTokenUnknown, ErrTokenExpired
// (wrapped), or the adapter's error.
func (t *Tokens) Use(ctx context.Context, store TokenStore, identifier, token string) error {
	if token == "" || len(token) > MaxTokenLen {
		return ErrTokenUnknown
	}
	for _, key := range t.keys {
		hash := hashToken(key, token)
		vt, err := store.UseVerificationToken(ctx, identifier, hash)
		if errors.Is(err, adapter.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		// The adapter found it by (identifier, hash); both are checked
		// again, in constant time, so that an adapter matching on less
		// (CVE-2022-39263: the identifier only) cannot let a wrong token
		// through.
		if subtle.ConstantTimeCompare([]byte(vt.TokenHash), []byte(hash)) != 1 || vt.Identifier != identifier {
			return ErrTokenUnknown
		}
		if !time.Now().Before(vt.Expires) {
			return fmt.Errorf("%w at %s", ErrTokenExpired, vt.Expires.UTC().Format(time.RFC3339))
		}
		return nil
	}
	return ErrTokenUnknown
}
