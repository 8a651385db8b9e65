package gatehouse

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/descope/virtualwebauthn"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/emailflow"
	"github.com/gatehouse-auth/gatehouse/internal/passkeyflow"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

// FuzzPasskeyCallback: whatever credential JSON and action arrive with a
// valid challenge cookie and CSRF token, the callback answers with a
// redirect to an error, never a session, and never panics.
func FuzzPasskeyCallback(f *testing.F) {
	const site = "http://localhost:3000"
	h, err := New(Config{
		Secret:    []string{"fuzz-secret-fuzz-secret-fuzz-secret-00"},
		URL:       site + "/auth",
		Adapter:   memory.New(),
		Providers: []providers.Provider{passkey.New(passkey.WebAuthnConfig{})},
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		// The fuzzer is one client sending thousands of requests: the
		// rate limit (tested elsewhere) would answer most of them 429.
		RateLimit: limit.None{},
	})
	if err != nil {
		f.Fatal(err)
	}
	challengeCookie := func(action string) (*http.Cookie, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, site+"/auth/webauthn-options/passkey?action="+action, nil))
		for _, c := range rec.Result().Cookies() {
			if c.Name == "authjs.challenge" {
				return c, rec.Body.String()
			}
		}
		f.Fatalf("no challenge cookie for %s: %d %s", action, rec.Code, rec.Body)
		return nil, ""
	}
	authCookie, body := challengeCookie("authenticate")
	token, csrfCookie := h.site.CSRF.NewPair()

	// Seeds: a well-formed assertion (for a credential nobody registered),
	// and shapes near it.
	raw := strings.TrimSuffix(strings.TrimPrefix(body, `{"action":"authenticate","options":`), "}\n")
	opts, err := virtualwebauthn.ParseAssertionOptions(raw)
	if err != nil {
		f.Fatalf("options %s: %v", body, err)
	}
	rp := virtualwebauthn.RelyingParty{Name: "localhost", ID: "localhost", Origin: site}
	k := virtualwebauthn.NewAuthenticatorWithOptions(virtualwebauthn.AuthenticatorOptions{UserHandle: []byte("someone")})
	good := virtualwebauthn.CreateAssertionResponse(rp, k, NewTestCredential(), *opts)
	f.Add("authenticate", good)
	f.Add("register", good)
	f.Add("authenticate", `{}`)
	f.Add("authenticate", `{"id":"","rawId":"","type":"public-key","response":{}}`)
	f.Add("", "null")

	f.Fuzz(func(t *testing.T, action, data string) {
		form := url.Values{"action": {action}, "data": {data}, "csrfToken": {token}}
		req := httptest.NewRequest(http.MethodPost, site+"/auth/callback/passkey", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(authCookie)
		req.AddCookie(&http.Cookie{Name: "authjs.csrf-token", Value: csrfCookie})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		loc := rec.Header().Get("Location")
		if rec.Code != http.StatusSeeOther || !strings.Contains(loc, "error=") {
			t.Fatalf("answered %d to %q", rec.Code, loc)
		}
		for _, c := range rec.Result().Cookies() {
			if strings.Contains(c.Name, "session-token") && c.Value != "" {
				t.Fatalf("a fuzzed response got a session")
			}
		}
	})
}

// TestPasskeySignUpRefusesEmailProvider: an e-mail provider would sign the
// real owner of an address in to a user a stranger signed up with it.
func TestPasskeySignUpRefusesEmailProvider(t *testing.T) {
	for _, signUp := range []bool{true, false} {
		pk := passkey.New(passkey.WebAuthnConfig{SignUp: signUp})
		h := &Handler{
			order: []string{"email", "passkey"},
			flows: map[string]flow{"email": emailflow.New(emailflow.Config{Email: email.Config{ID: "email"}}, nil), "passkey": passkeyflow.New(passkeyflow.Config{Provider: pk}, nil)},
		}
		err := h.checkPasskeys()
		if signUp != (err != nil) || (err != nil && !strings.Contains(err.Error(), `e-mail provider "email"`)) {
			t.Errorf("SignUp %v: checkPasskeys = %v", signUp, err)
		}
	}
}

