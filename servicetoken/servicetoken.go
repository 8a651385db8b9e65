// Package servicetoken issues short-lived access tokens that other
// services verify on their own, with the public keys the issuer publishes
// (a JWK Set): JWTs in the profile of RFC 9068 ("JSON Web Token Profile
// for OAuth 2.0 Access Tokens"), typ "at+jwt", signed with EdDSA
// (Ed25519) or ES256.
//
// The signing keys live in the store every instance shares (KeyStore,
// implemented by the built-in adapters), the private half sealed with the
// app's secret. A Signer makes the first key, the next one before the
// current one's time is up (published Overlap before it signs, so that
// verifiers that cached the key set have it by then), and keeps
// publishing an old key until the last token it signed has expired. Two
// instances that decide at once to make the next key make one: the store
// keeps one key per generation.
//
// The handler serves it as POST {base}/token and GET {base}/jwks
// (gatehouse.Config.MachineAccess), and describes both in authorization
// server metadata (RFC 8414, Metadata) at GET
// {base}/.well-known/oauth-authorization-server. RFC 8414 §3.1 puts the
// metadata of an issuer with a path outside that path: mount
// NewMetadata(issuer) at MetadataPath(issuer) on the application's mux.
package servicetoken

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Algorithms a Config may name.
const (
	EdDSA = "EdDSA" // Ed25519 (RFC 8037): the default
	ES256 = "ES256" // ECDSA P-256 with SHA-256 (RFC 7518 §3.4)
)

// Defaults of Config.
const (
	DefaultLifetime = 5 * time.Minute
	DefaultRotation = 24 * time.Hour
	DefaultOverlap  = time.Hour
	// DefaultClientID is the client_id of tokens issued to sessions.
	DefaultClientID = "gatehouse"
)

// Config configures the tokens. Audiences is required; every other zero
// value is a default.
type Config struct {
	// Audiences are the services tokens may be issued for (their aud).
	// A request names one; the first is the default.
	Audiences []string
	// Algorithm signs: EdDSA (default) or ES256.
	Algorithm string
	// Lifetime of a token: DefaultLifetime (5 minutes).
	Lifetime time.Duration
	// Rotation is how long one key signs: DefaultRotation (a day).
	Rotation time.Duration
	// Overlap is how long a new key is published before it signs:
	// DefaultOverlap. The key set is served with a max-age of a quarter
	// of it, so that a verifier's cached copy has the key in time.
	Overlap time.Duration
	// ClientID is the client_id of tokens issued to a session (a key's
	// token carries the key's id): DefaultClientID.
	ClientID string
}

// Normalize checks c and fills its defaults.
func (c Config) Normalize() (Config, error) {
	if len(c.Audiences) == 0 {
		return c, errors.New("servicetoken: Audiences: name at least one service")
	}
	for _, a := range c.Audiences {
		if a == "" {
			return c, errors.New("servicetoken: Audiences: an audience is empty")
		}
	}
	switch c.Algorithm {
	case "":
		c.Algorithm = EdDSA
	case EdDSA, ES256:
	default:
		return c, fmt.Errorf("servicetoken: Algorithm %q: want EdDSA or ES256", c.Algorithm)
	}
	if c.Lifetime <= 0 {
		c.Lifetime = DefaultLifetime
	}
	if c.Rotation <= 0 {
		c.Rotation = DefaultRotation
	}
	if c.Overlap <= 0 {
		c.Overlap = DefaultOverlap
	}
	if c.Overlap >= c.Rotation || c.Lifetime > c.Rotation {
		return c, errors.New("servicetoken: Overlap and Lifetime must be shorter than Rotation")
	}
	if c.ClientID == "" {
		c.ClientID = DefaultClientID
	}
	return c, nil
}

// MaxAge is how long a verifier may cache the key set: a quarter of
// Overlap.
func (c Config) MaxAge() time.Duration { return c.Overlap / 4 }

// SigningKey is a stored signing key. Generation orders the keys and is
// unique: the store keeps one key per generation. The key signs from
// NotBefore until the next generation's NotBefore.
type SigningKey struct {
	ID         string // the kid: the RFC 7638 thumbprint of the public key
	Generation int64
	Algorithm  string
	// Sealed is the private JWK sealed with the app's secret (never the
	// key in clear); Public the public JWK, as JSON.
	Sealed    string
	Public    string
	NotBefore time.Time
	CreatedAt time.Time
}

// KeyStore keeps the signing keys every instance shares. The built-in
// adapters implement it (ask adapter.Supports[servicetoken.KeyStore]).
type KeyStore interface {
	// SigningKeys returns every stored key, by generation.
	SigningKeys(ctx context.Context) ([]SigningKey, error)
	// AddSigningKey stores k unless a key of its generation exists, and
	// reports whether it stored it: of two instances that add the same
	// generation at once, one does.
	AddSigningKey(ctx context.Context, k SigningKey) (bool, error)
	// DeleteSigningKeys removes the keys of generations below generation.
	DeleteSigningKeys(ctx context.Context, below int64) error
}
