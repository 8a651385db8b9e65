package gatehouse_test

// The client side of RFC 9700 (OAuth 2.0 Security Best Current Practice),
// one test per checklist item, each named after its section. Items tested
// elsewhere:
//
//   - §4.14 refresh tokens (rotation saved atomically, single flight,
//     invalid_grant ends the session): TestTokenSourceDatabase,
//     TestTokenSourceSingleFlight, TestTokenSourceInvalidGrant,
//     TestTokenSourceJWT (tokens_test.go).
//   - §2.6 TLS (no plain http outside loopback or Development mode):
//     TestConfigErrors "http URL" (flow_test.go).
//   - §4.11.1 the full open-redirect vector list: TestRedirectPolicy and
//     FuzzSameOrigin.

import (
	"crypto/sha256"
	"encoding/base64"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// startFlow runs a sign-in up to the provider's answer and returns the
// callback URL the provider sent the browser to (not yet visited).
func (b *browser) startFlow(a *app, provider string) string {
	b.t.Helper()
	resp := b.post(a.url+"/auth/signin/"+provider, url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}})
	cb := b.get(resp.Header.Get("Location")) // AutoApprove: the provider answers at once
	cb.Body.Close()
	if cb.StatusCode != http.StatusFound {
		b.t.Fatalf("provider answered %d", cb.StatusCode)
	}
	return cb.Header.Get("Location")
}

func tokenRequests(op *authtest.Server) int { return count(op, authtest.EndpointToken) }

// §2.1.1: PKCE with S256 for every sign-in, confidential clients
// included, a fresh verifier each time, and the verifier sent with the
// code.
func TestRFC9700_2_1_1_PKCEAlways(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil) // confidential: client_secret_basic
	for range 2 {
		b := newBrowser(t)
		resp, body := b.signIn(a, "dev", "/private")
		expectSignedIn(t, a, b, resp, body)
	}
	var challenges, verifiers []string
	for _, r := range a.op.Requests() {
		switch r.Endpoint {
		case authtest.EndpointAuthorize:
			if r.Query.Get("code_challenge_method") != "S256" {
				t.Fatalf("code_challenge_method %q", r.Query.Get("code_challenge_method"))
			}
			challenges = append(challenges, r.Query.Get("code_challenge"))
		case authtest.EndpointToken:
			if r.ClientAuth != "client_secret_basic" {
				t.Fatalf("not a confidential client: %q", r.ClientAuth)
			}
			verifiers = append(verifiers, r.Form.Get("code_verifier"))
		}
	}
	if len(challenges) != 2 || len(verifiers) != 2 || challenges[0] == challenges[1] {
		t.Fatalf("challenges %q, verifiers %q", challenges, verifiers)
	}
	for i, v := range verifiers {
		sum := sha256.Sum256([]byte(v))
		if len(v) < 43 || base64.RawURLEncoding.EncodeToString(sum[:]) != challenges[i] {
			t.Fatalf("verifier %d does not match its challenge", i)
		}
	}
}

// §4.7 (and §2.1): CSRF on the redirect endpoint. An authorization
// response delivered to a browser that did not start the flow (login
// CSRF: the attacker's own code in the victim's browser) is refused
// before any token request.
func TestRFC9700_4_7_CSRFStateBoundToBrowser(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	attacker, victim := newBrowser(t), newBrowser(t)
	cb := attacker.startFlow(a, "dev")
	final := victim.follow(victim.get(cb))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" {
		t.Fatalf("the attacker's callback in the victim's browser ended on %s", final.Request.URL)
	}
	if n := tokenRequests(a.op); n != 0 {
		t.Fatalf("%d token requests for a forged callback", n)
	}
	if s := victim.session(a); s != nil {
		t.Fatal("the victim was signed in as the attacker")
	}
}

// §4.5: authorization code injection. A code stolen from one flow and
// injected into another browser's callback (with that browser's own,
// valid state) fails at the token endpoint: the PKCE verifier is the
// victim's, not the one the code was issued for.
func TestRFC9700_4_5_CodeInjection(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	victim, attacker := newBrowser(t), newBrowser(t)
	stolen, _ := url.Parse(victim.startFlow(a, "dev"))
	own, _ := url.Parse(attacker.startFlow(a, "dev"))
	q := own.Query()
	q.Set("code", stolen.Query().Get("code"))
	own.RawQuery = q.Encode()
	final := attacker.follow(attacker.get(own.String()))
	if q := final.Request.URL.Query(); q.Get("error") != "TokenExchangeFailed" || q.Get("code") != "invalid_grant" {
		t.Fatalf("injected code ended on %s", final.Request.URL)
	}
	if s := attacker.session(a); s != nil {
		t.Fatal("the injected code signed the attacker in")
	}
}

// twoProviders is an app with two OpenID providers, "dev" (honest) and
// "evil" (another issuer), each with its own callback path.
func twoProviders(t *testing.T) (*app, *authtest.Server) {
	evil := authtest.NewServer(authtest.Options{AutoApprove: true, ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret})
	t.Cleanup(evil.Close)
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Providers = append(c.Providers, providers.OAuthConfig[profile.Claims]{
			ID: "evil", Name: "Evil", Type: providers.TypeOIDC,
			Issuer: evil.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
		})
	})
	return a, evil
}

