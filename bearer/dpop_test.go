package bearer

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// dpopClient holds a client's DPoP key and makes proofs with it.
type dpopClient struct {
	key jose.JSONWebKey
}

func newDPoPClient(t *testing.T) *dpopClient {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &dpopClient{key: jose.JSONWebKey{Key: priv, Algorithm: "ES256"}}
}

// proof is a DPoP proof for method and url and token at iat; edit may
// change its claims.
func (d *dpopClient) proof(t *testing.T, method, url, token string, iat time.Time, edit func(map[string]any)) string {
	t.Helper()
	return d.proofTyped(t, "dpop+jwt", method, url, token, iat, edit)
}

// proofTyped is proof with the typ header typ.
func (d *dpopClient) proofTyped(t *testing.T, typ, method, url, token string, iat time.Time, edit func(map[string]any)) string {
	t.Helper()
	sum := sha256.Sum256([]byte(token))
	claims := map[string]any{"jti": rand.Text(), "htm": method, "htu": url, "iat": iat.Unix(), "ath": b64(sum[:])}
	if edit != nil {
		edit(claims)
	}
	return signJWS(t, jose.ES256, d.key.Key,
		&jose.SignerOptions{EmbedJWK: true, ExtraHeaders: map[jose.HeaderKey]any{jose.HeaderType: typ}}, claims)
}

func dpopRequest(method, url, scheme, token, proof string) *http.Request {
	r := httptest.NewRequest(method, url, nil)
	r.Header.Set("Authorization", scheme+" "+token)
	if proof != "" {
		r.Header.Set("DPoP", proof)
	}
	return r
}

// TestDPoP: a token bound to a key (cnf.jkt) is accepted only with a fresh
// proof by that key for this very request, once.
func TestDPoP(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	now := c.Now()
	v := is.verifier(t, c, nil)
	client := newDPoPClient(t)
	thief := newDPoPClient(t)
	token := is.token(t, "es1", now, func(m map[string]any) { m["cnf"] = map[string]string{"jkt": thumbprint(t, client.key)} })
	const url = "https://api.example/projects/7"

	good := client.proof(t, "DELETE", url, token, now, nil)
	tok, err := v.VerifyRequest(dpopRequest("DELETE", url+"?force=1", "DPoP", token, good))
	if err != nil {
		t.Fatalf("good proof: %v", err)
	}
	if tok.KeyThumbprint != thumbprint(t, client.key) {
		t.Fatalf("KeyThumbprint %q", tok.KeyThumbprint)
	}

	other := is.token(t, "es1", now, nil)
	cases := []struct {
		name   string
		req    *http.Request
		want   error
		status int
	}{
		{"replayed proof", dpopRequest("DELETE", url, "DPoP", token, good), ErrDPoPReplay, 401},
		{"proof for another URL", dpopRequest("DELETE", url, "DPoP", token, client.proof(t, "DELETE", "https://api.example/projects/8", token, now, nil)), ErrDPoPMismatch, 401},
		{"proof for another host", dpopRequest("DELETE", url, "DPoP", token, client.proof(t, "DELETE", "https://evil.example/projects/7", token, now, nil)), ErrDPoPMismatch, 401},
		{"proof for another method", dpopRequest("DELETE", url, "DPoP", token, client.proof(t, "GET", url, token, now, nil)), ErrDPoPMismatch, 401},
		{"proof for another token", dpopRequest("DELETE", url, "DPoP", token, client.proof(t, "DELETE", url, other, now, nil)), ErrDPoPMismatch, 401},
		{"proof by another key", dpopRequest("DELETE", url, "DPoP", token, thief.proof(t, "DELETE", url, token, now, nil)), ErrDPoPProof, 401},
		{"stale proof", dpopRequest("DELETE", url, "DPoP", token, client.proof(t, "DELETE", url, token, now.Add(-5*time.Minute), nil)), ErrDPoPProof, 401},
		{"proof from the future", dpopRequest("DELETE", url, "DPoP", token, client.proof(t, "DELETE", url, token, now.Add(5*time.Minute), nil)), ErrDPoPProof, 401},
		{"proof without jti", dpopRequest("DELETE", url, "DPoP", token, client.proof(t, "DELETE", url, token, now, func(m map[string]any) { delete(m, "jti") })), ErrDPoPProof, 401},
		{"proof typ JWT", dpopRequest("DELETE", url, "DPoP", token, client.proofTyped(t, "JWT", "DELETE", url, token, now, nil)), ErrDPoPProof, 401},
		{"proof is the access token", dpopRequest("DELETE", url, "DPoP", token, token), ErrDPoPProof, 401},
		{"bound token as Bearer", dpopRequest("DELETE", url, "Bearer", token, client.proof(t, "DELETE", url, token, now, nil)), ErrDPoPRequired, 401},
		{"bound token without proof", dpopRequest("DELETE", url, "DPoP", token, ""), ErrDPoPRequired, 401},
		{"unbound token with DPoP scheme", dpopRequest("DELETE", url, "DPoP", other, client.proof(t, "DELETE", url, other, now, nil)), ErrDPoPProof, 401},
	}
	handler := v.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := v.VerifyRequest(tc.req.Clone(context.Background())); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			w := httptest.NewRecorder()
			handler.ServeHTTP(w, tc.req)
			challenge := w.Header().Get("WWW-Authenticate")
			if w.Code != tc.status || !strings.HasPrefix(challenge, "DPoP error=") || !strings.HasSuffix(challenge, `algs="RS256 PS256 ES256 EdDSA"`) {
				t.Fatalf("status %d, challenge %q", w.Code, w.Header().Values("WWW-Authenticate"))
			}
		})
	}
	// Verify, which sees no request, refuses bound tokens.
	if _, err := v.Verify(context.Background(), token); !errors.Is(err, ErrDPoPRequired) {
		t.Fatalf("Verify of a bound token: %v", err)
	}
}

