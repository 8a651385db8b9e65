// Package keycore is package apikey's types, checks and storage contract
// (Config, Key, Principal, Store), which package apikey re-exports. It
// is apart so that the machine access routes (internal/keyflow) use it
// without importing package apikey, whose Enable builds those routes: a
// program links them, and the service token signer, only when it calls
// apikey.Enable.
package keycore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/permission"
)

// Errors of this package; test them with errors.Is.
var (
	// ErrMalformed: the string is not a key of this prefix.
	ErrMalformed = errors.New("apikey: not an API key")
	// ErrInvalid: the key is unknown, its secret wrong, or its user gone.
	ErrInvalid = errors.New("apikey: invalid API key")
	// ErrRevoked: the key was revoked.
	ErrRevoked = errors.New("apikey: API key revoked")
	// ErrExpired: the key is past its expiry.
	ErrExpired = errors.New("apikey: API key expired")
	// ErrTooManyKeys: Store.CreateAPIKey found the user holding the
	// maximum of live keys already, and stored nothing.
	ErrTooManyKeys = errors.New("apikey: too many API keys")
)

// Key is a stored API key. Hash is the hex SHA-256 of the secret, never
// the secret. PreviousHash, while PreviousUntil is in the future, is the
// secret it had before the last rotation (Config.RotationOverlap).
type Key struct {
	ID     string
	Name   string
	UserID string
	// OrganizationID is the organization the key acts in, "" for none.
	OrganizationID string
	// Permissions are what the key may do: never more than its user
	// could grant when it was made, and at each use no more than the
	// user holds then (Config.Permissions).
	Permissions permission.Set
	Hash        string
	// PreviousHash and PreviousUntil: see Key.
	PreviousHash  string
	PreviousUntil time.Time
	// Expires is zero for a key that does not expire.
	Expires    time.Time
	CreatedAt  time.Time
	LastUsedAt time.Time // zero: never used; updated at most once per TouchInterval
	RevokedAt  time.Time // zero: not revoked
}

// Store keeps API keys. The built-in adapters implement it (ask
// adapter.Supports[apikey.Store]). Methods that find one key return an
// error wrapping adapter.ErrNotFound when there is none.
type Store interface {
	// CreateAPIKey stores k unless k.UserID holds max live keys already
	// (Key.Live at k.CreatedAt), in which case it stores nothing and
	// returns ErrTooManyKeys; max <= 0 is no limit. The count and the
	// insert are one atomic step for every instance sharing the store:
	// of many parallel calls, no more succeed than max allows.
	// adapter.ErrConflict when k's ID exists, adapter.ErrNotFound when
	// its user does not.
	CreateAPIKey(ctx context.Context, k Key, max int) error
	// APIKey returns the key with the id, only while its user exists:
	// deleting a user ends their keys at once.
	APIKey(ctx context.Context, id string) (Key, error)
	// ListAPIKeys returns userID's keys, newest first.
	ListAPIKeys(ctx context.Context, userID string) ([]Key, error)
	// RevokeAPIKey marks userID's key id revoked at at; ErrNotFound when
	// userID has no such key that is not revoked already.
	RevokeAPIKey(ctx context.Context, userID, id string, at time.Time) error
	// RotateAPIKey gives userID's live key id the secret hash, keeping
	// the old hash as PreviousHash until previousUntil (not at all when
	// previousUntil is not after now); ErrNotFound when userID has no
	// such live key.
	RotateAPIKey(ctx context.Context, userID, id, hash string, previousUntil time.Time) error
	// TouchAPIKey sets the key's LastUsedAt to at when it is older than
	// at minus TouchInterval (one write per key per interval, whatever
	// the number of instances).
	TouchAPIKey(ctx context.Context, id string, at time.Time) error
}

// TouchInterval is how stale a key's LastUsedAt may get: it is written
// at most once per interval, not on every request.
const TouchInterval = time.Minute

// DefaultPrefix is Config.Prefix's default.
const DefaultPrefix = "gh"

// idChars is the length of a key's public id: 16 base62 characters,
// about 95 bits, so ids made apart never meet.
const idChars = 16

// base62 is the alphabet of ids and secrets: no "_", which separates the
// parts, and nothing a URL, a shell or a header would change.
const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// randomBase62 returns n uniformly random base62 characters (rejection
// sampling: a byte of 248 or more is drawn again, so no character is
// likelier than another).
func randomBase62(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+8)
	for len(out) < n {
		rand.Read(buf) // never fails (crypto/rand)
		for _, b := range buf {
			if b < 248 && len(out) < n {
				out = append(out, base62[b%62])
			}
		}
	}
	return string(out)
}