// §4.4: mix-up. With two providers, (a) each has its own redirect URI;
// (b) a response for one arriving with the other's RFC 9207 iss is
// refused; (c) a response from a flow started at one provider delivered
// to the other's callback is refused. No token request reaches either.
func TestRFC9700_4_4_MixUp(t *testing.T) {
	a, evil := twoProviders(t)

	// (a) Distinct redirect URIs, per provider.
	for _, id := range []string{"dev", "evil"} {
		newBrowser(t).startFlow(a, id)
	}
	uris := map[string]bool{}
	for _, op := range []*authtest.Server{a.op, evil} {
		for _, r := range op.Requests() {
			if r.Endpoint == authtest.EndpointAuthorize {
				uris[r.Query.Get("redirect_uri")] = true
			}
		}
	}
	if !uris[a.url+"/auth/callback/dev"] || !uris[a.url+"/auth/callback/evil"] || len(uris) != 2 {
		t.Fatalf("redirect URIs %v", uris)
	}

	// (b) A dev response carrying evil's iss.
	b := newBrowser(t)
	cb, _ := url.Parse(b.startFlow(a, "dev"))
	q := cb.Query()
	q.Set("iss", evil.Issuer())
	cb.RawQuery = q.Encode()
	final := b.follow(b.get(cb.String()))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" || q.Get("code") != "iss_mismatch" {
		t.Fatalf("foreign iss ended on %s", final.Request.URL)
	}

	// (c) A flow started at evil, its response delivered to dev's
	// callback (the attacker's authorization endpoint bounced to the
	// honest provider's redirect URI).
	b = newBrowser(t)
	cb, _ = url.Parse(b.startFlow(a, "evil"))
	cb.Path = "/auth/callback/dev"
	final = b.follow(b.get(cb.String()))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" {
		t.Fatalf("evil's response at dev's callback ended on %s", final.Request.URL)
	}
	if n, m := tokenRequests(a.op), tokenRequests(evil); n != 0 || m != 0 {
		t.Fatalf("token requests: dev %d, evil %d", n, m)
	}
}

// RFC 9207 §2.4 and RFC 6749 §3.1: parameters given twice are refused,
// whichever they are.
func TestRFC9700_4_4_DuplicateParameters(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, p := range []string{"iss", "state", "code"} {
		b := newBrowser(t)
		cb := b.startFlow(a, "dev")
		u, _ := url.Parse(cb)
		u.RawQuery += "&" + p + "=" + url.QueryEscape(u.Query().Get(p))
		final := b.follow(b.get(u.String()))
		if q := final.Request.URL.Query(); q.Get("error") != "OAuthCallbackError" || q.Get("code") != "malformed_response" {
			t.Fatalf("duplicate %s ended on %s", p, final.Request.URL)
		}
	}
	if n := tokenRequests(a.op); n != 0 {
		t.Fatalf("%d token requests", n)
	}
}

// §2.1 and §4.1: exact redirect URIs. The authorization request's
// redirect_uri is the fixed per-provider callback, whatever the sign-in
// link says, and the token request repeats it exactly.
func TestRFC9700_4_1_ExactRedirectURI(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	resp := b.post(a.url+"/auth/signin/dev?redirect_uri=https://evil.example/cb&scope=openid+admin&response_type=token",
		url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}})
	final := b.follow(resp)
	body, _ := io.ReadAll(final.Body)
	expectSignedIn(t, a, b, final, string(body))
	want := a.url + "/auth/callback/dev"
	for _, r := range a.op.Requests() {
		switch r.Endpoint {
		case authtest.EndpointAuthorize:
			if r.Query.Get("redirect_uri") != want || r.Query.Get("response_type") != "code" || strings.Contains(r.Query.Get("scope"), "admin") {
				t.Fatalf("authorization request %v", r.Query)
			}
		case authtest.EndpointToken:
			if r.Form.Get("redirect_uri") != want {
				t.Fatalf("token request redirect_uri %q", r.Form.Get("redirect_uri"))
			}
		}
	}
}

// §4.11.1: no open redirector, after sign-in and after sign-out.
func TestRFC9700_4_11_1_NoOpenRedirect(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, evil := range []string{"https://evil.example/", "//evil.example", "/\\evil.example", "https:evil.example"} {
		b := newBrowser(t)
		if resp, _ := b.signIn(a, "dev", evil); resp.Request.URL.String() != a.url+"/" {
			t.Errorf("sign-in callbackUrl %q landed on %s", evil, resp.Request.URL)
		}
		out := b.post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {evil}})
		if loc := out.Header.Get("Location"); loc != a.url+"/" {
			t.Errorf("sign-out callbackUrl %q went to %q", evil, loc)
		}
	}
}

