package bearer

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

func TestVerifyGoodToken(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	v := is.verifier(t, c, nil)
	for _, kid := range []string{"es1", "ed1", "rs1"} {
		tok, err := v.Verify(context.Background(), is.token(t, kid, c.Now(), nil))
		if err != nil {
			t.Fatalf("%s: %v", kid, err)
		}
		if tok.Subject != "user-1" || tok.ClientID != "service-a" || tok.Organization != "org-7" ||
			!tok.HasScope("project:write") || tok.HasScope("project:delete") || tok.Issuer != is.srv.URL ||
			!tok.Expiry.Equal(c.Now().Add(5*time.Minute)) || tok.Introspected {
			t.Fatalf("%s: token %+v", kid, tok)
		}
		var raw json.RawMessage
		if err := tok.Claims(&raw); err != nil || !strings.Contains(string(raw), `"org_id":"org-7"`) {
			t.Fatalf("%s: raw claims %s, %v", kid, raw, err)
		}
	}
	if n := is.fetches.Load(); n != 1 {
		t.Fatalf("%d JWKS fetches for three tokens, want 1", n)
	}
}

// TestHostileTokens: each forged or misdirected token is refused with the
// error naming what is wrong with it.
func TestHostileTokens(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	now := c.Now()
	header := func(h string) string { return b64([]byte(h)) }
	payload, _ := json.Marshal(is.claims(now))

	// HS256 keyed with the RSA public key, the classic confusion attack:
	// a verifier that takes the alg from the token would check it with
	// the public key it holds as an HMAC secret.
	rsaKey := is.private["rs1"]
	rsaPub := rsaKey.Public()
	der, err := x509.MarshalPKIXPublicKey(rsaPub.Key)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	hs256 := signJWS(t, jose.HS256, pemKey, (&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", "rs1"), is.claims(now))

	// A valid ES256 signature under a header that has been swapped.
	good := is.token(t, "es1", now, nil)
	parts := strings.Split(good, ".")

	cases := []struct {
		name  string
		token string
		want  error
	}{
		{"alg none", header(`{"alg":"none","typ":"at+jwt","kid":"es1"}`) + "." + b64(payload) + ".", ErrAlgorithm},
		{"HS256 with the RSA public key", hs256, ErrAlgorithm},
		{"ID token typ", is.sign(t, "es1", "JWT", is.claims(now)), ErrType},
		{"no typ", is.sign(t, "es1", "", is.claims(now)), ErrType},
		{"expired", is.token(t, "es1", now, func(m map[string]any) { m["exp"] = now.Add(-time.Minute).Unix() }), ErrExpired},
		{"no exp", is.token(t, "es1", now, func(m map[string]any) { delete(m, "exp") }), ErrExpired},
		{"nbf in the future", is.token(t, "es1", now, func(m map[string]any) { m["nbf"] = now.Add(2 * time.Minute).Unix() }), ErrNotYetValid},
		{"iat in the future", is.token(t, "es1", now, func(m map[string]any) { m["iat"] = now.Add(2 * time.Minute).Unix() }), ErrNotYetValid},
		{"wrong audience", is.token(t, "es1", now, func(m map[string]any) { m["aud"] = "https://other.example" }), ErrAudience},
		{"no audience", is.token(t, "es1", now, func(m map[string]any) { delete(m, "aud") }), ErrAudience},
		{"wrong issuer", is.token(t, "es1", now, func(m map[string]any) { m["iss"] = "https://evil.example" }), ErrIssuer},
		{"unpublished key", is.token(t, "secret", now, nil), ErrUnknownKey},
		{"other key under a published kid", forgeKid(t, is, "es1", now), ErrSignature},
		{"header swapped", header(`{"alg":"ES256","typ":"at+jwt","kid":"es1","x":1}`) + "." + parts[1] + "." + parts[2], ErrSignature},
		{"payload swapped", parts[0] + "." + b64([]byte(`{"iss":"`+is.srv.URL+`","aud":"`+testAudience+`","exp":9999999999,"sub":"admin"}`)) + "." + parts[2], ErrSignature},
		{"certificate-bound", is.token(t, "es1", now, func(m map[string]any) {
			m["cnf"] = map[string]string{"x5t#S256": "bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2"}
		}), ErrBinding},
		{"cnf.jkt not a string", is.token(t, "es1", now, func(m map[string]any) { m["cnf"] = map[string]any{"jkt": 1} }), ErrBinding},
		{"not a JWT", "opaque-token", ErrMalformed},
		{"JSON serialization", `{"payload":"e30","signatures":[]}`, ErrMalformed},
	}
	v := is.verifier(t, c, nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v.Verify(context.Background(), tc.token)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	// The same kinds of error within the leeway pass, beyond it fail.
	lenient := is.verifier(t, c, func(cfg *Config) { cfg.Leeway = 5 * time.Minute })
	if _, err := lenient.Verify(context.Background(), cases[6].token); err != nil {
		t.Fatalf("nbf two minutes ahead with five minutes of leeway: %v", err)
	}
	strict := is.verifier(t, c, func(cfg *Config) { cfg.Leeway = -1 })
	late := is.token(t, "es1", now, func(m map[string]any) { m["exp"] = now.Add(-time.Second).Unix() })
	if _, err := strict.Verify(context.Background(), late); !errors.Is(err, ErrExpired) {
		t.Fatalf("expired a second ago without leeway: %v", err)
	}
	if _, err := v.Verify(context.Background(), late); err != nil {
		t.Fatalf("expired a second ago with the default leeway: %v", err)
	}
}

// forgeKid signs valid claims with the unpublished key but names the
// published kid.
func forgeKid(t *testing.T, is *testIssuer, kid string, now time.Time) string {
	k := is.private["secret"]
	k.KeyID = kid
	return signJWS(t, jose.ES256, k, (&jose.SignerOptions{}).WithType("at+jwt"), is.claims(now))
}

func TestAnyTypeAndAlgorithms(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	plain := is.sign(t, "es1", "JWT", is.claims(c.Now()))
	if _, err := is.verifier(t, c, func(cfg *Config) { cfg.AnyType = true }).Verify(context.Background(), plain); err != nil {
		t.Fatalf("AnyType refused a typ JWT token: %v", err)
	}
	appType := is.sign(t, "es1", "application/AT+JWT", is.claims(c.Now()))
	if _, err := is.verifier(t, c, nil).Verify(context.Background(), appType); err != nil {
		t.Fatalf("application/AT+JWT is at+jwt (RFC 9068 §4): %v", err)
	}
	onlyEd := is.verifier(t, c, func(cfg *Config) { cfg.Algorithms = []string{"EdDSA"} })
	if _, err := onlyEd.Verify(context.Background(), is.token(t, "es1", c.Now(), nil)); !errors.Is(err, ErrAlgorithm) {
		t.Fatalf("ES256 token with Algorithms EdDSA: %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	good := Config{Issuer: "https://auth.example", Audience: []string{"api"}}
	cases := []struct {
		field string
		edit  func(*Config)
	}{
		{"Config.Issuer", func(c *Config) { c.Issuer = "" }},
		{"Config.Issuer", func(c *Config) { c.Issuer = "auth.example" }},
		{"Config.Audience", func(c *Config) { c.Audience = nil }},
		{"Config.Audience", func(c *Config) { c.Audience = []string{""} }},
		{"Config.JWKSURL", func(c *Config) { c.JWKSURL = "file:///etc/keys" }},
		{"Config.Algorithms", func(c *Config) { c.Algorithms = []string{"HS256"} }},
		{"Config.Algorithms", func(c *Config) { c.Algorithms = []string{"none"} }},
		{"Config.Introspection.ClientID", func(c *Config) { c.Introspection.Endpoint = "https://auth.example/introspect" }},
		{"Config.Introspection.Endpoint", func(c *Config) { c.Introspection.Endpoint = "/introspect"; c.Introspection.ClientID = "x" }},
		{"Config.DPoP.BaseURL", func(c *Config) { c.DPoP.BaseURL = "api.example" }},
		{"Config.Realm", func(c *Config) { c.Realm = `a"b` }},
	}
	for _, tc := range cases {
		cfg := good
		tc.edit(&cfg)
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), tc.field+":") {
			t.Errorf("%s: got %v", tc.field, err)
		}
	}
	if _, err := New(good); err != nil {
		t.Fatal(err)
	}
}

// TestUnknownKidFlood: tokens naming ever new kids cost the issuer one
// JWKS fetch per RefetchInterval, not one per token.
func TestUnknownKidFlood(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	v := is.verifier(t, c, func(cfg *Config) { cfg.RefetchInterval = time.Minute })
	if _, err := v.Verify(context.Background(), is.token(t, "es1", c.Now(), nil)); err != nil {
		t.Fatal(err)
	}
	k := is.private["secret"]
	for i := range 200 {
		k.KeyID = fmt.Sprintf("kid-%d", i)
		tok := signJWS(t, jose.ES256, k, (&jose.SignerOptions{}).WithType("at+jwt"), is.claims(c.Now()))
		if _, err := v.Verify(context.Background(), tok); !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("token %d: %v", i, err)
		}
		if i == 99 {
			// The set was fetched for the first token: no refetch yet.
			if n := is.fetches.Load(); n != 1 {
				t.Fatalf("%d JWKS fetches within the interval, want 1", n)
			}
			c.advance(time.Minute) // one more refetch allowed
		}
	}
	if n := is.fetches.Load(); n != 2 {
		t.Fatalf("%d JWKS fetches, want 2", n)
	}
}

// TestConcurrentColdStart: requests arriving together before the JWKS is
// known wait for one fetch.
func TestConcurrentColdStart(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	v := is.verifier(t, c, func(cfg *Config) { cfg.RefetchInterval = time.Nanosecond })
	tokens := make([]string, 32)
	for i := range tokens {
		tokens[i] = is.token(t, "ed1", c.Now(), nil)
	}
	errs := make(chan error, len(tokens))
	for _, tok := range tokens {
		go func() {
			_, err := v.Verify(context.Background(), tok)
			errs <- err
		}()
	}
	for range tokens {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if n := is.fetches.Load(); n != 1 {
		t.Fatalf("%d JWKS fetches, want 1", n)
	}
}

// TestKeyRotation: a new key is picked up by a refetch on its unknown kid;
// a key removed from the JWKS stops verifying, cached tokens included,
// once the set is refetched.
func TestKeyRotation(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	v := is.verifier(t, c, func(cfg *Config) { cfg.RefetchInterval = time.Second })
	old := is.token(t, "es1", c.Now(), nil)
	if _, err := v.Verify(context.Background(), old); err != nil {
		t.Fatal(err)
	}
	is.publish("es2", "ed1")
	c.advance(2 * time.Second)
	// Still cached, and the set not refetched yet: served.
	if _, err := v.Verify(context.Background(), old); err != nil {
		t.Fatalf("cached token before any refetch: %v", err)
	}
	// A token under the new key prompts the refetch...
	if _, err := v.Verify(context.Background(), is.token(t, "es2", c.Now(), nil)); err != nil {
		t.Fatalf("token under the new key: %v", err)
	}
	// ...after which the old key's token, cached or not, is refused.
	if _, err := v.Verify(context.Background(), old); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("cached token of a removed key: %v", err)
	}
	if _, err := v.Verify(context.Background(), is.token(t, "es1", c.Now(), nil)); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("fresh token of a removed key: %v", err)
	}
	// A key still published keeps its cached tokens across refetches.
	ed := is.token(t, "ed1", c.Now(), nil)
	if _, err := v.Verify(context.Background(), ed); err != nil {
		t.Fatal(err)
	}
	before := is.fetches.Load()
	c.advance(2 * time.Second)
	v.Verify(context.Background(), is.token(t, "secret", c.Now(), nil)) // prompts a refetch
	if is.fetches.Load() != before+1 {
		t.Fatalf("no refetch")
	}
	if _, err := v.Verify(context.Background(), ed); err != nil {
		t.Fatalf("token of a kept key after a refetch: %v", err)
	}
}

// TestCacheControl: the JWKS is reused for its max-age, clamped to
// [minKeyAge, maxKeyAge], and refetched after.
func TestCacheControl(t *testing.T) {
	t.Parallel()
	cases := []struct {
		header      string
		reused, not time.Duration // still cached after reused; refetched after not
	}{
		{"public, max-age=300", 290 * time.Second, 310 * time.Second},
		{"max-age=1", 50 * time.Second, minKeyAge + time.Second},
		{"max-age=99999999", 23 * time.Hour, maxKeyAge + time.Second},
		{"", defaultKeyAge - time.Second, defaultKeyAge + time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.header, func(t *testing.T) {
			is := newTestIssuer(t)
			is.cacheControl = tc.header
			c := newClock()
			start := c.Now()
			v := is.verifier(t, c, nil)
			verifyAt := func(at time.Duration) {
				c.mu.Lock()
				c.now = start.Add(at)
				c.mu.Unlock()
				tok := is.token(t, "es1", c.Now(), nil)
				if _, err := v.Verify(context.Background(), tok); err != nil {
					t.Fatal(err)
				}
			}
			verifyAt(0)
			verifyAt(tc.reused)
			if n := is.fetches.Load(); n != 1 {
				t.Fatalf("%d fetches within the max-age, want 1", n)
			}
			verifyAt(tc.not)
			if n := is.fetches.Load(); n != 2 {
				t.Fatalf("%d fetches after the max-age, want 2", n)
			}
		})
	}
}

// TestOversizedJWKS: an answer over MaxResponseBytes is refused, whether it
// declares its length or streams.
func TestOversizedJWKS(t *testing.T) {
	t.Parallel()
	big := `{"keys":[],"pad":"` + strings.Repeat("x", 2000) + `"}`
	for _, chunked := range []bool{false, true} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if chunked {
				w.Write([]byte(big[:10]))
				w.(http.Flusher).Flush()
				w.Write([]byte(big[10:]))
				return
			}
			w.Header().Set("Content-Length", fmt.Sprint(len(big)))
			w.Write([]byte(big))
		}))
		t.Cleanup(srv.Close)
		is := newTestIssuer(t)
		c := newClock()
		v := is.verifier(t, c, func(cfg *Config) { cfg.JWKSURL = srv.URL; cfg.MaxResponseBytes = 1000 })
		_, err := v.Verify(context.Background(), is.token(t, "es1", c.Now(), nil))
		if !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrUnavailable) {
			t.Fatalf("chunked %v: %v", chunked, err)
		}
		// Within the limit the same server is fine.
		v = is.verifier(t, c, func(cfg *Config) { cfg.JWKSURL = srv.URL; cfg.MaxResponseBytes = 4000 })
		if _, err := v.Verify(context.Background(), is.token(t, "es1", c.Now(), nil)); !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("chunked %v, within the limit: %v", chunked, err)
		}
	}
}

