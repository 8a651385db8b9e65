package bearer

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

const testAudience = "https://api.example"

// testIssuer plays an authorization server: it publishes a JWKS (counting
// the fetches) and metadata, and signs tokens with go-jose.
type testIssuer struct {
	t       *testing.T
	srv     *httptest.Server
	fetches atomic.Int32

	mu           sync.Mutex
	private      map[string]jose.JSONWebKey // by kid, every key it can sign with
	published    []string                   // kids in the JWKS
	cacheControl string
	jwksBody     []byte // when set, served instead of the keys
	down         bool   // answer 503
}

var (
	keysOnce sync.Once
	testKeys map[string]jose.JSONWebKey
)

// sharedKeys generates the test keys once per test binary (RSA is slow).
func sharedKeys(t testing.TB) map[string]jose.JSONWebKey {
	keysOnce.Do(func() {
		ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		ec2, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		_, ed, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			panic(err)
		}
		rs, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		testKeys = map[string]jose.JSONWebKey{
			"es1":    {Key: ec, KeyID: "es1", Algorithm: "ES256", Use: "sig"},
			"es2":    {Key: ec2, KeyID: "es2", Algorithm: "ES256", Use: "sig"},
			"ed1":    {Key: ed, KeyID: "ed1", Algorithm: "EdDSA", Use: "sig"},
			"rs1":    {Key: rs, KeyID: "rs1", Algorithm: "RS256", Use: "sig"},
			"secret": {Key: ec2, KeyID: "secret", Algorithm: "ES256"}, // never published
		}
	})
	return testKeys
}

func newTestIssuer(t testing.TB) *testIssuer {
	tt, _ := t.(*testing.T)
	is := &testIssuer{t: tt, private: sharedKeys(t), published: []string{"es1", "ed1", "rs1"}}
	mux := http.NewServeMux()
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		is.fetches.Add(1)
		is.mu.Lock()
		defer is.mu.Unlock()
		if is.down {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if is.cacheControl != "" {
			w.Header().Set("Cache-Control", is.cacheControl)
		}
		w.Header().Set("Content-Type", "application/json")
		if is.jwksBody != nil {
			w.Write(is.jwksBody)
			return
		}
		var set jose.JSONWebKeySet
		for _, kid := range is.published {
			k := is.private[kid]
			set.Keys = append(set.Keys, k.Public())
		}
		json.NewEncoder(w).Encode(set)
	})
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": is.srv.URL, "jwks_uri": is.srv.URL + "/jwks"})
	})
	is.srv = httptest.NewServer(mux)
	t.Cleanup(is.srv.Close)
	return is
}

// publish sets the kids the JWKS lists.
func (is *testIssuer) publish(kids ...string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.published = kids
}

// claims are valid access token claims, at now.
func (is *testIssuer) claims(now time.Time) map[string]any {
	return map[string]any{
		"iss":       is.srv.URL,
		"sub":       "user-1",
		"aud":       []string{testAudience},
		"exp":       now.Add(5 * time.Minute).Unix(),
		"iat":       now.Unix(),
		"jti":       rand.Text(),
		"client_id": "service-a",
		"scope":     "project:read project:write",
		"org_id":    "org-7",
	}
}

// sign signs claims with the key kid under header typ.
func (is *testIssuer) sign(t testing.TB, kid, typ string, claims map[string]any) string {
	t.Helper()
	k := is.private[kid]
	opts := &jose.SignerOptions{}
	if typ != "" {
		opts = opts.WithType(jose.ContentType(typ))
	}
	return signJWS(t, jose.SignatureAlgorithm(k.Algorithm), k, opts, claims)
}

// signJWS signs claims as a compact JWS with key under alg and opts.
func signJWS(t testing.TB, alg jose.SignatureAlgorithm, key any, opts *jose.SignerOptions, claims any) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// token is a valid at+jwt signed with kid, with claims changed by edit.
func (is *testIssuer) token(t testing.TB, kid string, now time.Time, edit func(map[string]any)) string {
	c := is.claims(now)
	if edit != nil {
		edit(c)
	}
	return is.sign(t, kid, "at+jwt", c)
}

// clock is a settable time for Config.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Now().Truncate(time.Second)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// verifier returns a Verifier of is with its JWKS URL and clock c; edit
// changes the Config first.
func (is *testIssuer) verifier(t testing.TB, c *clock, edit func(*Config)) *Verifier {
	t.Helper()
	cfg := Config{Issuer: is.srv.URL, Audience: []string{testAudience}, JWKSURL: is.srv.URL + "/jwks", Now: c.Now}
	if edit != nil {
		edit(&cfg)
	}
	v, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// thumbprint is the RFC 7638 thumbprint of k, as cnf.jkt carries it.
func thumbprint(t testing.TB, k jose.JSONWebKey) string {
	pub := k.Public()
	sum, err := pub.Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	return b64(sum)
}
