package bearer

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// Defaults for the zero values of Config.
const (
	// DefaultType is the typ a token must have: RFC 9068 §2.1.
	DefaultType = "at+jwt"
	// DefaultLeeway is the clock skew allowed by default.
	DefaultLeeway = 30 * time.Second
	// DefaultRefetchInterval is the least time between two JWKS fetches
	// for unknown kids.
	DefaultRefetchInterval = 30 * time.Second
	// DefaultMaxResponseBytes caps the issuer's answers.
	DefaultMaxResponseBytes = 256 << 10
	// DefaultCacheSize bounds the verified-token cache.
	DefaultCacheSize = 10000
	// DefaultIntrospectionAge is how long an introspection answer is reused.
	DefaultIntrospectionAge = time.Minute
	// DefaultProofLifetime is how old a DPoP proof may be.
	DefaultProofLifetime = time.Minute
)

// defaultAlgorithms are accepted when Config.Algorithms is empty.
var defaultAlgorithms = []string{"RS256", "PS256", "ES256", "EdDSA"}

// asymmetric lists every algorithm Config.Algorithms may name. HMAC (HS*)
// is absent on purpose: a verifier holding only public keys must never
// treat one as a shared secret (RFC 8725 §2.1, §3.1), and "none" is not a
// signature at all.
var asymmetric = map[string]bool{
	"RS256": true, "RS384": true, "RS512": true,
	"PS256": true, "PS384": true, "PS512": true,
	"ES256": true, "ES384": true, "ES512": true,
	"EdDSA": true,
}

// Config says which tokens a Verifier accepts. Issuer and Audience are
// required; every other zero value is a safe default.
type Config struct {
	// Issuer is the issuer identifier, e.g. "https://auth.example.com":
	// a token's iss must equal it exactly (RFC 9068 §4 step 3). Required.
	Issuer string
	// Audience names this resource server; a token's aud must contain at
	// least one of them (RFC 9068 §4 step 4). Required.
	Audience []string
	// JWKSURL is the issuer's key set. Empty: the jwks_uri of the
	// issuer's metadata, fetched on first use: RFC 8414
	// /.well-known/oauth-authorization-server (before the issuer's path,
	// RFC 8414 §3.1), then OpenID {Issuer}/.well-known/openid-configuration,
	// then {Issuer}/.well-known/oauth-authorization-server (where an issuer
	// with a path, such as Gatehouse under its base path, serves it). The
	// metadata must name Issuer (RFC 8414 §3.3); it is used for its
	// Cache-Control max-age, as the key set is, then fetched again.
	JWKSURL string
	// Algorithms lists the accepted alg values. Empty: RS256, PS256, ES256
	// and EdDSA. Only RSA, RSA-PSS, ECDSA and EdDSA algorithms may be
	// named: RS, PS and ES with 256, 384 or 512, and EdDSA.
	Algorithms []string
	// Type is the typ header a token must carry, compared as a media
	// type (case-insensitive, "application/" optional). Empty: "at+jwt",
	// the RFC 9068 §2.1 type that keeps ID tokens and other JWTs of the
	// same issuer from passing as access tokens.
	Type string
	// AnyType accepts tokens whatever their typ, for issuers that issue
	// access tokens as plain JWTs. Use an Audience such issuers never put
	// in ID tokens (not a client id).
	AnyType bool
	// Leeway is the allowed clock skew for exp, nbf and iat, and for DPoP
	// proofs' iat. Zero: DefaultLeeway; negative: none.
	Leeway time.Duration
	// HTTPClient fetches metadata and keys and calls the introspection
	// endpoint. Nil: a client with a 10 second timeout. Redirects are
	// never followed, whatever the client says.
	HTTPClient *http.Client
	// RefetchInterval is the least time between two key set fetches
	// prompted by a token with an unknown kid, so that a flood of such
	// tokens costs the issuer one request per interval. Zero:
	// DefaultRefetchInterval.
	RefetchInterval time.Duration
	// MaxResponseBytes caps metadata, key set and introspection answers;
	// larger ones are refused. Zero: DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// CacheSize bounds the verified-token cache (entries). Zero:
	// DefaultCacheSize; negative: no cache.
	CacheSize int
	// Introspection, when ClientID is set, sends tokens that are not JWTs
	// to the issuer's RFC 7662 introspection endpoint.
	Introspection Introspection
	// DPoP configures the checks of DPoP proofs for DPoP-bound tokens.
	DPoP DPoP
	// Realm is the realm of WWW-Authenticate challenges. Empty: none.
	Realm string
	// Now returns the current time. Nil: time.Now.
	Now func() time.Time
}

