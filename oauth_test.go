package gatehouse_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/sitetest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"
)

func TestSignInOIDC(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	resp, body := b.signIn(a, "dev", "/private")
	if resp.Request.URL.Path != "/private" || body != "hello alice@example.com" {
		t.Fatalf("landed on %s with %q (hops %v)", resp.Request.URL, body, b.Hops)
	}
	// The callback-url cookie brought the browser to /private and was
	// cleared then: a signed-in browser does not send it on every request.
	if cb := b.cookie(a, "authjs.callback-url"); cb != "" {
		t.Errorf("the callback-url cookie %q outlives the sign-in", cb)
	}
	s := b.session(a)
	user, _ := s["user"].(map[string]any)
	if user["email"] != "alice@example.com" || user["name"] != "Alice" || user["id"] != "dev:alice" {
		t.Fatalf("session = %v", s)
	}
	exp, err := time.Parse(time.RFC3339Nano, s["expires"].(string))
	if err != nil || exp.Before(time.Now().Add(29*24*time.Hour)) {
		t.Fatalf("expires = %v (%v)", s["expires"], err)
	}

	// The authorization request carried PKCE S256, state and nonce, and
	// the token request repeated the redirect_uri with the verifier.
	var sawAuth, sawToken bool
	for _, r := range a.op.Requests() {
		switch r.Endpoint {
		case authtest.EndpointAuthorize:
			q := r.Query
			sawAuth = q.Get("code_challenge_method") == "S256" && len(q.Get("code_challenge")) == 43 &&
				len(q.Get("state")) == 43 && len(q.Get("nonce")) == 43 && q.Get("redirect_uri") == a.url+"/auth/callback/dev"
		case authtest.EndpointToken:
			sawToken = r.Form.Get("redirect_uri") == a.url+"/auth/callback/dev" && len(r.Form.Get("code_verifier")) == 43
		}
	}
	if !sawAuth || !sawToken {
		t.Fatalf("authorization request ok=%v, token request ok=%v: %+v", sawAuth, sawToken, a.op.Requests())
	}

	// Sign out with CSRF ends the session.
	out := b.Post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/"}})
	if out.StatusCode != http.StatusSeeOther || out.Header.Get("Location") != a.url+"/" {
		t.Fatalf("sign-out answered %d to %q", out.StatusCode, out.Header.Get("Location"))
	}
	if s := b.session(a); s != nil {
		t.Fatalf("session after sign-out = %v", s)
	}
	if r := b.Get(a.url + "/private"); r.StatusCode != http.StatusFound || !strings.Contains(r.Header.Get("Location"), "/auth/signin?callbackUrl=%2Fprivate") {
		t.Fatalf("protected page after sign-out: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
}

func TestSignInNeedsCSRF(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	b.csrf(a) // a valid cookie, but the form's token is not its own
	for _, tok := range []string{"", strings.Repeat("0", 43)} {
		resp := b.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {tok}})
		if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, "/auth/signin?") || !strings.Contains(loc, "error=MissingCSRF") {
			t.Fatalf("token %q: went to %q", tok, loc)
		}
	}
	if n := len(a.op.Requests()); n != 0 {
		t.Fatalf("the provider was contacted %d times", n)
	}
}

