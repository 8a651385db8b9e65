// Package apikey is Gatehouse's API keys: long-lived credentials a
// program sends as "Authorization: Bearer <key>" to act on behalf of the
// user who made the key, with at most that user's permissions.
//
// A key reads <prefix>_<id>_<secret>: the prefix names the site (Config.Prefix,
// so that secret scanners can find leaked keys), the id is public and
// finds the stored key, and the secret is 32 random bytes. Only the
// SHA-256 of the secret is stored; the whole key is shown once, when it is
// made or rotated, and never again.
//
// The routes (create, list, revoke, rotate) and the Middleware's reading
// of keys are the handler's (gatehouse.Config.MachineAccess =
// Enable(Config{…})); this
// package holds the types, the Store the adapters implement, and the
// checks that need no HTTP. The routes act for the user signed in with
// the session cookie, and creating or rotating a key also needs a
// sign-in within gatehouse.SessionConfig.FreshAge (403 fresh_sign_in
// otherwise): a key outlives the session that made it, so a stolen
// session cookie alone must not be able to mint one.
package apikey

import (
	"github.com/gatehouse-auth/gatehouse/internal/keycore"
)

// Errors of this package; test them with errors.Is.
var (
	// ErrMalformed: the string is not a key of this prefix.
	ErrMalformed = keycore.ErrMalformed
	// ErrInvalid: the key is unknown, its secret wrong, or its user gone.
	ErrInvalid = keycore.ErrInvalid
	// ErrRevoked: the key was revoked.
	ErrRevoked = keycore.ErrRevoked
	// ErrExpired: the key is past its expiry.
	ErrExpired = keycore.ErrExpired
	// ErrTooManyKeys: Store.CreateAPIKey found the user holding the
	// maximum of live keys already, and stored nothing.
	ErrTooManyKeys = keycore.ErrTooManyKeys
)

// Key is a stored API key. Hash is the hex SHA-256 of the secret, never
// the secret. PreviousHash, while PreviousUntil is in the future, is the
// secret it had before the last rotation (Config.RotationOverlap).
type Key = keycore.Key

// Store keeps API keys. The built-in adapters implement it (ask
// adapter.Supports[apikey.Store]). Methods that find one key return an
// error wrapping adapter.ErrNotFound when there is none.
type Store = keycore.Store

// TouchInterval is how stale a key's LastUsedAt may get: it is written
// at most once per interval, not on every request.
const TouchInterval = keycore.TouchInterval

// DefaultPrefix is Config.Prefix's default.
const DefaultPrefix = keycore.DefaultPrefix

// New returns a new key's full text for prefix, its id and the hash of
// its secret, to store.
func New(prefix string) (full, id, hash string) { return keycore.New(prefix) }

// NewSecret returns a new secret for the key id (a rotation): the full
// key and the hash of its secret.
func NewSecret(prefix, id string) (full, hash string) { return keycore.NewSecret(prefix, id) }

// HashSecret returns the hex SHA-256 of a key's secret, as stored.
func HashSecret(secret string) string { return keycore.HashSecret(secret) }

// Parse splits a key of prefix into its id and secret; ErrMalformed when
// it is not one. It reads nothing but the string.
func Parse(prefix, key string) (id, secret string, err error) { return keycore.Parse(prefix, key) }

// Looks reports whether s starts as a key of prefix does: the Middleware
// takes only such bearer tokens for API keys.
func Looks(prefix, s string) bool { return keycore.Looks(prefix, s) }

// Principal is who a request acts for when it carries an API key: which
// key, on whose behalf, in which organization, with which permissions.
type Principal = keycore.Principal

// PermissionsFunc returns the permissions a user holds, in an
// organization when organizationID is not "": what they may put on a key
// or a token, and what a key of theirs may still do. Return an empty set
// (nil) for a user who holds none.
type PermissionsFunc = keycore.PermissionsFunc

// CheckName checks a key's name: 1 to 64 printable characters.
func CheckName(name string) error { return keycore.CheckName(name) }

// Change is what happened to a key, for Event.
type Change = keycore.Change

// The changes an Event tells of.
const (
	Created = keycore.Created
	Rotated = keycore.Rotated
	Revoked = keycore.Revoked
)

// Event tells of a key made, rotated or revoked through the routes
// (gatehouse.Events.APIKey). It never holds the key's secret.
type Event = keycore.Event

// Config configures API keys, which Enable turns on
// (gatehouse.Config.MachineAccess: apikey.Enable(Config{…})). Its zero
// value is usable: keys with the prefix "gh", no permissions on them
// (Permissions nil), the old secret refused at once after a rotation, at
// most DefaultRateLimit requests per key per minute. The Adapter must be
// a Store (the built-in adapters are).
type Config = keycore.Config

// Defaults of Config.
const (
	DefaultRateLimit = keycore.DefaultRateLimit
	DefaultMaxKeys   = keycore.DefaultMaxKeys
)

// ValidPrefix reports whether p can be a Config.Prefix.
func ValidPrefix(p string) bool { return keycore.ValidPrefix(p) }
