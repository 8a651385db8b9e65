package gatehouse_test

// The hostile provider, part two: the positive relying-party cases of the
// OpenID Foundation's conformance suite, key rotation, the JWKS refetch
// budget, and provider faults on every outbound call (slow-loris answers,
// 5xx, huge bodies, malformed JSON, discovery down at start-up), of which
// the log keeps the status, not the body.

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	josejwt "github.com/go-jose/go-jose/v4/jwt"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// interceptor sits in front of an authtest provider and answers the
// requests for which a fault is set, by endpoint path suffix ("/token",
// "/userinfo", "/jwks", "/.well-known/openid-configuration").
type interceptor struct {
	mu     sync.Mutex
	faults map[string]http.HandlerFunc
}

func (ic *interceptor) set(suffix string, h http.HandlerFunc) {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	if ic.faults == nil {
		ic.faults = map[string]http.HandlerFunc{}
	}
	if h == nil {
		delete(ic.faults, suffix)
		return
	}
	ic.faults[suffix] = h
}

func (ic *interceptor) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ic.mu.Lock()
		var h http.HandlerFunc
		for suffix, f := range ic.faults {
			if strings.HasSuffix(r.URL.Path, suffix) {
				h = f
			}
		}
		ic.mu.Unlock()
		if h != nil {
			h(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// newHostileServer starts an authtest provider behind ic.
func newHostileServer(t *testing.T, opts authtest.Options, ic *interceptor) *authtest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	opts.Issuer = "http://" + ts.Listener.Addr().String()
	opts.AutoApprove = true
	p, err := authtest.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = ic.wrap(p)
	ts.Start()
	t.Cleanup(ts.Close)
	return &authtest.Server{Server: ts, Provider: p}
}

// trickle answers 200 and then one byte of a JSON body every interval,
// until the client gives up (a slow-loris answer).
func trickle(interval time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		body := `{"access_token":"` + strings.Repeat("a", 1000)
		for i := 0; i < len(body); i++ {
			if _, err := w.Write([]byte{body[i]}); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-time.After(interval):
			case <-r.Context().Done():
				return
			}
		}
	}
}

func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Error(w, "unavailable", code) }
}

func jsonBody(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}
}