// BenchmarkPasskeySignIn measures the server side of one passkey sign-in:
// GET webauthn-options (challenge made and sealed) and POST callback
// (cookie opened, assertion verified, counter updated, session issued),
// with the memory adapter and the database session strategy. The
// authenticator's signing runs with the timer stopped.
func BenchmarkPasskeySignIn(b *testing.B) {
	const site = "http://localhost:3000"
	h, err := New(Config{
		Secret:    []string{"bench-secret-bench-secret-bench-secret-0"},
		URL:       site + "/auth",
		Adapter:   memory.New(),
		Providers: []providers.Provider{passkey.New(passkey.WebAuthnConfig{SignUp: true})},
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		// One client signing in thousands of times: the rate limit
		// (tested elsewhere) would answer 429.
		RateLimit: limit.None{},
	})
	if err != nil {
		b.Fatal(err)
	}
	token, csrfCookie := h.site.CSRF.NewPair()
	csrf := &http.Cookie{Name: "authjs.csrf-token", Value: csrfCookie}
	rp := virtualwebauthn.RelyingParty{Name: "localhost", ID: "localhost", Origin: site}
	key := virtualwebauthn.NewAuthenticator()
	cred := NewTestCredential()

	options := func(query string) (*http.Cookie, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, site+"/auth/webauthn-options/passkey?"+query, nil))
		var c *http.Cookie
		for _, x := range rec.Result().Cookies() {
			if x.Name == "authjs.challenge" {
				c = x
			}
		}
		body := rec.Body.String()
		i := strings.Index(body, `"options":`)
		if c == nil || i < 0 {
			b.Fatalf("options: %d %s", rec.Code, body)
		}
		return c, strings.TrimSuffix(body[i+len(`"options":`):], "}\n")
	}
	callback := func(challenge *http.Cookie, action, data string) {
		form := url.Values{"action": {action}, "data": {data}, "csrfToken": {token}}
		req := httptest.NewRequest(http.MethodPost, site+"/auth/callback/passkey", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(challenge)
		req.AddCookie(csrf)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || strings.Contains(loc, "error") {
			b.Fatalf("%s: %d %s", action, rec.Code, loc)
		}
	}

	c, raw := options("action=register&email=bench@example.com")
	ao, err := virtualwebauthn.ParseAttestationOptions(raw)
	if err != nil {
		b.Fatal(err)
	}
	callback(c, "register", virtualwebauthn.CreateAttestationResponse(rp, key, cred, *ao))
	key.Options.UserHandle = []byte(ao.UserID)

	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c, raw := options("action=authenticate")
		b.StopTimer()
		opts, err := virtualwebauthn.ParseAssertionOptions(raw)
		if err != nil {
			b.Fatal(err)
		}
		cred.Counter++
		data := virtualwebauthn.CreateAssertionResponse(rp, key, cred, *opts)
		b.StartTimer()
		callback(c, "authenticate", data)
	}
}

// NewTestCredential is a software passkey credential for the tests, with
// a P-256 key whose coordinates are both 32 bytes long. virtualwebauthn
// encodes them with big.Int.Bytes, without padding, so about one key in
// 128 has a short coordinate, which go-webauthn rightly refuses ("EC2 key
// x or y coordinate has invalid length"): such keys are drawn again.
func NewTestCredential() virtualwebauthn.Credential {
	for {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		if len(k.X.Bytes()) != 32 || len(k.Y.Bytes()) != 32 {
			continue
		}
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			panic(err)
		}
		return virtualwebauthn.NewCredentialWithImportedKey(virtualwebauthn.KeyTypeEC2, der)
	}
}