// Introspection configures RFC 7662 token introspection, used for tokens
// that are not JWTs (opaque tokens).
type Introspection struct {
	// Endpoint is the introspection URL. Empty: introspection_endpoint of
	// the issuer's metadata.
	Endpoint string
	// ClientID and ClientSecret authenticate this resource server to the
	// endpoint (HTTP Basic, RFC 6749 §2.3.1). Setting ClientID turns
	// introspection on.
	ClientID, ClientSecret string
	// MaxCacheAge bounds how long an answer is reused; it is never reused
	// past the token's exp either. Zero: DefaultIntrospectionAge;
	// negative: every request is introspected.
	MaxCacheAge time.Duration
}

// DPoP configures the checks of DPoP proofs (RFC 9449) that tokens bound
// to a key (cnf.jkt) must come with.
type DPoP struct {
	// ProofLifetime is how old a proof's iat may be. Zero:
	// DefaultProofLifetime.
	ProofLifetime time.Duration
	// Replay records the proofs seen. Nil: an in-memory log per Verifier
	// (NewMemoryReplayLog(100000)). Give every instance serving the same
	// tokens one shared log (redisreplay.New), or a proof can be replayed
	// on another one.
	Replay ReplayLog
	// BaseURL is the scheme and host (and any path prefix a proxy strips)
	// clients use to reach this server, e.g. "https://api.example.com":
	// a proof's htu must equal it followed by the request path. Empty:
	// the scheme and Host of the request as this server received it.
	BaseURL string
}

// Verifier verifies access tokens of one issuer. It is safe for
// concurrent use; build one per issuer and keep it.
type Verifier struct {
	cfg       Config
	algs      []jose.SignatureAlgorithm
	algNames  string // for the DPoP challenge
	client    *http.Client
	now       func() time.Time
	leeway    time.Duration
	discovery discovery
	keys      *keySet
	cache     *tokenCache
	replay    ReplayLog
}