// TestConformance runs the ID token and callback faults of the OpenID
// Foundation's relying-party tests: each must end on an error page with
// its specific code, without a session.
func TestConformance(t *testing.T) {
	cases := []struct {
		name       string
		faults     authtest.Faults
		errType    gatehouse.ErrorType
		code       string
		opts       authtest.Options
		errorRoute string
	}{
		{"rp-id_token-sig-none", authtest.Faults{IDTokenAlgNone: true}, gatehouse.InvalidIDToken, "", authtest.Options{}, "error"},
		{"rp-id_token-bad-sig-rs256", authtest.Faults{IDTokenForeignKey: true}, gatehouse.InvalidIDToken, "signature", authtest.Options{}, "error"},
		{"rp-id_token-bad-sig-es256", authtest.Faults{IDTokenForeignKey: true}, gatehouse.InvalidIDToken, "signature", authtest.Options{Alg: "ES256"}, "error"},
		{"hs256-with-public-key", authtest.Faults{IDTokenHS256PublicKey: true}, gatehouse.InvalidIDToken, "", authtest.Options{}, "error"},
		{"rp-id_token-kid-absent-multiple-jwks", authtest.Faults{IDTokenOmitKID: true, JWKSExtraKeys: 2, IDTokenForeignKey: true}, gatehouse.InvalidIDToken, "signature", authtest.Options{}, "error"},
		{"unknown-kid", authtest.Faults{IDTokenUnknownKID: true}, gatehouse.InvalidIDToken, "signature", authtest.Options{}, "error"},
		{"rp-id_token-issuer-mismatch", authtest.Faults{IDTokenWrongIssuer: true}, gatehouse.InvalidIDToken, "issuer", authtest.Options{}, "error"},
		{"rp-id_token-aud", authtest.Faults{IDTokenWrongAudience: true}, gatehouse.InvalidIDToken, "audience", authtest.Options{}, "error"},
		{"azp-missing-with-several-aud", authtest.Faults{IDTokenExtraAudience: true, IDTokenOmitAZP: true}, gatehouse.InvalidIDToken, "azp_missing", authtest.Options{}, "error"},
		{"azp-wrong", authtest.Faults{IDTokenWrongAZP: true}, gatehouse.InvalidIDToken, "azp", authtest.Options{}, "error"},
		{"expired", authtest.Faults{IDTokenExpired: true}, gatehouse.InvalidIDToken, "expired", authtest.Options{}, "error"},
		{"exp-missing", authtest.Faults{IDTokenOmitExp: true}, gatehouse.InvalidIDToken, "", authtest.Options{}, "error"},
		{"rp-id_token-iat", authtest.Faults{IDTokenOmitIat: true}, gatehouse.InvalidIDToken, "iat_missing", authtest.Options{}, "error"},
		{"iat-in-future", authtest.Faults{IDTokenIatInFuture: true}, gatehouse.InvalidIDToken, "iat_future", authtest.Options{}, "error"},
		{"rp-id_token-sub", authtest.Faults{IDTokenOmitSub: true}, gatehouse.InvalidIDToken, "sub_missing", authtest.Options{}, "error"},
		{"rp-nonce-invalid", authtest.Faults{IDTokenWrongNonce: true}, gatehouse.InvalidIDToken, "nonce_mismatch", authtest.Options{}, "error"},
		{"rp-nonce-unless-code-flow (missing)", authtest.Faults{IDTokenOmitNonce: true}, gatehouse.InvalidIDToken, "nonce_missing", authtest.Options{}, "error"},
		{"at_hash-wrong", authtest.Faults{IDTokenWrongAtHash: true}, gatehouse.InvalidIDToken, "at_hash", authtest.Options{}, "error"},
		{"rp-userinfo-bad-sub-claim", authtest.Faults{UserinfoWrongSub: true}, gatehouse.UserinfoFailed, "sub_mismatch", authtest.Options{}, "error"},
		{"userinfo-500", authtest.Faults{UserinfoFail: true}, gatehouse.UserinfoFailed, "http_500", authtest.Options{}, "error"},
		{"rfc9207-iss-wrong", authtest.Faults{AuthorizeWrongIss: true}, gatehouse.InvalidCheck, "iss_mismatch", authtest.Options{}, "error"},
		{"rfc9207-iss-missing", authtest.Faults{AuthorizeOmitIss: true}, gatehouse.InvalidCheck, "iss_missing", authtest.Options{}, "error"},
		{"access-denied", authtest.Faults{AuthorizeAccessDenied: true}, gatehouse.OAuthCallbackError, "access_denied", authtest.Options{}, "signin"},
		{"token-invalid_grant", authtest.Faults{TokenInvalidGrant: true}, gatehouse.TokenExchangeFailed, "invalid_grant", authtest.Options{}, "error"},
		{"token-500", authtest.Faults{TokenServerError: true}, gatehouse.TokenExchangeFailed, "http_500", authtest.Options{}, "error"},
		{"token-html", authtest.Faults{TokenHTML: true}, gatehouse.TokenExchangeFailed, "", authtest.Options{}, "error"},
		{"token-huge", authtest.Faults{TokenHugeBody: true}, gatehouse.TokenExchangeFailed, "", authtest.Options{}, "error"},
		{"token-timeout", authtest.Faults{TokenDelay: 5 * time.Second}, gatehouse.TokenExchangeFailed, "timeout", authtest.Options{}, "error"},
		{"no-id_token", authtest.Faults{TokenOmitIDToken: true}, gatehouse.InvalidIDToken, "missing", authtest.Options{}, "error"},
		{"rp-discovery-issuer-not-matching-config", authtest.Faults{DiscoveryWrongIssuer: true}, gatehouse.ProviderUnavailable, "discovery", authtest.Options{}, "error"},
		{"jwks-500", authtest.Faults{JWKSFail: true}, gatehouse.InvalidIDToken, "", authtest.Options{}, "error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b, resp, _ := signInWithFaults(t, tc.opts, tc.faults)
			u := resp.Request.URL
			if u.Path != "/auth/"+tc.errorRoute || u.Query().Get("error") != string(tc.errType) {
				t.Fatalf("ended on %s (status %d), want /auth/%s?error=%s (hops %v)", u, resp.StatusCode, tc.errorRoute, tc.errType, b.Hops)
			}
			if tc.code != "" && u.Query().Get("code") != tc.code {
				t.Fatalf("code = %q, want %q", u.Query().Get("code"), tc.code)
			}
			// Provider faults answer 502, refused checks 4xx: never a bare 500.
			if resp.StatusCode == http.StatusInternalServerError {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if s := b.session(a); s != nil {
				t.Fatalf("a session after %s: %v", tc.name, s)
			}
		})
	}
}

func TestCheckCookies(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	// Start in one browser, finish in another: the state/PKCE/nonce
	// cookies are missing (login CSRF, RFC 9700 §4.7).
	b1, b2 := newBrowser(t), newBrowser(t)
	resp := b1.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {b1.csrf(a)}})
	authz := resp.Header.Get("Location")
	cb := b1.Get(authz) // AutoApprove: straight to our callback
	callback := cb.Header.Get("Location")
	final := b2.Follow(b2.Get(callback))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" || q.Get("code") != "iss_missing" && !strings.HasSuffix(q.Get("code"), "cookie_missing") {
		t.Fatalf("cross-browser callback ended on %s", final.Request.URL)
	}

	// The right browser, with the state altered.
	u, _ := url.Parse(callback)
	q := u.Query()
	q.Set("state", q.Get("state")+"x")
	u.RawQuery = q.Encode()
	final = b1.Follow(b1.Get(u.String()))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" || q.Get("code") != "state_mismatch" {
		t.Fatalf("altered state ended on %s", final.Request.URL)
	}
	// The cookies were single-use: replaying the genuine callback fails.
	final = b1.Follow(b1.Get(callback))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" {
		t.Fatalf("replayed callback ended on %s", final.Request.URL)
	}
}