// TestJWKSRedirectRefused: a JWKS URL answering with a redirect to another
// host is not followed: its keys must not become the issuer's.
func TestJWKSRedirectRefused(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)   // its keys sign the token
	evil := newTestIssuer(t) // serves the same keys: following would pass
	redirector := httptest.NewServer(http.RedirectHandler(evil.srv.URL+"/jwks", http.StatusFound))
	t.Cleanup(redirector.Close)
	c := newClock()
	v := is.verifier(t, c, func(cfg *Config) { cfg.JWKSURL = redirector.URL })
	_, err := v.Verify(context.Background(), is.token(t, "es1", c.Now(), nil))
	if !errors.Is(err, ErrRedirect) || !errors.Is(err, ErrUnavailable) {
		t.Fatalf("got %v", err)
	}
	if n := evil.fetches.Load(); n != 0 {
		t.Fatalf("the redirect target was fetched %d times", n)
	}
}

// TestDiscovery: without a JWKSURL the keys come from the issuer's
// metadata, which must name the issuer itself.
func TestDiscovery(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	v := is.verifier(t, c, func(cfg *Config) { cfg.JWKSURL = "" })
	if _, err := v.Verify(context.Background(), is.token(t, "ed1", c.Now(), nil)); err != nil {
		t.Fatal(err)
	}
	// An issuer with a path: RFC 8414 §3.1 puts the well-known segment
	// before the path.
	var tenant *httptest.Server
	tenant = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/oauth-authorization-server/tenant/1" {
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(map[string]string{"issuer": tenant.URL + "/tenant/1", "jwks_uri": is.srv.URL + "/jwks"})
	}))
	t.Cleanup(tenant.Close)
	v = is.verifier(t, c, func(cfg *Config) { cfg.JWKSURL = ""; cfg.Issuer = tenant.URL + "/tenant/1" })
	tok := is.token(t, "ed1", c.Now(), func(m map[string]any) { m["iss"] = tenant.URL + "/tenant/1" })
	if _, err := v.Verify(context.Background(), tok); err != nil {
		t.Fatalf("RFC 8414 metadata of an issuer with a path: %v", err)
	}

	// Metadata naming another issuer is refused.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": is.srv.URL, "jwks_uri": is.srv.URL + "/jwks"})
	}))
	t.Cleanup(other.Close)
	v, err := New(Config{Issuer: other.URL, Audience: []string{testAudience}, Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	tok = is.token(t, "ed1", c.Now(), func(m map[string]any) { m["iss"] = other.URL })
	if _, err := v.Verify(context.Background(), tok); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "is for issuer") {
		t.Fatalf("metadata for another issuer: %v", err)
	}
}

