package redisreplay_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/gatehouse-auth/gatehouse/bearer"
	"github.com/gatehouse-auth/gatehouse/bearer/redisreplay"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
)

// TestUse: an id is fresh once until its expiry, in Redis with a time to
// live; another id is fresh; an expiry already past records nothing that
// lasts.
func TestUse(t *testing.T) {
	c := redistest.NewClient(t)
	prefix := redistest.Prefix(t, c)
	log := redisreplay.New(c, prefix)
	ctx := context.Background()
	use := func(id string, expiry time.Time) bool {
		t.Helper()
		fresh, err := log.Use(ctx, id, expiry)
		if err != nil {
			t.Fatal(err)
		}
		return fresh
	}
	exp := time.Now().Add(300 * time.Millisecond)
	if !use("a", exp) || use("a", exp) || !use("b", exp) {
		t.Fatal("want a fresh, a used, b fresh")
	}
	if ttl := c.PTTL(ctx, prefix+"a").Val(); ttl <= 0 || ttl > 300*time.Millisecond {
		t.Errorf("PTTL of a record = %v; want up to its expiry", ttl)
	}
	time.Sleep(400 * time.Millisecond)
	if !use("a", time.Now().Add(time.Minute)) {
		t.Error("a after its expiry: used; want fresh")
	}
	if !use("past", time.Now().Add(-time.Second)) {
		t.Error("an expiry already past: want fresh")
	}
	time.Sleep(10 * time.Millisecond)
	if n := c.Exists(ctx, prefix+"past").Val(); n != 0 {
		t.Error("the record of an expiry already past lasts")
	}
}

// TestAcrossVerifiers: two verifiers, each with its own Redis connection
// (two instances of a service), share a Log. A proof accepted by one is
// refused by the other; of 100 parallel requests with one proof, half on
// each, exactly one is accepted and the others are refused as replays.
func TestAcrossVerifiers(t *testing.T) {
	iss := newIssuer(t)
	client := newDPoPKey(t)
	prefix := redistest.Prefix(t, redistest.NewClient(t))
	verifier := func() *bearer.Verifier {
		v, err := bearer.New(bearer.Config{Issuer: iss.srv.URL, Audience: []string{"https://api.example"},
			JWKSURL: iss.srv.URL + "/jwks", CacheSize: -1,
			DPoP: bearer.DPoP{BaseURL: "https://api.example", Replay: redisreplay.New(redistest.NewClient(t), prefix)}})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	a, b := verifier(), verifier()
	token := iss.token(t, client.thumbprint(t))
	request := func(proof string) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/things", nil)
		r.Header.Set("Authorization", "DPoP "+token)
		r.Header.Set("DPoP", proof)
		return r
	}
	proof := client.proof(t, token)
	if _, err := a.VerifyRequest(request(proof)); err != nil {
		t.Fatalf("a fresh proof on A: %v", err)
	}
	if _, err := b.VerifyRequest(request(proof)); !errors.Is(err, bearer.ErrDPoPReplay) {
		t.Fatalf("the proof again, on B: %v; want ErrDPoPReplay", err)
	}

	proof = client.proof(t, token)
	var accepted, replayed atomic.Int32
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			v := []*bearer.Verifier{a, b}[i%2]
			switch _, err := v.VerifyRequest(request(proof)); {
			case err == nil:
				accepted.Add(1)
			case errors.Is(err, bearer.ErrDPoPReplay):
				replayed.Add(1)
			default:
				t.Errorf("request %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	t.Logf("100 parallel requests with one proof on two verifiers: %d accepted, %d refused as replays", accepted.Load(), replayed.Load())
	if accepted.Load() != 1 || replayed.Load() != 99 {
		t.Errorf("%d accepted, %d replays; want 1 and 99", accepted.Load(), replayed.Load())
	}
}

// issuer publishes one ES256 key and signs DPoP-bound access tokens.
type issuer struct {
	srv *httptest.Server
	key jose.JSONWebKey
}

func newIssuer(t *testing.T) *issuer {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	is := &issuer{key: jose.JSONWebKey{Key: priv, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}
	is.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{is.key.Public()}})
	}))
	t.Cleanup(is.srv.Close)
	return is
}

// token is an at+jwt bound to the DPoP key of thumbprint jkt (RFC 9449 §6).
func (is *issuer) token(t *testing.T, jkt string) string {
	now := time.Now()
	return sign(t, is.key, "at+jwt", false, map[string]any{"iss": is.srv.URL, "sub": "user-1",
		"aud": "https://api.example", "client_id": "c", "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"jti": rand.Text(), "cnf": map[string]string{"jkt": jkt}})
}

// dpopKey is a client's DPoP key.
type dpopKey struct{ key jose.JSONWebKey }

func newDPoPKey(t *testing.T) *dpopKey {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &dpopKey{key: jose.JSONWebKey{Key: priv, Algorithm: "ES256"}}
}

func (d *dpopKey) thumbprint(t *testing.T) string {
	pub := d.key.Public()
	sum, err := pub.Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(sum)
}

// proof is a new DPoP proof (RFC 9449 §4.2) of GET https://api.example/things
// with token.
func (d *dpopKey) proof(t *testing.T, token string) string {
	ath := sha256.Sum256([]byte(token))
	return sign(t, d.key, "dpop+jwt", true, map[string]any{"jti": rand.Text(), "htm": http.MethodGet,
		"htu": "https://api.example/things", "iat": time.Now().Unix(), "ath": base64.RawURLEncoding.EncodeToString(ath[:])})
}

// sign signs claims with key under the header typ, embedding the public
// key when embed is set.
func sign(t *testing.T, key jose.JSONWebKey, typ string, embed bool, claims map[string]any) string {
	t.Helper()
	opts := &jose.SignerOptions{EmbedJWK: embed, ExtraHeaders: map[jose.HeaderKey]any{jose.HeaderType: typ}}
	signingKey := any(key)
	if embed {
		signingKey = key.Key
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: signingKey}, opts)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return out
}