// secretChars is the length of a secret: 43 base62 characters, 256 bits
// (ceil(256 / log2 62)), so that its SHA-256 can be stored unsalted and
// unkeyed: a keyed hash (HMAC with the app secret) would add nothing
// against guessing, which no leaked table makes feasible, and would tie
// every key to AUTH_SECRET, so that rotating it would end them all.
const secretChars = 43

// New returns a new key's full text for prefix, its id and the hash of
// its secret, to store.
func New(prefix string) (full, id, hash string) {
	id = randomBase62(idChars)
	secret := randomBase62(secretChars)
	return prefix + "_" + id + "_" + secret, id, HashSecret(secret)
}

// NewSecret returns a new secret for the key id (a rotation): the full
// key and the hash of its secret.
func NewSecret(prefix, id string) (full, hash string) {
	secret := randomBase62(secretChars)
	return prefix + "_" + id + "_" + secret, HashSecret(secret)
}

// HashSecret returns the hex SHA-256 of a key's secret, as stored.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// Parse splits a key of prefix into its id and secret; ErrMalformed when
// it is not one. It reads nothing but the string.
func Parse(prefix, key string) (id, secret string, err error) {
	if !Looks(prefix, key) {
		return "", "", ErrMalformed
	}
	id, secret, ok := strings.Cut(key[len(prefix)+1:], "_")
	if !ok || len(id) != idChars || len(secret) != secretChars || !isBase62(id) || !isBase62(secret) {
		return "", "", ErrMalformed
	}
	return id, secret, nil
}

// Looks reports whether s starts as a key of prefix does: the Middleware
// takes only such bearer tokens for API keys.
func Looks(prefix, s string) bool {
	return len(s) > len(prefix) && s[len(prefix)] == '_' && s[:len(prefix)] == prefix
}

// isBase62Char marks the bytes of base62: a table, since every request
// with a key checks its 59 characters.
var isBase62Char = func() (t [256]bool) {
	for i := 0; i < len(base62); i++ {
		t[base62[i]] = true
	}
	return t
}()

func isBase62(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isBase62Char[s[i]] {
			return false
		}
	}
	return true
}

// Check verifies secret against k at now: the hash (or, within a
// rotation's overlap, the previous one), compared in constant time, then
// revocation and expiry. The secret is compared first, so a wrong secret
// says nothing of the key's state.
func (k Key) Check(secret string, now time.Time) error {
	var got [2 * sha256.Size]byte // the hex of the secret's SHA-256, as stored
	sum := sha256.Sum256([]byte(secret))
	hex.Encode(got[:], sum[:])
	ok := subtle.ConstantTimeCompare(got[:], []byte(k.Hash)) == 1
	if k.PreviousHash != "" && now.Before(k.PreviousUntil) {
		ok = subtle.ConstantTimeCompare(got[:], []byte(k.PreviousHash)) == 1 || ok
	}
	switch {
	case !ok:
		return ErrInvalid
	case !k.RevokedAt.IsZero():
		return ErrRevoked
	case !k.Expires.IsZero() && !now.Before(k.Expires):
		return ErrExpired
	}
	return nil
}

// Live reports whether k counts against MaxKeys at at: not revoked, and
// not expired.
func (k Key) Live(at time.Time) bool {
	return k.RevokedAt.IsZero() && (k.Expires.IsZero() || at.Before(k.Expires))
}

// Principal is who a request acts for when it carries an API key: which
// key, on whose behalf, in which organization, with which permissions.
type Principal struct {
	// KeyID is the key's public id; KeyName its name.
	KeyID, KeyName string
	UserID         string
	OrganizationID string
	// Permissions are the key's permissions that its user still holds.
	Permissions permission.Set
}

// Can reports whether p holds the statement st.
func (p *Principal) Can(st permission.Statement) bool {
	return p != nil && p.Permissions.Has(st)
}

// PermissionsFunc returns the permissions a user holds, in an
// organization when organizationID is not "": what they may put on a key
// or a token, and what a key of theirs may still do. Return an empty set
// (nil) for a user who holds none.
type PermissionsFunc func(ctx context.Context, userID, organizationID string) (permission.Set, error)

// CheckName checks a key's name: 1 to 64 printable characters.
func CheckName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("apikey: a name has 1 to 64 characters")
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f {
			return fmt.Errorf("apikey: a name has no control characters")
		}
	}
	return nil
}

// Change is what happened to a key, for Event.
type Change string

// The changes an Event tells of.
const (
	Created Change = "created"
	Rotated Change = "rotated"
	Revoked Change = "revoked"
)

// Event tells of a key made, rotated or revoked through the routes
// (gatehouse.Events.APIKey). It never holds the key's secret.
type Event struct {
	Change         Change
	KeyID, Name    string
	UserID         string
	OrganizationID string
}