// TestDiscoveryRefetch: metadata served under the issuer's own path is
// found; it is used for its max-age, then fetched again when the key set
// is, and a new jwks_uri is followed; when the metadata cannot be fetched
// again, the endpoints held keep working.
func TestDiscoveryRefetch(t *testing.T) {
	t.Parallel()
	first, second := newTestIssuer(t), newTestIssuer(t)
	second.publish("es2")
	var (
		mu       sync.Mutex
		jwksURI  = first.srv.URL + "/jwks"
		down     bool
		fetches  int
		metadata *httptest.Server
	)
	metadata = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/tenant/.well-known/oauth-authorization-server" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		fetches++
		if down {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Cache-Control", "max-age=60")
		json.NewEncoder(w).Encode(map[string]string{"issuer": metadata.URL + "/tenant", "jwks_uri": jwksURI})
	}))
	t.Cleanup(metadata.Close)
	issuer := metadata.URL + "/tenant"
	c := newClock()
	v := first.verifier(t, c, func(cfg *Config) { cfg.JWKSURL = ""; cfg.Issuer = issuer })
	token := func(kid string) string {
		return first.token(t, kid, c.Now(), func(m map[string]any) { m["iss"] = issuer })
	}
	metadataFetches := func() int {
		mu.Lock()
		defer mu.Unlock()
		return fetches
	}
	if _, err := v.Verify(context.Background(), token("es1")); err != nil || metadataFetches() != 1 {
		t.Fatalf("metadata under the issuer's path: %v, %d fetches", err, metadataFetches())
	}
	mu.Lock()
	jwksURI = second.srv.URL + "/jwks"
	mu.Unlock()
	c.advance(61 * time.Second)
	if _, err := v.Verify(context.Background(), token("es2")); err != nil || metadataFetches() != 2 || second.fetches.Load() != 1 {
		t.Fatalf("after the metadata's max-age, a new jwks_uri: %v, %d metadata fetches, %d of the new key set",
			err, metadataFetches(), second.fetches.Load())
	}
	mu.Lock()
	down = true
	mu.Unlock()
	second.publish("es2", "ed1")
	c.advance(61 * time.Second)
	if _, err := v.Verify(context.Background(), token("ed1")); err != nil || metadataFetches() != 3 || second.fetches.Load() != 2 {
		t.Fatalf("metadata down: %v, %d metadata fetches, %d key set fetches; want the held jwks_uri refetched",
			err, metadataFetches(), second.fetches.Load())
	}
}