// huge answers a JSON body of 3 MiB without a Content-Length.
func huge(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"keys":[],"access_token":"x","sub":"alice","pad":"`))
	chunk := []byte(strings.Repeat("x", 64<<10))
	for range 48 {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
	w.Write([]byte(`"}`))
}

// expectFailure checks that a sign-in ended on the error page with errType
// (and code, when not empty), without a session.
func expectFailure(t *testing.T, a *app, b *browser, resp *http.Response, errType gatehouse.ErrorType, code string) {
	t.Helper()
	u := resp.Request.URL
	if u.Path != "/auth/error" || u.Query().Get("error") != string(errType) {
		t.Fatalf("ended on %s (status %d), want /auth/error?error=%s (hops %v)", u, resp.StatusCode, errType, b.hops)
	}
	if code != "" && u.Query().Get("code") != code {
		t.Fatalf("code = %q, want %q (%s)", u.Query().Get("code"), code, u)
	}
	if resp.StatusCode == http.StatusInternalServerError {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if s := b.session(a); s != nil {
		t.Fatalf("a session after a failure: %v", s)
	}
}

func expectSignedIn(t *testing.T, a *app, b *browser, resp *http.Response, body string) {
	t.Helper()
	if resp.Request.URL.Path != "/private" || body != "hello alice@example.com" {
		t.Fatalf("landed on %s with %q (hops %v)", resp.Request.URL, body, b.hops)
	}
}

func count(op *authtest.Server, ep authtest.Endpoint) int {
	n := 0
	for _, r := range op.Requests() {
		if r.Endpoint == ep {
			n++
		}
	}
	return n
}

// TestConformancePositive: the OpenID Foundation RP tests whose expected
// outcome is a successful sign-in (Basic and Config profiles).
func TestConformancePositive(t *testing.T) {
	cases := []struct {
		name   string
		opts   authtest.Options
		faults authtest.Faults
		check  func(t *testing.T, op *authtest.Server)
	}{
		{name: "rp-response_type-code", check: func(t *testing.T, op *authtest.Server) {
			for _, r := range op.Requests() {
				if r.Endpoint == authtest.EndpointAuthorize && r.Query.Get("response_type") != "code" {
					t.Fatalf("response_type = %q", r.Query.Get("response_type"))
				}
			}
		}},
		{name: "rp-id_token-sig-rs256", opts: authtest.Options{Alg: "RS256"}},
		{name: "rp-id_token-sig-es256", opts: authtest.Options{Alg: "ES256"}},
		{name: "rp-id_token-kid-absent-single-jwks", faults: authtest.Faults{IDTokenOmitKID: true}},
		// The suite accepts either outcome here; Gatehouse tries every key.
		{name: "rp-id_token-kid-absent-multiple-jwks (right key)", faults: authtest.Faults{IDTokenOmitKID: true, JWKSExtraKeys: 2}},
		{name: "rp-discovery-openid-configuration", check: func(t *testing.T, op *authtest.Server) {
			if count(op, authtest.EndpointDiscovery) != 1 {
				t.Fatalf("discovery fetched %d times, want 1", count(op, authtest.EndpointDiscovery))
			}
		}},
		{name: "rp-discovery-jwks_uri-keys", check: func(t *testing.T, op *authtest.Server) {
			if count(op, authtest.EndpointJWKS) != 1 {
				t.Fatalf("JWKS fetched %d times, want 1", count(op, authtest.EndpointJWKS))
			}
		}},
		{name: "rp-token_endpoint-client_secret_basic", check: func(t *testing.T, op *authtest.Server) {
			for _, r := range op.Requests() {
				if r.Endpoint == authtest.EndpointToken && r.ClientAuth != "client_secret_basic" {
					t.Fatalf("client authentication %q", r.ClientAuth)
				}
			}
		}},
		{name: "rp-userinfo-bearer-header", check: func(t *testing.T, op *authtest.Server) {
			seen := false
			for _, r := range op.Requests() {
				if r.Endpoint == authtest.EndpointUserinfo {
					seen = true
					if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") || r.Query.Has("access_token") || r.Form.Has("access_token") {
						t.Fatalf("userinfo request: header %q, query %v", r.Header.Get("Authorization"), r.Query)
					}
				}
			}
			if !seen {
				t.Fatal("no userinfo request")
			}
		}},
		{name: "rp-scope-userinfo-claims", opts: authtest.Options{Users: []authtest.User{{Subject: "alice", Name: "Alice", Email: "alice@example.com", EmailVerified: true}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b, resp, body := signInWithFaults(t, tc.opts, tc.faults)
			expectSignedIn(t, a, b, resp, body)
			if tc.check != nil {
				tc.check(t, a.op)
			}
		})
	}
}

// TestKeyRotation: rp-key-rotation-op-sign-key. The provider rotates its
// signing key; the next ID token names a kid the cache lacks, the JWKS is
// fetched once more, and the sign-in succeeds.
func TestKeyRotation(t *testing.T) {
	for _, alg := range []string{"RS256", "ES256"} {
		t.Run(alg, func(t *testing.T) {
			t.Parallel()
			a := newApp(t, authtest.Options{Alg: alg}, nil)
			resp, body := newBrowser(t).signIn(a, "dev", "/private")
			expectSignedIn(t, a, newBrowser(t), resp, body)
			before := count(a.op, authtest.EndpointJWKS)
			a.op.RotateKey()
			b := newBrowser(t)
			resp, body = b.signIn(a, "dev", "/private")
			expectSignedIn(t, a, b, resp, body)
			if got := count(a.op, authtest.EndpointJWKS) - before; got != 1 {
				t.Fatalf("JWKS fetched %d more times after a rotation, want 1", got)
			}
			// A third sign-in uses the cached new key.
			resp, body = newBrowser(t).signIn(a, "dev", "/private")
			expectSignedIn(t, a, b, resp, body)
			if got := count(a.op, authtest.EndpointJWKS) - before; got != 1 {
				t.Fatalf("JWKS fetched %d times for a known key", got)
			}
		})
	}
}

// TestJWKSRefetchBudget: tokens naming unknown keys do not make the
// relying party hammer the JWKS endpoint. Twelve sign-ins with an unknown
// kid fail, and the JWKS is fetched at most 1 + 3 (the refetch burst)
// times. Without the budget it is fetched once per token (go-oidc).
func TestJWKSRefetchBudget(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	a.op.SetFaults(authtest.Faults{IDTokenUnknownKID: true})
	start := time.Now()
	for range 12 {
		b := newBrowser(t)
		resp, _ := b.signIn(a, "dev", "/private")
		expectFailure(t, a, b, resp, gatehouse.InvalidIDToken, "signature")
	}
	if n, most := count(a.op, authtest.EndpointJWKS), budgetFetches(start); n > most {
		t.Fatalf("JWKS fetched %d times for 12 tokens with unknown kids, want at most %d", n, most)
	}
}

// TestProviderFaults: every outbound call (discovery, JWKS, token,
// userinfo) survives a slow-loris answer (one byte per second, cut off at
// Config.ProviderTimeout), a 5xx, a body larger than the read limit and
// malformed JSON, with a specific error and no session.
func TestProviderFaults(t *testing.T) {
	const timeout = 1500 * time.Millisecond
	endpoints := []struct {
		suffix  string
		errType gatehouse.ErrorType
		slow    string // the code for a timeout
	}{
		{"/.well-known/openid-configuration", gatehouse.ProviderUnavailable, "discovery"},
		{"/jwks", gatehouse.InvalidIDToken, "jwks"},
		{"/token", gatehouse.TokenExchangeFailed, "timeout"},
		{"/userinfo", gatehouse.UserinfoFailed, "timeout"},
	}
	faults := []struct {
		name string
		h    http.HandlerFunc
		code func(suffix string) string
	}{
		{"slow-loris", trickle(time.Second), nil},
		{"503", status(http.StatusServiceUnavailable), func(s string) string {
			switch s {
			case "/token", "/userinfo":
				return "http_503"
			}
			return ""
		}},
		{"huge", huge, func(string) string { return "" }},
		{"malformed-json", jsonBody(`{"issuer": "x", "keys": [}`), func(string) string { return "" }},
	}
	for _, ep := range endpoints {
		for _, f := range faults {
			t.Run(strings.Trim(ep.suffix, "/.")+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				ic := &interceptor{}
				ic.set(ep.suffix, f.h)
				op := newHostileServer(t, authtest.Options{}, ic)
				// The app starts whatever the provider does: discovery is
				// lazy.
				a := startApp(t, op, func(c *gatehouse.Config) {
					c.HTTPClient = nil
					c.ProviderTimeout = timeout
				})
				b := newBrowser(t)
				start := time.Now()
				var resp *http.Response
				if ep.suffix == "/.well-known/openid-configuration" {
					// Sign-in itself needs discovery: the POST fails at once.
					resp = b.follow(b.post(a.url+"/auth/signin/dev", map[string][]string{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}}))
				} else {
					resp, _ = b.signIn(a, "dev", "/private")
				}
				code := ep.slow
				if f.code != nil {
					code = f.code(ep.suffix)
				}
				expectFailure(t, a, b, resp, ep.errType, code)
				if el := time.Since(start); el > timeout+3*time.Second {
					t.Fatalf("took %s with a %s timeout", el, timeout)
				}
			})
		}
	}
}