// §4.2.4: the callback page leaks nothing through Referer: it answers a
// redirect with Referrer-Policy: no-referrer and no-store, and the page
// the browser lands on carries no code or state.
func TestRFC9700_4_2_4_NoReferrerLeak(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	cb := b.startFlow(a, "dev")
	resp := b.get(cb)
	resp.Body.Close()
	if resp.Header.Get("Referrer-Policy") != "no-referrer" || !strings.Contains(resp.Header.Get("Cache-Control"), "no-store") || resp.StatusCode/100 != 3 {
		t.Fatalf("callback answered %d, Referrer-Policy %q, Cache-Control %q", resp.StatusCode, resp.Header.Get("Referrer-Policy"), resp.Header.Get("Cache-Control"))
	}
	loc := resp.Header.Get("Location")
	if strings.Contains(loc, "code=") || strings.Contains(loc, "state=") {
		t.Fatalf("the landing URL %q carries the response", loc)
	}
}

// §4.3.2 and RFC 6750 §2.1: no token in any URL. The access token goes
// to userinfo in the Authorization header; no URL the browser visits
// holds a token; the session JSON holds none.
func TestRFC9700_4_3_2_NoTokensInURLs(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	resp, body := b.signIn(a, "dev", "/private")
	expectSignedIn(t, a, b, resp, body)
	for _, h := range append(b.hops, resp.Request.URL.String()) {
		for _, p := range []string{"access_token", "id_token", "refresh_token"} {
			if strings.Contains(h, p) {
				t.Fatalf("URL %q carries %s", h, p)
			}
		}
	}
	for _, r := range a.op.Requests() {
		if r.Endpoint == authtest.EndpointUserinfo && (!strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") || r.Query.Has("access_token")) {
			t.Fatalf("userinfo request %v %v", r.Header, r.Query)
		}
	}
	s := b.session(a)
	for _, k := range []string{"accessToken", "access_token", "idToken", "id_token"} {
		if _, ok := s[k]; ok {
			t.Fatalf("session JSON has %s", k)
		}
	}
}

// §2.1.2 and §4.6: no implicit or hybrid flow. response_type is code,
// and tokens in the front channel are refused before any token request.
func TestRFC9700_2_1_2_NoFrontChannelTokens(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, p := range []string{"access_token", "id_token"} {
		b := newBrowser(t)
		u, _ := url.Parse(b.startFlow(a, "dev"))
		u.RawQuery += "&" + p + "=x"
		final := b.follow(b.get(u.String()))
		if q := final.Request.URL.Query(); q.Get("code") != "front_channel_token" {
			t.Fatalf("front-channel %s ended on %s", p, final.Request.URL)
		}
	}
	if n := tokenRequests(a.op); n != 0 {
		t.Fatalf("%d token requests", n)
	}
}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`)
var formAction = regexp.MustCompile(`<form[^>]* action="([^"]*)"`)

// §4.12: response_mode=form_post. The check cookies
// are SameSite=None; Secure (also on http://localhost, which browsers
// treat as secure), so a browser still sends them with the provider's
// cross-site POST, which withholds Lax cookies; the callback answers the
// POST with 303, never 307.
func TestRFC9700_4_12_FormPost(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Providers = []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "dev", Name: "Development", Type: providers.TypeOIDC,
			Issuer: a0issuer(c), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
			Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"response_mode": "form_post"}},
		}}
	})
	b := newBrowser(t)
	resp := b.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}})
	sameSiteNone := map[string]bool{}
	for _, c := range resp.Cookies() {
		if c.SameSite == http.SameSiteNoneMode {
			if !c.Secure || !c.HttpOnly {
				t.Fatalf("cookie %s: SameSite=None without Secure and HttpOnly", c.Name)
			}
			sameSiteNone[c.Name] = true
		}
	}
	for _, n := range []string{"gatehouse.checks", "authjs.callback-url"} {
		if !sameSiteNone[n] {
			t.Fatalf("%s is not SameSite=None (SameSite=None cookies: %v)", n, sameSiteNone)
		}
	}
	page := b.get(resp.Header.Get("Location"))
	raw, _ := io.ReadAll(page.Body)
	page.Body.Close()
	m := formAction.FindSubmatch(raw)
	if m == nil {
		t.Fatalf("no form_post page: %s", raw)
	}
	action := html.UnescapeString(string(m[1]))
	form := url.Values{}
	for _, in := range hiddenInput.FindAllSubmatch(raw, -1) {
		form.Set(html.UnescapeString(string(in[1])), html.UnescapeString(string(in[2])))
	}
	// The cross-site POST, as a browser sends it: SameSite=None cookies
	// only.
	req, _ := http.NewRequest(http.MethodPost, action, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	au, _ := url.Parse(action)
	for _, c := range b.c.Jar.Cookies(au) {
		if sameSiteNone[c.Name] {
			req.AddCookie(c)
		}
	}
	post, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusSeeOther || post.Header.Get("Location") != a.url+"/private" {
		t.Fatalf("form_post callback answered %d to %q", post.StatusCode, post.Header.Get("Location"))
	}
}

// a0issuer returns the issuer newApp configured for its dev provider.
func a0issuer(c *gatehouse.Config) string {
	return c.Providers[0].(providers.OAuthConfig[profile.Claims]).Issuer
}