func TestRedirectPolicy(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	evil := []string{
		"https://evil.example/", "//evil.example", "/\\evil.example", "/\t/evil.example", "javascript:alert(1)",
		"http://user@" + strings.TrimPrefix(a.url, "http://") + "@evil.example/", "/%2F%2Fevil.example",
		"http://" + strings.TrimPrefix(a.url, "http://") + ".evil.example/", "data:text/html,hi", "/\n/evil.example",
	}
	for _, cb := range evil {
		b := newBrowser(t)
		resp, _ := b.signIn(a, "dev", cb)
		if got := resp.Request.URL.String(); got != a.url+"/" {
			t.Errorf("callbackUrl %q landed on %q", cb, got)
		}
	}
	b := newBrowser(t)
	if resp, _ := b.signIn(a, "dev", a.url+"/private?x=1"); resp.Request.URL.String() != a.url+"/private?x=1" {
		t.Errorf("same-origin absolute callbackUrl landed on %s", resp.Request.URL)
	}
}

// The OAuth client extensions against the in-process provider: pushed
// authorization requests, JWT client authentication, DPoP, and the ID
// token rules of a refresh.

// withDev changes the "dev" provider of the test app's configuration.
func withDev(f func(*providers.OAuthConfig[profile.Claims])) func(*gatehouse.Config) {
	return func(cfg *gatehouse.Config) {
		c := cfg.Providers[0].(providers.OAuthConfig[profile.Claims])
		f(&c)
		cfg.Providers[0] = c
	}
}

// requestsTo returns the provider's recorded requests to endpoint.
func requestsTo(op *authtest.Server, endpoint authtest.Endpoint) []authtest.RecordedRequest {
	var out []authtest.RecordedRequest
	for _, r := range op.Requests() {
		if r.Endpoint == endpoint {
			out = append(out, r)
		}
	}
	return out
}

// signedIn signs b in at a and fails the test unless it lands on /private.
func signedIn(t *testing.T, a *app, b *browser) {
	t.Helper()
	resp, body := b.signIn(a, "dev", "/private")
	if resp.Request.URL.Path != "/private" || body != "hello alice@example.com" {
		t.Fatalf("landed on %s with %q (hops %v)", resp.Request.URL, body, b.Hops)
	}
}

// errorEnd signs b in at a and returns the error type and code the
// sign-in ended with.
func errorEnd(t *testing.T, a *app, b *browser) (string, string) {
	t.Helper()
	resp, _ := b.signIn(a, "dev", "/private")
	q := resp.Request.URL.Query()
	if s := b.session(a); s != nil {
		t.Fatalf("a session after a failed sign-in: %v", s)
	}
	return q.Get("error"), q.Get("code")
}

func TestPAR(t *testing.T) {
	cases := []struct {
		name   string
		opts   authtest.Options
		mutate func(*gatehouse.Config)
	}{
		{"required by the metadata", authtest.Options{RequirePAR: true}, nil},
		{"required by the configuration", authtest.Options{}, withDev(func(c *providers.OAuthConfig[profile.Claims]) {
			c.Client.RequirePushedAuthorizationRequests = true
		})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newApp(t, tc.opts, tc.mutate)
			signedIn(t, a, newBrowser(t))
			pars, authz := requestsTo(a.op, authtest.EndpointPAR), requestsTo(a.op, authtest.EndpointAuthorize)
			if len(pars) != 1 || len(authz) != 1 {
				t.Fatalf("%d PAR and %d authorization requests", len(pars), len(authz))
			}
			// The parameters went over the back channel, with client
			// authentication; the browser carried only their reference.
			f := pars[0].Form
			if pars[0].ClientAuth != "client_secret_basic" || f.Get("client_id") != authtest.DefaultClientID ||
				f.Get("redirect_uri") != a.url+"/auth/callback/dev" || f.Get("code_challenge_method") != "S256" ||
				len(f.Get("state")) != 43 || len(f.Get("nonce")) != 43 || f.Get("scope") != "openid profile email" {
				t.Fatalf("PAR request: auth %q, form %v", pars[0].ClientAuth, f)
			}
			q := authz[0].Query
			if len(q) != 2 || q.Get("client_id") != authtest.DefaultClientID || !strings.HasPrefix(q.Get("request_uri"), "urn:ietf:params:oauth:request_uri:") {
				t.Fatalf("authorization request query = %v", q)
			}
		})
	}

	// Without either, no PAR: today's behaviour.
	a := newApp(t, authtest.Options{}, nil)
	signedIn(t, a, newBrowser(t))
	if n := len(requestsTo(a.op, authtest.EndpointPAR)); n != 0 {
		t.Fatalf("%d PAR requests when PAR is not asked for", n)
	}
}