// TestDiscoveryHTTPS: an https issuer's metadata may not name an http
// key set.
func TestDiscoveryHTTPS(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	var srv *httptest.Server
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": srv.URL, "jwks_uri": is.srv.URL + "/jwks"})
	}))
	t.Cleanup(srv.Close)
	c := newClock()
	v, err := New(Config{Issuer: srv.URL, Audience: []string{testAudience}, HTTPClient: srv.Client(), Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	tok := is.token(t, "es1", c.Now(), func(m map[string]any) { m["iss"] = srv.URL })
	if _, err := v.Verify(context.Background(), tok); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "jwks_uri") {
		t.Fatalf("https issuer naming an http jwks_uri: %v", err)
	}
	if is.fetches.Load() != 0 {
		t.Fatal("the http key set was fetched")
	}
}

// TestTokenCache: a token is cached until its exp, by its exact text.
func TestTokenCache(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	v := is.verifier(t, c, func(cfg *Config) { cfg.Leeway = -1 })
	tok := is.token(t, "es1", c.Now(), func(m map[string]any) { m["exp"] = c.Now().Add(time.Minute).Unix() })
	first, err := v.Verify(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	again, err := v.Verify(context.Background(), tok)
	if err != nil || again != first {
		t.Fatalf("second verification not from the cache: %v", err)
	}
	c.advance(time.Minute)
	if _, err := v.Verify(context.Background(), tok); !errors.Is(err, ErrExpired) {
		t.Fatalf("cached token past its exp: %v", err)
	}
	// The cache stays within its size.
	small := is.verifier(t, c, func(cfg *Config) { cfg.CacheSize = 10 })
	for range 50 {
		if _, err := small.Verify(context.Background(), is.token(t, "ed1", c.Now(), nil)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(small.cache.m); n > 10 {
		t.Fatalf("cache holds %d tokens, limit 10", n)
	}
}