// New checks cfg and returns a Verifier. It does no I/O: metadata and
// keys are fetched on first use.
func New(cfg Config) (*Verifier, error) {
	if err := checkURL(cfg.Issuer); err != nil {
		return nil, fmt.Errorf("bearer: Config.Issuer: %v", err)
	}
	if len(cfg.Audience) == 0 {
		return nil, errors.New("bearer: Config.Audience: at least one audience is required")
	}
	for _, a := range cfg.Audience {
		if a == "" {
			return nil, errors.New("bearer: Config.Audience: empty audience")
		}
	}
	if cfg.JWKSURL != "" {
		if err := checkURL(cfg.JWKSURL); err != nil {
			return nil, fmt.Errorf("bearer: Config.JWKSURL: %v", err)
		}
	}
	if cfg.Introspection.Endpoint != "" {
		if err := checkURL(cfg.Introspection.Endpoint); err != nil {
			return nil, fmt.Errorf("bearer: Config.Introspection.Endpoint: %v", err)
		}
		if cfg.Introspection.ClientID == "" {
			return nil, errors.New("bearer: Config.Introspection.ClientID: required with an Endpoint")
		}
	}
	if cfg.DPoP.BaseURL != "" {
		if err := checkURL(cfg.DPoP.BaseURL); err != nil {
			return nil, fmt.Errorf("bearer: Config.DPoP.BaseURL: %v", err)
		}
	}
	if strings.ContainsAny(cfg.Realm, "\"\\") || strings.ContainsFunc(cfg.Realm, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, errors.New("bearer: Config.Realm: quotes, backslashes and control characters are not allowed")
	}
	if len(cfg.Algorithms) == 0 {
		cfg.Algorithms = defaultAlgorithms
	}
	v := &Verifier{cfg: cfg, now: cfg.Now, leeway: cfg.Leeway}
	for _, a := range cfg.Algorithms {
		if !asymmetric[a] {
			return nil, fmt.Errorf("bearer: Config.Algorithms: %q is not an accepted asymmetric algorithm", a)
		}
		v.algs = append(v.algs, jose.SignatureAlgorithm(a))
	}
	v.algNames = strings.Join(cfg.Algorithms, " ")
	if v.cfg.Type == "" {
		v.cfg.Type = DefaultType
	}
	if v.leeway == 0 {
		v.leeway = DefaultLeeway
	} else if v.leeway < 0 {
		v.leeway = 0
	}
	if v.now == nil {
		v.now = time.Now
	}
	if v.cfg.RefetchInterval <= 0 {
		v.cfg.RefetchInterval = DefaultRefetchInterval
	}
	if v.cfg.MaxResponseBytes <= 0 {
		v.cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if v.cfg.Introspection.MaxCacheAge == 0 {
		v.cfg.Introspection.MaxCacheAge = DefaultIntrospectionAge
	}
	if v.cfg.DPoP.ProofLifetime <= 0 {
		v.cfg.DPoP.ProofLifetime = DefaultProofLifetime
	}
	v.replay = cfg.DPoP.Replay
	if v.replay == nil {
		log := NewMemoryReplayLog(100000)
		log.now = v.now
		v.replay = log
	}
	client := http.Client{Timeout: 10 * time.Second}
	if cfg.HTTPClient != nil {
		client = *cfg.HTTPClient
	}
	// Never follow redirects: keys and introspection answers come from the
	// configured (or discovered) URL or not at all.
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return ErrRedirect }
	v.client = &client
	v.keys = &keySet{v: v}
	size := v.cfg.CacheSize
	if size == 0 {
		size = DefaultCacheSize
	}
	v.cache = newTokenCache(size)
	return v, nil
}

// checkURL accepts absolute http(s) URLs without a fragment.
func checkURL(s string) error {
	if s == "" {
		return errors.New("required")
	}
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Fragment != "" {
		return fmt.Errorf("%q is not an absolute http(s) URL without fragment", s)
	}
	return nil
}

// Token is a verified access token. Tokens are shared between requests
// (and cached): treat them as read-only.
type Token struct {
	// Issuer is iss, the Config.Issuer (or empty when an introspection
	// answer leaves it out).
	Issuer string
	// Subject is sub: the user, or for a client credentials token the
	// client itself.
	Subject string
	// Audience is aud, one or more values.
	Audience []string
	// ClientID is the client the token was issued to (client_id).
	ClientID string
	// Scopes are the space-separated values of the scope claim; Gatehouse
	// puts the caller's resource:action permissions there.
	Scopes []string
	// Organization is the active organization (org_id), if any.
	Organization string
	// ID is the token identifier (jti).
	ID string
	// IssuedAt is iat; zero when absent.
	IssuedAt time.Time
	// Expiry is exp; zero only for an introspection answer without one.
	Expiry time.Time
	// KeyThumbprint is cnf.jkt, the RFC 7638 thumbprint of the key a
	// DPoP-bound token is bound to; empty for bearer tokens.
	KeyThumbprint string
	// Introspected is true when the issuer's introspection endpoint, not
	// a signature, vouched for the token.
	Introspected bool

	raw []byte
}