func TestPARErrors(t *testing.T) {
	// The PAR endpoint fails: the provider is unavailable.
	a := newApp(t, authtest.Options{RequirePAR: true}, nil)
	a.op.SetFaults(authtest.Faults{PARServerError: true})
	if typ, code := errorEnd(t, a, newBrowser(t)); typ != string(gatehouse.ProviderUnavailable) || code != "par_unavailable" {
		t.Fatalf("PAR 500 ended with %s/%s", typ, code)
	}
	if n := len(requestsTo(a.op, authtest.EndpointAuthorize)); n != 0 {
		t.Fatalf("the browser reached the authorization endpoint %d times", n)
	}

	// The PAR endpoint refuses the client.
	a = newApp(t, authtest.Options{RequirePAR: true}, withDev(func(c *providers.OAuthConfig[profile.Claims]) {
		c.ClientSecret = "not-the-secret"
	}))
	if typ, code := errorEnd(t, a, newBrowser(t)); typ != string(gatehouse.OAuthSignin) || code != "par_rejected" {
		t.Fatalf("PAR 401 ended with %s/%s", typ, code)
	}

	// PAR is required and there is no endpoint: endpoints configured, no
	// discovery.
	a = newApp(t, authtest.Options{}, withDev(func(c *providers.OAuthConfig[profile.Claims]) {
		c.Authorization.URL, c.Token.URL, c.JWKSEndpoint = c.Issuer+"/authorize", c.Issuer+"/token", c.Issuer+"/jwks"
		c.Userinfo.URL = c.Issuer + "/userinfo"
		c.Client.RequirePushedAuthorizationRequests = true
	}))
	if typ, code := errorEnd(t, a, newBrowser(t)); typ != string(gatehouse.OAuthSignin) || code != "par_endpoint_missing" {
		t.Fatalf("PAR without endpoint ended with %s/%s", typ, code)
	}

	// The provider requires PAR: a plain authorization request is refused.
	a = newApp(t, authtest.Options{RequirePAR: true}, nil)
	resp := newBrowser(t).Get(a.op.Issuer() + "/authorize?client_id=test-client&redirect_uri=" + a.url + "/auth/callback/dev&response_type=code")
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("authtest took an authorization request without PAR: %d", resp.StatusCode)
	}
}

// newECKey and newEdKey make private JWKs with a kid (sitetest.RSAKey
// an RSA one).
func newECKey(t *testing.T, kid string) jose.JSONWebKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return jose.JSONWebKey{Key: k, KeyID: kid}
}

func newEdKey(t *testing.T, kid string) jose.JSONWebKey {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return jose.JSONWebKey{Key: k, KeyID: kid}
}

// assertionOf returns the claims and header of the client assertion of a
// recorded request, unverified (the provider verified it).
func assertionOf(t *testing.T, r authtest.RecordedRequest) (jwt.Claims, jose.Header) {
	t.Helper()
	tok, err := jwt.ParseSigned(r.Form.Get("client_assertion"), []jose.SignatureAlgorithm{jose.HS256, jose.RS256, jose.ES256, jose.EdDSA})
	if err != nil {
		t.Fatalf("client_assertion: %v", err)
	}
	var c jwt.Claims
	if err := tok.UnsafeClaimsWithoutVerification(&c); err != nil {
		t.Fatal(err)
	}
	return c, tok.Headers[0]
}

const longSecret = "a-client-secret-of-more-than-32-bytes-for-HS256"

