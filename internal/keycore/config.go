package keycore

import (
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/ident"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// Config configures API keys, which Enable turns on
// (gatehouse.Config.MachineAccess: apikey.Enable(Config{…})). Its zero
// value is usable: keys with the prefix "gh", no permissions on them
// (Permissions nil), the old secret refused at once after a rotation, at
// most DefaultRateLimit requests per key per minute. The Adapter must be
// a Store (the built-in adapters are).
type Config struct {
	// Prefix starts every key, before its first "_": a-z and 0-9, 1 to
	// 16 characters. Default: DefaultPrefix.
	Prefix string
	// Header, when set, is a header that carries a key as it is (such as
	// "X-API-Key"), besides "Authorization: Bearer <key>".
	Header string
	// Permissions returns what a user holds (see PermissionsFunc). A key
	// is made with no more than it returns (permission.Grant), and at
	// each use a key keeps only the permissions its user still holds.
	// Nil: users hold none, and keys carry none (they still say who they
	// act for). It is called once per request that carries a key: make
	// it fast. For an organization the user is not a member of it must
	// answer an empty set: a key (or token) is made for an organization
	// only when its user holds something there, and a key of an
	// organization whose user holds nothing there any more is refused.
	Permissions PermissionsFunc
	// MaxLifetime caps the expiry a key can be made with; a key asked
	// for without one gets it. Zero: keys may live until revoked.
	MaxLifetime time.Duration
	// RotationOverlap is how long the old secret keeps working after a
	// rotation, so that a program can be given the new one first. Zero:
	// the old secret stops at once.
	RotationOverlap time.Duration
	// RateLimit limits requests per key. Nil: DefaultRateLimit per
	// minute per key, kept by gatehouse.Config.Limits (share it with
	// redislimit across instances).
	RateLimit limit.Limiter
	// MaxKeys bounds the live keys (not revoked, not expired) a user can
	// hold: DefaultMaxKeys when zero.
	MaxKeys int
	// ActiveOrganization returns the organization a request's session
	// acts in, for the org_id of the tokens issued to it (a key's tokens
	// carry the key's organization). Nil, or "": none. The user's
	// permissions for such a token are Permissions(user, organization).
	ActiveOrganization func(r *http.Request) string
	// Tokens, when not nil, turns on {base}/token and {base}/jwks:
	// short-lived signed access tokens for other services.
	Tokens *servicetoken.Config
}

// Defaults of Config.
const (
	DefaultRateLimit = 600
	DefaultMaxKeys   = 50
)

// ValidPrefix reports whether p can be a Config.Prefix.
func ValidPrefix(p string) bool { return ident.Valid(p, 16, "") }