// TestDPoPBaseURL: behind a proxy, htu is compared with Config.DPoP.BaseURL
// and the path the client asked for, before any http.StripPrefix.
func TestDPoPBaseURL(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	v := is.verifier(t, c, func(cfg *Config) { cfg.DPoP.BaseURL = "https://api.example" })
	client := newDPoPClient(t)
	token := is.token(t, "es1", c.Now(), func(m map[string]any) { m["cnf"] = map[string]string{"jkt": thumbprint(t, client.key)} })
	var got *Token
	h := http.StripPrefix("/v1", v.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = FromContext(r.Context()) })))
	serve := func(htu string) int {
		r := dpopRequest("GET", "http://backend:8080/v1/things", "DPoP", token, client.proof(t, "GET", htu, token, c.Now(), nil))
		r.RequestURI = "/v1/things" // as a server sets it
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	// Scheme and host case and the default port are normalised away.
	if code := serve("https://API.example:443/v1/things"); code != 200 || got == nil {
		t.Fatalf("proof for the public URL: status %d", code)
	}
	if code := serve("http://backend:8080/v1/things"); code != 401 {
		t.Fatalf("proof for the backend URL: status %d", code)
	}
	if code := serve("https://api.example/things"); code != 401 {
		t.Fatalf("proof for the stripped path: status %d", code)
	}
}

// TestSharedReplayLog: instances given one ReplayLog refuse a proof that
// another instance accepted.
func TestSharedReplayLog(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	shared := NewMemoryReplayLog(10)
	shared.now = c.Now
	one := is.verifier(t, c, func(cfg *Config) { cfg.DPoP.Replay = shared })
	two := is.verifier(t, c, func(cfg *Config) { cfg.DPoP.Replay = shared })
	client := newDPoPClient(t)
	token := is.token(t, "es1", c.Now(), func(m map[string]any) { m["cnf"] = map[string]string{"jkt": thumbprint(t, client.key)} })
	const url = "https://api.example/projects"
	proof := client.proof(t, "GET", url, token, c.Now(), nil)
	if _, err := one.VerifyRequest(dpopRequest("GET", url, "DPoP", token, proof)); err != nil {
		t.Fatal(err)
	}
	if _, err := two.VerifyRequest(dpopRequest("GET", url, "DPoP", token, proof)); !errors.Is(err, ErrDPoPReplay) {
		t.Fatalf("proof replayed on another instance: %v", err)
	}
}

func TestMemoryReplayLog(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := NewMemoryReplayLog(2)
	l.now = c.Now
	ctx := context.Background()
	use := func(id string, life time.Duration) (bool, error) { return l.Use(ctx, id, c.Now().Add(life)) }
	if ok, _ := use("a", time.Minute); !ok {
		t.Fatal("first use of a refused")
	}
	if ok, _ := use("a", time.Minute); ok {
		t.Fatal("second use of a accepted")
	}
	if ok, _ := use("b", time.Minute); !ok {
		t.Fatal("b refused")
	}
	// Full of unexpired proofs: refuse rather than forget one.
	if _, err := use("c", time.Minute); !errors.Is(err, ErrReplayLogFull) {
		t.Fatalf("full log: %v", err)
	}
	c.advance(2 * time.Minute)
	if ok, err := use("c", time.Minute); !ok || err != nil {
		t.Fatalf("c after a and b expired: %v %v", ok, err)
	}
	if len(l.seen) != 1 {
		t.Fatalf("%d entries kept, want 1", len(l.seen))
	}
}