func TestClientAssertion(t *testing.T) {
	current, old := sitetest.RSAKey(t, "2026-11"), sitetest.RSAKey(t, "2026-05")
	ec, ed := newECKey(t, "ec-1"), newEdKey(t, "ed-1")
	cases := []struct {
		name   string
		method providers.AuthMethod
		keys   []jose.JSONWebKey // the client's
		known  []jose.JSONWebKey // registered at the provider
		kid    string
		alg    string
	}{
		{"client_secret_jwt", providers.AuthClientSecretJWT, nil, nil, "", "HS256"},
		{"private_key_jwt RS256 after rotation", providers.AuthPrivateKeyJWT, []jose.JSONWebKey{current, old}, []jose.JSONWebKey{old, current}, "2026-11", "RS256"},
		{"private_key_jwt ES256", providers.AuthPrivateKeyJWT, []jose.JSONWebKey{ec}, []jose.JSONWebKey{ec}, "ec-1", "ES256"},
		{"private_key_jwt EdDSA", providers.AuthPrivateKeyJWT, []jose.JSONWebKey{ed}, []jose.JSONWebKey{ed}, "ed-1", "EdDSA"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// PAR too, so that both endpoints authenticate the client.
			a, b := signedInKeepingTokens(t, authtest.Options{ClientSecret: longSecret, ClientJWKS: sitetest.PublicSet(tc.known...), RequirePAR: true}, func(c *providers.OAuthConfig[profile.Claims]) {
				c.ClientSecret = longSecret
				c.Client.TokenEndpointAuthMethod = tc.method
				c.Client.JWKS = &jose.JSONWebKeySet{Keys: tc.keys}
			})

			// A refresh authenticates the same way.
			w := httptest.NewRecorder()
			ts, err := a.h.TokenSource(context.Background(), w, b.appRequest(a), "dev", gatehouse.MinValidity(2*time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ts.Token(); err != nil {
				t.Fatalf("refresh: %v", err)
			}

			reqs := append(requestsTo(a.op, authtest.EndpointPAR), requestsTo(a.op, authtest.EndpointToken)...)
			if len(reqs) != 3 {
				t.Fatalf("%d PAR and token requests, want 3", len(reqs))
			}
			var jtis []string
			for _, r := range reqs {
				if r.ClientAuth != string(tc.method) || r.Form.Has("client_secret") || r.Header.Get("Authorization") != "" ||
					r.Form.Get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
					t.Fatalf("%s request: auth %q, form %v", r.Endpoint, r.ClientAuth, r.Form)
				}
				c, h := assertionOf(t, r)
				// RFC 7523 §3 and FAPI 2.0: iss = sub = client_id, aud the
				// issuer, a short exp, a fresh jti; the current key's kid.
				if c.Issuer != authtest.DefaultClientID || c.Subject != authtest.DefaultClientID ||
					!slices.Equal([]string(c.Audience), []string{a.op.Issuer()}) || c.ID == "" ||
					c.Expiry == nil || time.Until(c.Expiry.Time()) > 2*time.Minute || h.KeyID != tc.kid || h.Algorithm != tc.alg {
					t.Fatalf("%s assertion: %+v, header kid %q alg %q", r.Endpoint, c, h.KeyID, h.Algorithm)
				}
				jtis = append(jtis, c.ID)
			}
			if slices.Sort(jtis); len(slices.Compact(jtis)) != 3 {
				t.Fatalf("jti reused: %v", jtis)
			}
		})
	}

	// The published keys: every key's public part, the signing one first.
	h, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, URL: "https://app.example/auth",
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "corp", Name: "Corp", Type: providers.TypeOIDC,
			Issuer: "https://corp.example", ClientID: "c", Client: providers.Client{TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT,
				JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{current, old}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	set := h.ClientJWKS("corp")
	if len(set.Keys) != 2 || set.Keys[0].KeyID != "2026-11" || set.Keys[1].KeyID != "2026-05" || !set.Keys[0].IsPublic() || !set.Keys[1].IsPublic() {
		t.Fatalf("ClientJWKS = %+v", set)
	}
}

func TestClientAssertionRefused(t *testing.T) {
	rsa1024, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	// The provider does not know the client's current key yet: rotating
	// means publishing the new key before signing with it.
	current, old := newECKey(t, "new"), newECKey(t, "old")
	a := newApp(t, authtest.Options{ClientJWKS: sitetest.PublicSet(old)}, withDev(func(c *providers.OAuthConfig[profile.Claims]) {
		c.Client.TokenEndpointAuthMethod = providers.AuthPrivateKeyJWT
		c.Client.JWKS = &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{current, old}}
	}))
	if typ, code := errorEnd(t, a, newBrowser(t)); typ != string(gatehouse.TokenExchangeFailed) || code != "invalid_client" {
		t.Fatalf("unknown key ended with %s/%s", typ, code)
	}

	// Configuration errors, reported by New.
	for name, c := range map[string]providers.Client{
		"no keys":              {TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT},
		"public key first":     {TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT, JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{current.Public(), old}}},
		"no kid":               {TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT, JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: current.Key}}}},
		"symmetric key":        {TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT, JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: []byte(longSecret), KeyID: "k"}}}},
		"short HS256 secret":   {TokenEndpointAuthMethod: providers.AuthClientSecretJWT},
		"public DPoP key":      {DPoPBoundAccessTokens: true, DPoPKey: &jose.JSONWebKey{Key: current.Public().Key}},
		"unknown auth method":  {TokenEndpointAuthMethod: "tls_client_auth"},
		"relative PAR address": {PushedAuthorizationRequestEndpoint: "/par"},
		// RFC 7518 §3.3 and RFC 7517 §4.2: failed before.
		"1024-bit RSA key":            {TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT, JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: rsa1024, KeyID: "small"}}}},
		"1024-bit RSA key, published": {TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT, JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{current, {Key: &rsa1024.PublicKey, KeyID: "old-small"}}}},
		"key for encryption":          {TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT, JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: current.Key, KeyID: "k", Use: "enc"}}}},
		"DPoP key for encryption":     {DPoPBoundAccessTokens: true, DPoPKey: &jose.JSONWebKey{Key: current.Key, Use: "enc"}},
	} {
		_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, URL: "https://app.example/auth",
			Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "corp", Name: "Corp", Type: providers.TypeOIDC,
				Issuer: "https://corp.example", ClientID: "c", ClientSecret: "short", Client: c}}})
		var ce *gatehouse.ConfigError
		if !errors.As(err, &ce) || ce.Provider != "corp" || !strings.HasPrefix(ce.Field, "client.") {
			t.Errorf("%s: New = %v", name, err)
		}
	}
}

// proofOf verifies the DPoP proof of a recorded request with the key in
// its header and returns its claims and the key's thumbprint.
func proofOf(t *testing.T, h http.Header) (map[string]any, string) {
	t.Helper()
	tok, err := jwt.ParseSigned(h.Get("DPoP"), []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatalf("DPoP proof %q: %v", h.Get("DPoP"), err)
	}
	hdr := tok.Headers[0]
	var c map[string]any
	if err := tok.Claims(hdr.JSONWebKey, &c); err != nil || hdr.ExtraHeaders[jose.HeaderType] != "dpop+jwt" || !hdr.JSONWebKey.IsPublic() {
		t.Fatalf("DPoP proof: %v, header %+v", err, hdr)
	}
	tp, _ := hdr.JSONWebKey.Thumbprint(crypto.SHA256)
	return c, base64.RawURLEncoding.EncodeToString(tp)
}