// HasScope reports whether the token carries scope.
func (t *Token) HasScope(scope string) bool {
	for _, s := range t.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Claims decodes the token's claims (the JWT payload, or the
// introspection answer) into v; a *json.RawMessage receives them as sent.
func (t *Token) Claims(v any) error {
	return json.Unmarshal(t.raw, v)
}

// Verify verifies token, a JWT (or, with introspection configured, an
// opaque token), and returns what it says. It refuses DPoP-bound tokens
// with ErrDPoPRequired: those need the request their proof was made for
// (VerifyRequest, Middleware).
func (v *Verifier) Verify(ctx context.Context, token string) (*Token, error) {
	t, err := v.verify(ctx, token)
	if err != nil {
		return nil, err
	}
	if t.KeyThumbprint != "" {
		return nil, fmt.Errorf("bearer: %w: the token is bound to a key (cnf.jkt)", ErrDPoPRequired)
	}
	return t, nil
}

// verify checks token, through the cache. The cache is keyed on a hash of
// the exact token, so a token differing in one byte is verified afresh.
func (v *Verifier) verify(ctx context.Context, token string) (*Token, error) {
	now := v.now()
	sum := sha256.Sum256([]byte(token))
	if t := v.cache.get(sum, now, v.keys); t != nil {
		return t, nil
	}
	var (
		t      *Token
		k      *key
		err    error
		maxAge time.Duration // zero: until the token's exp
	)
	if strings.Count(token, ".") != 2 && v.cfg.Introspection.ClientID != "" {
		t, err = v.introspect(ctx, token, now)
		maxAge = v.cfg.Introspection.MaxCacheAge
	} else {
		t, k, err = v.verifyJWT(ctx, token, now)
	}
	if err != nil {
		return nil, err
	}
	until := t.Expiry
	if maxAge > 0 && (until.IsZero() || now.Add(maxAge).Before(until)) {
		until = now.Add(maxAge)
	}
	if maxAge >= 0 && until.After(now) {
		v.cache.put(sum, t, k, until, now)
	}
	return t, nil
}

// verifyJWT follows RFC 9068 §4: the cheap checks of header and claims
// first, the signature last, so that a token known to be bad never
// prompts a key set fetch.
func (v *Verifier) verifyJWT(ctx context.Context, token string, now time.Time) (*Token, *key, error) {
	jws, err := jose.ParseSignedCompact(token, v.algs)
	if err != nil {
		var alg *jose.ErrUnexpectedSignatureAlgorithm
		if errors.As(err, &alg) {
			return nil, nil, fmt.Errorf("bearer: %w: %q", ErrAlgorithm, alg.Got)
		}
		return nil, nil, fmt.Errorf("bearer: %w: %v", ErrMalformed, err)
	}
	if len(jws.Signatures) != 1 {
		return nil, nil, fmt.Errorf("bearer: %w: %d signatures", ErrMalformed, len(jws.Signatures))
	}
	header := jws.Signatures[0].Protected
	if !v.cfg.AnyType {
		typ, _ := header.ExtraHeaders[jose.HeaderType].(string)
		if !sameType(typ, v.cfg.Type) {
			return nil, nil, fmt.Errorf("bearer: %w: typ %q", ErrType, typ)
		}
	}
	var c claims
	if err := json.Unmarshal(jws.UnsafePayloadWithoutVerification(), &c); err != nil {
		return nil, nil, fmt.Errorf("bearer: %w: claims: %v", ErrMalformed, err)
	}
	if err := v.checkClaims(&c, now, true); err != nil {
		return nil, nil, err
	}
	keys, err := v.keys.find(ctx, header.KeyID, header.Algorithm, now)
	if err != nil {
		return nil, nil, err
	}
	for _, k := range keys {
		payload, err := jws.Verify(k.jwk.Key)
		if err == nil {
			t := c.token(payload)
			return t, k, nil
		}
	}
	return nil, nil, fmt.Errorf("bearer: %w (kid %q)", ErrSignature, header.KeyID)
}

// sameType compares typ values as media types: case-insensitively, with
// the "application/" prefix optional (RFC 7515 §4.1.9, RFC 9068 §4).
func sameType(got, want string) bool {
	got = strings.ToLower(got)
	want = strings.ToLower(want)
	return strings.TrimPrefix(got, "application/") == strings.TrimPrefix(want, "application/")
}