// TestProviderBodiesNotLogged: a failing userinfo endpoint whose answer
// carries profile data is logged with its status, content type and size
// only. Failed before: 200 characters of the body reached the log.
func TestProviderBodiesNotLogged(t *testing.T) {
	const secretProfile = `{"error":"boom","email":"carol.private@example.com","phone":"+1 555 0100"}`
	userinfo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(secretProfile))
	}))
	t.Cleanup(userinfo.Close)
	var logs syncBuffer // email_test.go
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		withDev(func(p *providers.OAuthConfig[profile.Claims]) {
			p.Userinfo = providers.UserinfoEndpoint[profile.Claims]{URL: userinfo.URL + "/me"}
		})(c)
	})
	resp, _ := newBrowser(t).signIn(a, "dev", "/")
	if got := resp.Request.URL.Query().Get("error"); got != string(gatehouse.UserinfoFailed) {
		t.Fatalf("ended on %s, want UserinfoFailed", resp.Request.URL)
	}
	out := logs.String()
	if strings.Contains(out, "carol.private") || strings.Contains(out, "555 0100") {
		t.Fatalf("the provider's answer reached the log:\n%s", out)
	}
	if !strings.Contains(out, "500") || !strings.Contains(out, "application/json") || !strings.Contains(out, "bytes") {
		t.Fatalf("the log does not say status, content type and size:\n%s", out)
	}
}