func ath(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func TestDPoP(t *testing.T) {
	a, b := signedInKeepingTokens(t, authtest.Options{DPoPNonce: true, RequirePAR: true}, func(c *providers.OAuthConfig[profile.Claims]) { c.Client.DPoPBoundAccessTokens = true })

	// The PAR request is answered use_dpop_nonce, and sent again with the
	// nonce, which the token request then has from the start (one server,
	// one nonce: RFC 9449 §8). All proofs are made with one key.
	pars, toks := nonceRetriedPAR(t, a)
	var jkt string
	for i, r := range append(pars, toks...) {
		c, k := proofOf(t, r.Header)
		endpoint := a.op.Issuer() + "/" + string(r.Endpoint)
		if c["htm"] != "POST" || c["htu"] != endpoint || c["jti"] == "" || c["ath"] != nil || (i > 0) != (c["nonce"] != nil) {
			t.Fatalf("proof %d: %v", i, c)
		}
		if jkt != "" && k != jkt {
			t.Fatal("the proofs use different keys")
		}
		jkt = k
	}
	if pars[1].Form.Get("dpop_jkt") != jkt {
		t.Fatalf("dpop_jkt = %q, want %q", pars[1].Form.Get("dpop_jkt"), jkt)
	}

	// The access token is DPoP-bound: the sign-in's userinfo request sent
	// it with a proof bound to it.
	infos := requestsTo(a.op, authtest.EndpointUserinfo)
	if len(infos) != 1 {
		t.Fatalf("%d userinfo requests", len(infos))
	}
	scheme, token, _ := strings.Cut(infos[0].Header.Get("Authorization"), " ")
	if c, k := proofOf(t, infos[0].Header); scheme != "DPoP" || k != jkt || c["ath"] != ath(token) || c["htm"] != "GET" || c["htu"] != a.op.Issuer()+"/userinfo" {
		t.Fatalf("userinfo: %q, proof %v", infos[0].Header.Get("Authorization"), c)
	}

	ctx := context.Background()
	w := httptest.NewRecorder()
	ts, err := a.h.TokenSource(ctx, w, b.appRequest(a), "dev")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := ts.Token()
	if err != nil || tok.Type() != "DPoP" || tok.AccessToken != token {
		t.Fatalf("token %+v (%v)", tok, err)
	}
	// A stolen token is useless: as a Bearer token, or with no proof.
	if got := userinfoStatus(t, a.op, oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token})); got != http.StatusUnauthorized {
		t.Fatalf("the DPoP-bound token as a Bearer token: %d", got)
	}
	if got := userinfoStatus(t, a.op, ts); got != http.StatusUnauthorized {
		t.Fatalf("the DPoP-bound token without a proof (oauth2.NewClient): %d", got)
	}
	// Handler.Client sends it with a proof.
	c, err := a.h.Client(ctx, w, b.appRequest(a), "dev")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // a new proof each time: authtest refuses a jti twice
		resp, err := c.Get(a.op.Issuer() + "/userinfo")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"sub":"alice"`) {
			t.Fatalf("userinfo through Handler.Client: %d %s", resp.StatusCode, body)
		}
	}

	// A refresh is DPoP too, and its token works through Handler.Client.
	userinfoAfterRefresh(t, a, b)
	refreshes := requestsTo(a.op, authtest.EndpointToken)[1:]
	if len(refreshes) != 1 || refreshes[0].Form.Get("grant_type") != "refresh_token" {
		t.Fatalf("refresh requests: %d", len(refreshes))
	}
	if rc, k := proofOf(t, refreshes[0].Header); k != jkt || rc["nonce"] == nil {
		t.Fatalf("refresh proof %v", rc)
	}
}

// DPoP without PAR, with a configured key: dpop_jkt binds the code, the
// token request is retried with the provider's nonce, and a resource
// server asking for its own nonce gets the request again, body included.
func TestDPoPResourceNonce(t *testing.T) {
	key := newECKey(t, "")
	a, b := signedInKeepingTokens(t, authtest.Options{DPoPNonce: true}, func(c *providers.OAuthConfig[profile.Claims]) {
		c.Client.DPoPBoundAccessTokens = true
		c.Client.DPoPKey = &key
	})
	pub := key.Public()
	tp, _ := pub.Thumbprint(crypto.SHA256)
	jkt := base64.RawURLEncoding.EncodeToString(tp)
	authz, toks := requestsTo(a.op, authtest.EndpointAuthorize), requestsTo(a.op, authtest.EndpointToken)
	if len(authz) != 1 || authz[0].Query.Get("dpop_jkt") != jkt {
		t.Fatalf("authorization requests %d, dpop_jkt %q, want %q", len(authz), authz[0].Query.Get("dpop_jkt"), jkt)
	}
	if len(toks) != 2 {
		t.Fatalf("%d token requests, want 2 (use_dpop_nonce, then with the nonce)", len(toks))
	}
	c0, k0 := proofOf(t, toks[0].Header)
	c1, k1 := proofOf(t, toks[1].Header)
	if k0 != jkt || k1 != jkt || c0["nonce"] != nil || c1["nonce"] == nil || c0["jti"] == c1["jti"] {
		t.Fatalf("token request proofs %v and %v", c0, c1)
	}
	var mu sync.Mutex
	var seen []string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := proofOf(t, r.Header)
		body, _ := io.ReadAll(r.Body)
		_, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		mu.Lock()
		seen = append(seen, c["jti"].(string)+" "+string(body))
		mu.Unlock()
		if c["htu"] != "http://"+r.Host+"/v1/items" || c["htm"] != "POST" || c["ath"] != ath(token) {
			http.Error(w, "bad proof", http.StatusBadRequest)
			return
		}
		if c["nonce"] != "api-nonce" {
			askDPoPNonce(w, "api-nonce")
			return
		}
		io.WriteString(w, "created")
	}))
	t.Cleanup(api.Close)
	c, err := a.h.Client(context.Background(), httptest.NewRecorder(), b.appRequest(a), "dev")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Post(api.URL+"/v1/items?x=1", "text/plain", strings.NewReader("item"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "created" {
		t.Fatalf("POST answered %d %q", resp.StatusCode, body)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 || seen[0] == seen[1] || !strings.HasSuffix(seen[1], " item") {
		t.Fatalf("requests seen: %q", seen)
	}

	// A request without a body (GET: no GetBody) is sent again too.
	gets := 0
	api2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := proofOf(t, r.Header)
		gets++
		if c["htm"] != "GET" || c["nonce"] != "get-nonce" {
			askDPoPNonce(w, "get-nonce")
			return
		}
		io.WriteString(w, "items")
	}))
	t.Cleanup(api2.Close)
	resp, err = c.Get(api2.URL + "/v1/items")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "items" || gets != 2 {
		t.Fatalf("GET answered %d %q after %d requests", resp.StatusCode, body, gets)
	}
}

// OpenID Connect Core §12.2: a refreshed ID token must keep iss, sub, aud
// and auth_time; otherwise the refresh fails and the stored tokens stay.
func TestRefreshIDTokenRules(t *testing.T) {
	cases := []struct {
		name   string
		faults authtest.Faults
		code   string
	}{
		{"sub changed", authtest.Faults{IDTokenWrongSubject: true}, "refresh_sub"},
		{"auth_time changed", authtest.Faults{IDTokenWrongAuthTime: true}, "refresh_auth_time"},
		{"aud changed", authtest.Faults{IDTokenWrongAudience: true}, "audience"},
		{"iss changed", authtest.Faults{IDTokenWrongIssuer: true}, "issuer"},
		{"bad signature", authtest.Faults{IDTokenForeignKey: true}, "signature"},
		{"nonce added", authtest.Faults{IDTokenWrongNonce: true}, "nonce_unexpected"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, a, b := signedInRefreshDue(t)
			ctx := context.Background()
			before, _ := st.raw.GetAccount(ctx, "dev", "alice")
			a.op.SetFaults(tc.faults)
			ts, err := a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
			if err != nil {
				t.Fatal(err)
			}
			_, err = ts.Token()
			var ge *gatehouse.Error
			if !errors.As(err, &ge) || ge.Type != gatehouse.InvalidIDToken || ge.Code != tc.code || ge.Step != "refresh" {
				t.Fatalf("refresh: %v, want InvalidIDToken (%s)", err, tc.code)
			}
			after, _ := st.raw.GetAccount(ctx, "dev", "alice")
			if after.AccessToken != before.AccessToken || after.RefreshToken != before.RefreshToken || after.IDToken != before.IDToken {
				t.Fatal("the refused refresh replaced the stored tokens")
			}
			if n := len(refreshRequests(a.op)); n != 1 {
				t.Fatalf("%d refresh requests", n)
			}
		})
	}

	// Unchanged claims: the refresh is taken, the new ID token stored.
	st, a, b := signedInRefreshDue(t)
	ctx := context.Background()
	before, _ := st.raw.GetAccount(ctx, "dev", "alice")
	ts, _ := a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
	if _, err := ts.Token(); err != nil {
		t.Fatal(err)
	}
	after, _ := st.raw.GetAccount(ctx, "dev", "alice")
	if after.IDToken == before.IDToken || after.IDToken == "" {
		t.Fatal("the refreshed ID token was not stored")
	}
}

// signedInRefreshDue starts an app on a memory store, signs a new browser
// in, and expires the stored access token, so that the next TokenSource
// refreshes it.
func signedInRefreshDue(t *testing.T) (*store, *app, *browser) {
	t.Helper()
	st := openStore(t, "memory")
	a, _ := newDBApp(t, st, authtest.Options{}, nil)
	b := newBrowser(t)
	signedIn(t, a, b)
	expireStored(t, st)
	return st, a, b
}

// The FAPI 2.0 client profile: PAR, private_key_jwt and DPoP with nonces
// together. The retry a nonce asks for carries a new client assertion:
// the provider refuses a jti twice.
func TestFAPI2Profile(t *testing.T) {
	key := newECKey(t, "fapi-1")
	a, b := signedInKeepingTokens(t, authtest.Options{RequirePAR: true, DPoPNonce: true, ClientJWKS: sitetest.PublicSet(key)}, func(c *providers.OAuthConfig[profile.Claims]) {
		c.Client.TokenEndpointAuthMethod = providers.AuthPrivateKeyJWT
		c.Client.JWKS = &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{key}}
		c.Client.DPoPBoundAccessTokens = true
	})
	pars, toks := nonceRetriedPAR(t, a)
	c0, _ := assertionOf(t, pars[0])
	c1, _ := assertionOf(t, pars[1])
	if c0.ID == c1.ID || pars[1].ClientAuth != "private_key_jwt" || toks[0].ClientAuth != "private_key_jwt" {
		t.Fatalf("PAR retry: jti %q then %q", c0.ID, c1.ID)
	}
	userinfoAfterRefresh(t, a, b)
	if refresh := requestsTo(a.op, authtest.EndpointToken); len(refresh) != 2 || refresh[1].ClientAuth != "private_key_jwt" || refresh[1].Header.Get("DPoP") == "" {
		t.Fatalf("refresh: %d token requests", len(refresh))
	}
}

// Handler.Client does not follow redirects even when Config.HTTPClient
// does: its transport adds the access token to every request, so a
// redirect would hand the token to whatever server the API names.
func TestClientNoRedirect(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.HTTPClient = &http.Client{} // follows redirects
		cfg.Callbacks.JWT = gatehouse.KeepTokens(nil)
	})
	b := newBrowser(t)
	signedIn(t, a, b)
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("Authorization"))
	}))
	t.Cleanup(other.Close)
	api := httptest.NewServer(http.RedirectHandler(other.URL+"/steal", http.StatusFound))
	t.Cleanup(api.Close)
	c, err := a.h.Client(context.Background(), httptest.NewRecorder(), b.appRequest(a), "dev")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(api.URL + "/v1/items")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || leaked.Load() != nil {
		t.Fatalf("answered %d; the other server got Authorization %v", resp.StatusCode, leaked.Load())
	}
}

// The PAR and token requests never follow a redirect, even when
// Config.HTTPClient does: endpointTransport signs a client assertion into
// every request it sends, so a redirect would hand one to another server.
func TestEndpointNoRedirect(t *testing.T) {
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		leaked.Store(string(body))
	}))
	t.Cleanup(other.Close)
	bounce := httptest.NewServer(http.RedirectHandler(other.URL+"/steal", http.StatusFound))
	t.Cleanup(bounce.Close)
	a := newApp(t, authtest.Options{ClientSecret: longSecret}, func(cfg *gatehouse.Config) {
		withDev(func(c *providers.OAuthConfig[profile.Claims]) {
			c.ClientSecret = longSecret
			c.Client.TokenEndpointAuthMethod = providers.AuthClientSecretJWT
			c.Client.RequirePushedAuthorizationRequests = true
			c.Client.PushedAuthorizationRequestEndpoint = bounce.URL + "/par"
		})(cfg)
		cfg.HTTPClient = &http.Client{} // follows redirects
	})
	typ, code := errorEnd(t, a, newBrowser(t))
	if s, _ := leaked.Load().(string); strings.Contains(s, "client_assertion") {
		t.Fatalf("the redirect target got %q", s)
	}
	if typ != string(gatehouse.OAuthSignin) || code != "par_rejected" {
		t.Fatalf("a redirecting PAR endpoint ended with %s/%s", typ, code)
	}
}

// TestRetryKeepsCallbackURL: after a failure the visitor can retry from
// the sign-in page (a wrong password, a sign-in cancelled at the
// provider), the sign-in page still knows where they were going, so its
// forms post that callbackUrl again.
func TestRetryKeepsCallbackURL(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Providers = append(c.Providers, credentials.Config{
			Fields: []credentials.Field{{Name: "password", Type: "password"}},
			Authorize: func(ctx context.Context, c map[string]string, r *http.Request) (*profile.User, error) {
				return nil, credentials.ErrInvalid
			},
		})
	})
	want := "/private"

	// A wrong password.
	b := newBrowser(t)
	resp := b.Post(a.url+"/auth/callback/credentials", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}, "password": {"x"}})
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if loc == nil || loc.Path != "/auth/signin" || loc.Query().Get("error") != "CredentialsSignin" || loc.Query().Get("callbackUrl") != want {
		t.Errorf("wrong password: sent to %q, want the sign-in page with error=CredentialsSignin and callbackUrl=%s", resp.Header.Get("Location"), want)
	}

	// A sign-in cancelled at the provider.
	a.op.SetFaults(authtest.Faults{AuthorizeAccessDenied: true})
	b = newBrowser(t)
	resp, body := b.signIn(a, "dev", "/private")
	if resp.Request.URL.Path != "/auth/signin" || resp.Request.URL.Query().Get("callbackUrl") != want {
		t.Errorf("cancelled: landed on %s, want the sign-in page with callbackUrl=%s", resp.Request.URL, want)
	}
	if hidden := `<input type="hidden" name="callbackUrl" value="` + a.url + want + `">`; !strings.Contains(body, hidden) {
		t.Errorf("the sign-in page's forms lack %s", hidden)
	}

	// Only same-origin destinations are carried.
	b = newBrowser(t)
	resp = b.Post(a.url+"/auth/callback/credentials", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"https://evil.example/x"}, "password": {"x"}})
	resp.Body.Close()
	if loc, _ := url.Parse(resp.Header.Get("Location")); loc == nil || loc.Path != "/auth/signin" || loc.Query().Has("callbackUrl") {
		t.Errorf("foreign callbackUrl: sent to %q, want the sign-in page without callbackUrl (home is the default)", resp.Header.Get("Location"))
	}
}
