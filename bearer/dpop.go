package bearer

import (
	"context"
	"crypto"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// checkProof checks the DPoP proof that came with a token bound to the key
// whose thumbprint is jkt, following RFC 9449 §4.3 and §7.1. Server
// nonces (§8) are not used: freshness rests on iat and the replay log.
func (v *Verifier) checkProof(ctx context.Context, proof string, r *http.Request, token, jkt string) error {
	// Steps 2, 5: one well-formed JWS with an accepted asymmetric alg.
	jws, err := jose.ParseSignedCompact(proof, v.algs)
	if err != nil || len(jws.Signatures) != 1 {
		return fmt.Errorf("bearer: %w: %v", ErrDPoPProof, err)
	}
	header := jws.Signatures[0].Protected
	// Step 4: typ dpop+jwt, so that no other JWT passes as a proof.
	if typ, _ := header.ExtraHeaders[jose.HeaderType].(string); !sameType(typ, "dpop+jwt") {
		return fmt.Errorf("bearer: %w: typ %q", ErrDPoPProof, typ)
	}
	// Step 7: the header's jwk is a public key.
	jwk := header.JSONWebKey
	if jwk == nil || !jwk.IsPublic() || !fits(jwk.Key, header.Algorithm) {
		return fmt.Errorf("bearer: %w: no usable public jwk", ErrDPoPProof)
	}
	// §7.1: the proof's key is the one the token is bound to. Checked
	// before the signature: a proof by any other key is worthless anyway.
	thumb, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil || base64.RawURLEncoding.EncodeToString(thumb) != jkt {
		return fmt.Errorf("bearer: %w: signed by a key other than the token's cnf.jkt", ErrDPoPProof)
	}
	// Step 6: the signature, by that key.
	payload, err := jws.Verify(jwk.Key)
	if err != nil {
		return fmt.Errorf("bearer: %w: %v", ErrDPoPProof, err)
	}
	var c struct {
		Jti string       `json:"jti"`
		Htm string       `json:"htm"`
		Htu string       `json:"htu"`
		Iat *numericDate `json:"iat"`
		Ath string       `json:"ath"`
	}
	// Step 3: the claims are all there.
	if err := json.Unmarshal(payload, &c); err != nil || c.Jti == "" || c.Htm == "" || c.Htu == "" || c.Iat == nil || c.Ath == "" {
		return fmt.Errorf("bearer: %w: missing or malformed claims", ErrDPoPProof)
	}
	// Step 8: htm is the request's method.
	if c.Htm != r.Method {
		return fmt.Errorf("bearer: %w: htm %q, request %s", ErrDPoPMismatch, c.Htm, r.Method)
	}
	// Step 9: htu is the request's URL, without query and fragment.
	if !sameURL(c.Htu, v.requestURL(r)) {
		return fmt.Errorf("bearer: %w: htu %q", ErrDPoPMismatch, c.Htu)
	}
	// Step 12: ath is the hash of this very access token.
	sum := sha256.Sum256([]byte(token))
	if c.Ath != base64.RawURLEncoding.EncodeToString(sum[:]) {
		return fmt.Errorf("bearer: %w: ath is for another access token", ErrDPoPMismatch)
	}
	// Step 11: iat is recent, and not in the future beyond the leeway.
	now := v.now()
	iat := c.Iat.time()
	if iat.Before(now.Add(-v.cfg.DPoP.ProofLifetime-v.leeway)) || iat.After(now.Add(v.leeway)) {
		return fmt.Errorf("bearer: %w: iat %s out of the accepted window", ErrDPoPProof, iat.UTC().Format(time.RFC3339))
	}
	// §11.1: a proof is used once. Recorded last, so that a bad proof does
	// not use up its jti; kept for as long as its iat would pass.
	id := sha256.Sum256([]byte(jkt + "\x00" + c.Jti))
	fresh, err := v.replay.Use(ctx, base64.RawURLEncoding.EncodeToString(id[:]), iat.Add(v.cfg.DPoP.ProofLifetime+v.leeway))
	if err != nil {
		return fmt.Errorf("bearer: %w: replay log: %w", ErrUnavailable, err)
	}
	if !fresh {
		return fmt.Errorf("bearer: %w: jti already used", ErrDPoPReplay)
	}
	return nil
}

// requestURL is the URL the client addressed: Config.DPoP.BaseURL, or the
// request's scheme and Host, followed by the path the server received
// (before any http.StripPrefix).
func (v *Verifier) requestURL(r *http.Request) string {
	path := r.URL.Path
	if r.RequestURI != "" {
		if u, err := url.ParseRequestURI(r.RequestURI); err == nil && u.Host == "" {
			path = u.Path
		}
	}
	if v.cfg.DPoP.BaseURL != "" {
		return strings.TrimSuffix(v.cfg.DPoP.BaseURL, "/") + path
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + path
}

// sameURL compares URLs as RFC 9449 §4.3 step 9 asks: without query and
// fragment, after RFC 3986 §6.2.2/§6.2.3 normalisation (case of scheme
// and host, default ports, empty path).
func sameURL(a, b string) bool {
	ua, err := url.Parse(a)
	if err != nil {
		return false
	}
	ub, err := url.Parse(b)
	if err != nil {
		return false
	}
	norm := func(u *url.URL) string {
		scheme := strings.ToLower(u.Scheme)
		host := strings.ToLower(u.Hostname())
		port := u.Port()
		if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
			port = ""
		}
		path := u.Path
		if path == "" {
			path = "/"
		}
		return scheme + "://" + host + ":" + port + path
	}
	return ua.Host != "" && norm(ua) == norm(ub)
}

// ReplayLog records DPoP proof identifiers so that each proof is accepted
// once. Give every instance of a service one shared log (package
// bearer/redisreplay keeps one in Redis), or a proof refused by one
// instance may be accepted by another.
type ReplayLog interface {
	// Use records id until expiry. It reports false, without error, when
	// id is already recorded and has not expired.
	Use(ctx context.Context, id string, expiry time.Time) (fresh bool, err error)
}

// ErrReplayLogFull is returned by a MemoryReplayLog that holds its maximum
// of unexpired proofs: refusing a proof is safer than forgetting one.
var ErrReplayLogFull = errors.New("bearer: DPoP replay log full")

// MemoryReplayLog is a ReplayLog in memory, bounded in entries: the default
// for one instance.
type MemoryReplayLog struct {
	mu    sync.Mutex
	max   int
	now   func() time.Time
	seen  map[string]time.Time
	order []string // ids in insertion order, to drop expired ones
}

// NewMemoryReplayLog returns a log of at most max unexpired proofs.
func NewMemoryReplayLog(max int) *MemoryReplayLog {
	return &MemoryReplayLog{max: max, now: time.Now, seen: map[string]time.Time{}}
}

// Use implements ReplayLog.
func (l *MemoryReplayLog) Use(_ context.Context, id string, expiry time.Time) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if exp, ok := l.seen[id]; ok && now.Before(exp) {
		return false, nil
	}
	// Drop expired entries from the front; the order is by insertion, so
	// an entry may wait behind a longer-lived one, never past the bound.
	for len(l.order) > 0 {
		exp, ok := l.seen[l.order[0]]
		if ok && now.Before(exp) {
			break
		}
		delete(l.seen, l.order[0])
		l.order = l.order[1:]
	}
	if len(l.seen) >= l.max {
		return false, ErrReplayLogFull
	}
	if _, ok := l.seen[id]; !ok {
		l.order = append(l.order, id)
	}
	l.seen[id] = expiry
	return true, nil
}