// TestDiscoveryDownAtStartUp: the provider's discovery is unreachable
// when the app starts. New succeeds, sign-in fails cleanly with
// ProviderUnavailable (without contacting the provider more than once per
// retry period), and once the provider is back sign-in works.
func TestDiscoveryDownAtStartUp(t *testing.T) {
	t.Parallel()
	ic := &interceptor{}
	ic.set("/.well-known/openid-configuration", status(http.StatusBadGateway))
	op := newHostileServer(t, authtest.Options{}, ic)
	a := startApp(t, op, nil)
	for range 3 {
		b := newBrowser(t)
		resp := b.follow(b.post(a.url+"/auth/signin/dev", map[string][]string{"csrfToken": {b.csrf(a)}}))
		expectFailure(t, a, b, resp, gatehouse.ProviderUnavailable, "discovery")
	}
	if n := count(op, authtest.EndpointDiscovery); n > 0 {
		// The interceptor answered: the provider never saw them.
		t.Fatalf("provider saw %d discovery requests", n)
	}
	ic.set("/.well-known/openid-configuration", nil)
	deadline := time.Now().Add(10 * time.Second)
	for {
		b := newBrowser(t)
		resp, body := b.signIn(a, "dev", "/private")
		if resp.Request.URL.Path == "/private" {
			expectSignedIn(t, a, b, resp, body)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still failing after the provider came back: %s", resp.Request.URL)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// hs256Token forwards the token request to the provider and re-signs the
// ID token of its answer with HS256 under key, as LINE signs them.
func hs256Token(t *testing.T, op func() http.Handler, key []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		op().ServeHTTP(rec, r)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body["id_token"] == nil {
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		parsed, err := josejwt.ParseSigned(body["id_token"].(string), []jose.SignatureAlgorithm{jose.RS256})
		if err != nil {
			t.Error(err)
			return
		}
		var claims map[string]any
		parsed.UnsafeClaimsWithoutVerification(&claims)
		signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: key}, nil)
		if err != nil {
			t.Error(err)
			return
		}
		if body["id_token"], err = josejwt.Signed(signer).Claims(claims).Serialize(); err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body)
	}
}

// TestHS256Pinned: a provider that pins HS256 (LINE) signs in with ID
// tokens keyed with the client secret (OpenID Connect Core §10.1); the
// same token is refused when the provider does not pin it, and a token
// keyed with anything else is refused when it does.
func TestHS256Pinned(t *testing.T) {
	const lineSecret = "0123456789abcdef0123456789abcdef" // a LINE channel secret: 32 hex digits
	for _, tc := range []struct {
		name   string
		pin    bool
		key    string
		signIn bool
	}{
		{"pinned, client secret", true, lineSecret, true},
		{"not pinned", false, lineSecret, false},
		{"pinned, other key", true, "another-secret-another-secret-another-secret", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ic := &interceptor{}
			var op *authtest.Server
			ic.set("/token", hs256Token(t, func() http.Handler { return op.Provider }, []byte(tc.key)))
			op = newHostileServer(t, authtest.Options{ClientSecret: lineSecret}, ic)
			a := startApp(t, op, func(c *gatehouse.Config) {
				p := c.Providers[0].(providers.OAuthConfig[profile.Claims])
				p.ClientSecret = lineSecret
				if tc.pin {
					p.Client.IDTokenSignedResponseAlg = "HS256"
				}
				c.Providers[0] = p
			})
			b := newBrowser(t)
			resp, body := b.signIn(a, "dev", "/private")
			if tc.signIn {
				expectSignedIn(t, a, b, resp, body)
			} else {
				expectFailure(t, a, b, resp, gatehouse.InvalidIDToken, "")
			}
		})
	}
}

// budgetFetches is the most JWKS fetches the refetch budget allows since
// start: the first fetch, a burst of 3, then one per 10 seconds (a slow
// machine may take that long).
func budgetFetches(start time.Time) int {
	return 1 + 3 + int(time.Since(start)/(10*time.Second))
}
