package interop

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/descope/virtualwebauthn"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// Passkeys through the real HTTP routes, with virtualwebauthn's software
// authenticator making the attestations and assertions.

// pkApp is a site with authtest's OpenID provider "dev" and passkeys,
// served on loopback under the name localhost (WebAuthn needs a domain as
// its RP id, and http://localhost is a secure context).
type pkApp struct {
	*app
	store   *memory.Adapter
	logPath string
}

// log returns what the Handler logged so far.
func (a *pkApp) log() string {
	b, _ := os.ReadFile(a.logPath)
	return string(b)
}

func newPasskeyApp(t *testing.T, pk []providers.Provider, mutate func(*gatehouse.Config)) *pkApp {
	t.Helper()
	ln := listen(t)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	// The log goes to a file (slog's handler serializes its writes), read
	// back by log.
	logPath := filepath.Join(t.TempDir(), "log")
	logs, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logs.Close() })
	store := memory.New()
	cfg := gatehouse.Config{
		Adapter:   store,
		Logger:    slog.New(slog.NewTextHandler(logs, nil)),
		Providers: append([]providers.Provider{devProvider(t)}, pk...),
	}
	if mutate != nil {
		mutate(&cfg)
	}
	return &pkApp{app: serveSite(t, ln, "http://localhost:"+port, cfg), store: store, logPath: logPath}
}

// softKey is a software authenticator holding one credential.
type softKey struct {
	rp   virtualwebauthn.RelyingParty
	auth virtualwebauthn.Authenticator
	cred virtualwebauthn.Credential
}

func newSoftKey(a *pkApp, opts virtualwebauthn.AuthenticatorOptions) *softKey {
	return &softKey{
		rp:   virtualwebauthn.RelyingParty{Name: "localhost", ID: "localhost", Origin: a.url},
		auth: virtualwebauthn.NewAuthenticatorWithOptions(opts),
		cred: testCredential(),
	}
}

// testCredential is a software passkey credential with a P-256 key whose
// coordinates are both 32 bytes long. virtualwebauthn encodes them with
// big.Int.Bytes, without padding, so about one key in 128 has a short
// coordinate, which go-webauthn rightly refuses ("EC2 key x or y
// coordinate has invalid length"): such keys are drawn again.
func testCredential() virtualwebauthn.Credential {
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

// options fetches {base}/webauthn-options/{provider}?query and returns the
// options JSON, or the error message when the status is not 200.
func (b *browser) options(a *pkApp, provider, query string) (int, string) {
	b.T.Helper()
	var v struct {
		Options json.RawMessage
		Error   string
	}
	resp := b.GetJSON(a.url+"/auth/webauthn-options/"+provider+"?"+query, &v)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, v.Error
	}
	return resp.StatusCode, string(v.Options)
}

// register runs the registration ceremony with k and returns the
// callback's response (not followed).
func (b *browser) register(a *pkApp, provider, query string, k *softKey) *http.Response {
	b.T.Helper()
	status, raw := b.options(a, provider, "action=register&"+query)
	if status != http.StatusOK {
		b.T.Fatalf("register options: %d %s", status, raw)
	}
	opts, err := virtualwebauthn.ParseAttestationOptions(raw)
	if err != nil {
		b.T.Fatalf("ParseAttestationOptions(%s): %v", raw, err)
	}
	data := virtualwebauthn.CreateAttestationResponse(k.rp, k.auth, k.cred, *opts)
	resp := b.Post(a.url+"/auth/callback/"+provider, url.Values{"action": {"register"}, "data": {data}, "csrfToken": {b.CSRF(a.app.auth)}})
	if resp.StatusCode == http.StatusSeeOther && !strings.Contains(resp.Header.Get("Location"), "error=") {
		// The authenticator keeps the credential, with the user handle
		// the options named.
		k.auth.Options.UserHandle = []byte(opts.UserID)
		k.auth.AddCredential(k.cred)
	}
	return resp
}

// assertion runs the options request of an authentication and returns the
// credential response k makes for it.
func (b *browser) assertion(a *pkApp, provider string, k *softKey) string {
	b.T.Helper()
	status, raw := b.options(a, provider, "action=authenticate")
	if status != http.StatusOK {
		b.T.Fatalf("authenticate options: %d %s", status, raw)
	}
	opts, err := virtualwebauthn.ParseAssertionOptions(raw)
	if err != nil {
		b.T.Fatalf("ParseAssertionOptions(%s): %v", raw, err)
	}
	return virtualwebauthn.CreateAssertionResponse(k.rp, k.auth, k.cred, *opts)
}

func (b *browser) authenticate(a *pkApp, provider string, k *softKey) *http.Response {
	b.T.Helper()
	data := b.assertion(a, provider, k)
	return b.Post(a.url+"/auth/callback/"+provider, url.Values{"action": {"authenticate"}, "data": {data}, "csrfToken": {b.CSRF(a.app.auth)}, "callbackUrl": {"/private"}})
}

// wantSignedIn checks resp is the redirect of a successful sign-in, and
// returns the session's user id.
func wantSignedIn(t *testing.T, b *browser, a *pkApp, resp *http.Response, what string) string {
	t.Helper()
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || strings.Contains(resp.Header.Get("Location"), "error") {
		t.Fatalf("%s: answered %d to %q; log:\n%s", what, resp.StatusCode, resp.Header.Get("Location"), a.log())
	}
	s := b.Session(a.app.auth)
	user, _ := s["user"].(map[string]any)
	id, _ := user["id"].(string)
	if id == "" {
		t.Fatalf("%s: no session (%v)", what, s)
	}
	return id
}

// wantRefused checks resp sends the browser to the sign-in page with the
// error type and code, and that nobody got signed in.
func wantRefused(t *testing.T, b *browser, a *pkApp, resp *http.Response, typ, code string) {
	t.Helper()
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	q := loc.Query()
	if resp.StatusCode != http.StatusSeeOther || loc.Path != "/auth/signin" || q.Get("error") != typ || q.Get("code") != code {
		t.Fatalf("answered %d to %q, want the sign-in page with error=%s, code=%s; log:\n%s", resp.StatusCode, loc, typ, code, a.log())
	}
	if setsSession(resp) {
		t.Fatal("a refused response set a session cookie")
	}
}

// TestPasskeyRegisterSignOutSignIn: a user signed in with an OpenID
// provider adds a passkey, signs out, and signs in with the passkey as
// the same user; with both session strategies.
func TestPasskeyRegisterSignOutSignIn(t *testing.T) {
	for _, strategy := range []gatehouse.Strategy{gatehouse.StrategyDatabase, gatehouse.StrategyJWT} {
		t.Run(string(strategy), func(t *testing.T) {
			a := newPasskeyApp(t, []providers.Provider{passkey.New(passkey.WebAuthnConfig{})}, func(c *gatehouse.Config) {
				c.Session.Strategy = strategy
			})
			b := newBrowser(t)

			// Nobody signed in: no registration (SignUp is off).
			if status, msg := b.options(a, "passkey", "action=register&email=x@example.com"); status != http.StatusBadRequest || msg != "Invalid request" {
				t.Fatalf("register options while signed out = %d %q", status, msg)
			}

			b.SignIn(a.app.auth, "dev", "/private")
			first := b.Session(a.app.auth)["user"].(map[string]any)["id"].(string)

			k := newSoftKey(a, virtualwebauthn.AuthenticatorOptions{BackupEligible: true, BackupState: true})
			k.cred.Counter = 1
			if id := wantSignedIn(t, b, a, b.register(a, "passkey", "", k), "register"); id != first {
				t.Fatalf("after registering, the session is user %q, want %q", id, first)
			}
			list, err := a.store.ListAuthenticatorsByUserID(t.Context(), first)
			if err != nil || len(list) != 1 {
				t.Fatalf("stored authenticators = %v, %v", list, err)
			}
			got := list[0]
			if got.CredentialDeviceType != adapter.MultiDevice || !got.CredentialBackedUp || got.Counter != 1 || got.ProviderAccountID != got.CredentialID || len(got.CredentialPublicKey) == 0 {
				t.Fatalf("stored authenticator = %+v", got)
			}
			if string(k.auth.Options.UserHandle) != first {
				t.Fatalf("the user handle is %q, want the user id %q", k.auth.Options.UserHandle, first)
			}

			// Registering the same credential again is excluded by the
			// options, and refused by the store.
			status, raw := b.options(a, "passkey", "action=register")
			if status != http.StatusOK || !strings.Contains(raw, got.CredentialID) {
				t.Fatalf("register options do not exclude the stored credential: %d %s", status, raw)
			}

			b.signOut(a.app)
			k.cred.Counter = 2
			k.auth.Credentials[0].Counter = 2
			resp := b.authenticate(a, "passkey", k)
			if loc := resp.Header.Get("Location"); loc != a.url+"/private" {
				t.Fatalf("the passkey sign-in went to %q, want the form's callbackUrl", loc)
			}
			if id := wantSignedIn(t, b, a, resp, "authenticate"); id != first {
				t.Fatalf("signed in with the passkey as %q, want %q", id, first)
			}
			if r := b.Get(a.url + "/private"); r.StatusCode != http.StatusOK {
				t.Fatalf("/private answered %d after the passkey sign-in", r.StatusCode)
			}
			if s, _ := a.store.GetAuthenticator(t.Context(), got.CredentialID); s.Counter != 2 {
				t.Fatalf("stored counter = %d after a sign-in with 2", s.Counter)
			}
		})
	}
}

// TestPasskeySignUp: with SignUp, a new user registers with an e-mail
// address; a taken address is refused and never linked.
func TestPasskeySignUp(t *testing.T) {
	a := newPasskeyApp(t, []providers.Provider{passkey.New(passkey.WebAuthnConfig{SignUp: true})}, nil)
	b := newBrowser(t)
	k := newSoftKey(a, virtualwebauthn.AuthenticatorOptions{})
	if status, msg := b.options(a, "passkey", "action=register"); status != http.StatusBadRequest || msg != "Invalid request" {
		t.Fatalf("sign-up options without an address = %d %q", status, msg)
	}
	id := wantSignedIn(t, b, a, b.register(a, "passkey", "email=Carol@Example.com", k), "sign-up")
	u, err := a.store.GetUser(t.Context(), id)
	if err != nil || u.Email != "carol@example.com" || u.EmailVerified != nil {
		t.Fatalf("new user = %+v, %v; want carol@example.com, unverified", u, err)
	}
	b.signOut(a.app)
	if got := wantSignedIn(t, b, a, b.authenticate(a, "passkey", k), "authenticate"); got != id {
		t.Fatalf("signed in as %q, want %q", got, id)
	}

	// alice exists (she signed in with dev); signing up with her address
	// is refused, and no user or passkey is added.
	alice := newBrowser(t)
	alice.SignIn(a.app.auth, "dev", "/")
	stranger := newBrowser(t)
	wantRefused(t, stranger, a, stranger.register(a, "passkey", "email=alice@example.com", newSoftKey(a, virtualwebauthn.AuthenticatorOptions{})), "AccountNotLinked", "email_in_use")
	au, _ := a.store.GetUserByEmail(t.Context(), "alice@example.com")
	if list, _ := a.store.ListAuthenticatorsByUserID(t.Context(), au.ID); len(list) != 0 {
		t.Fatalf("alice has passkeys she never made: %v", list)
	}
}

// TestPasskeyRefusals: each defence refuses the response it exists for.
func TestPasskeyRefusals(t *testing.T) {
	a := newPasskeyApp(t, []providers.Provider{
		passkey.New(passkey.WebAuthnConfig{}),
		passkey.WebAuthn(passkey.WebAuthnConfig{}),
	}, nil)

	// One user with a counting passkey, one with a passkey that does not
	// count (as synced passkeys do).
	counting := newSoftKey(a, virtualwebauthn.AuthenticatorOptions{})
	counting.cred.Counter = 5
	zero := newSoftKey(a, virtualwebauthn.AuthenticatorOptions{})
	for _, k := range []*softKey{counting, zero} {
		b := newBrowser(t)
		b.SignIn(a.app.auth, "dev", "/")
		wantSignedIn(t, b, a, b.register(a, "passkey", "", k), "register")
	}

	t.Run("replayed assertion", func(t *testing.T) {
		b := newBrowser(t)
		data := b.assertion(a, "passkey", zero)
		form := url.Values{"action": {"authenticate"}, "data": {data}, "csrfToken": {b.CSRF(a.app.auth)}}
		u, _ := url.Parse(a.url)
		cookies := b.Client.Jar.Cookies(u) // the challenge and CSRF cookies
		wantSignedIn(t, b, a, b.Post(a.url+"/auth/callback/passkey", form), "first use")
		// The same request again, from an attacker who recorded it.
		req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/callback/passkey", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for _, c := range cookies {
			req.AddCookie(c)
		}
		attacker := newBrowser(t)
		resp := attacker.Do(req)
		wantRefused(t, attacker, a, resp, "WebAuthnVerificationError", "challenge_reused")
		if setsSession(resp) {
			t.Fatal("the replay got a session cookie")
		}
	})

	t.Run("cloned authenticator", func(t *testing.T) {
		b := newBrowser(t)
		counting.cred.Counter = 6
		wantSignedIn(t, b, a, b.authenticate(a, "passkey", counting), "counter 6")
		// A copy of the key that is behind, or level: refused.
		for _, c := range []uint32{6, 3} {
			counting.cred.Counter = c
			clone := newBrowser(t)
			wantRefused(t, clone, a, clone.authenticate(a, "passkey", counting), "WebAuthnVerificationError", "counter_regression")
		}
		counting.cred.Counter = 7
		wantSignedIn(t, b, a, b.authenticate(a, "passkey", counting), "counter 7")
	})

	t.Run("wrong origin", func(t *testing.T) {
		b := newBrowser(t)
		evil := *zero
		evil.rp.Origin = "http://evil.localhost:1"
		wantRefused(t, b, a, b.authenticate(a, "passkey", &evil), "WebAuthnVerificationError", "verification_error")
		if !strings.Contains(a.log(), "origin") {
			t.Fatalf("the log does not name the origin:\n%s", a.log())
		}
	})

	t.Run("wrong RP id", func(t *testing.T) {
		b := newBrowser(t)
		evil := *zero
		evil.rp.ID = "evil.example"
		wantRefused(t, b, a, b.authenticate(a, "passkey", &evil), "WebAuthnVerificationError", "verification_error")
	})

	t.Run("user not verified", func(t *testing.T) {
		b := newBrowser(t)
		lax := *zero
		lax.auth.Options.UserNotVerified = true
		// The passkey provider requires user verification...
		wantRefused(t, b, a, b.authenticate(a, "passkey", &lax), "WebAuthnVerificationError", "verification_error")
		// ...the webauthn provider only prefers it.
		wantSignedIn(t, b, a, b.authenticate(a, "webauthn", &lax), "webauthn, UV preferred")
	})

	t.Run("unknown credential", func(t *testing.T) {
		b := newBrowser(t)
		stranger := newSoftKey(a, virtualwebauthn.AuthenticatorOptions{UserHandle: []byte("someone")})
		wantRefused(t, b, a, b.authenticate(a, "passkey", stranger), "WebAuthnVerificationError", "unknown_credential")
	})

	t.Run("challenge of another provider", func(t *testing.T) {
		b := newBrowser(t)
		data := b.assertion(a, "webauthn", zero) // the cookie is the webauthn provider's
		resp := b.Post(a.url+"/auth/callback/passkey", url.Values{"action": {"authenticate"}, "data": {data}, "csrfToken": {b.CSRF(a.app.auth)}})
		wantRefused(t, b, a, resp, "WebAuthnVerificationError", "webauthn_wrong_provider")
	})

	t.Run("challenge of another action", func(t *testing.T) {
		b := newBrowser(t)
		data := b.assertion(a, "passkey", zero)
		resp := b.Post(a.url+"/auth/callback/passkey", url.Values{"action": {"register"}, "data": {data}, "csrfToken": {b.CSRF(a.app.auth)}})
		wantRefused(t, b, a, resp, "WebAuthnVerificationError", "wrong_action")
	})

	t.Run("no challenge cookie", func(t *testing.T) {
		b := newBrowser(t)
		data := b.assertion(a, "passkey", zero)
		fresh := newBrowser(t)
		resp := fresh.Post(a.url+"/auth/callback/passkey", url.Values{"action": {"authenticate"}, "data": {data}, "csrfToken": {fresh.CSRF(a.app.auth)}})
		wantRefused(t, fresh, a, resp, "WebAuthnVerificationError", "webauthn_cookie_missing")
	})

	t.Run("missing CSRF token", func(t *testing.T) {
		b := newBrowser(t)
		data := b.assertion(a, "passkey", zero)
		resp := b.Post(a.url+"/auth/callback/passkey", url.Values{"action": {"authenticate"}, "data": {data}})
		wantRefused(t, b, a, resp, "MissingCSRF", "csrf")
	})

	t.Run("registration for a user who signed out", func(t *testing.T) {
		b := newBrowser(t)
		b.SignIn(a.app.auth, "dev", "/")
		status, raw := b.options(a, "passkey", "action=register")
		if status != http.StatusOK {
			t.Fatalf("options: %d %s", status, raw)
		}
		opts, _ := virtualwebauthn.ParseAttestationOptions(raw)
		k := newSoftKey(a, virtualwebauthn.AuthenticatorOptions{})
		data := virtualwebauthn.CreateAttestationResponse(k.rp, k.auth, k.cred, *opts)
		b.signOut(a.app)
		resp := b.Post(a.url+"/auth/callback/passkey", url.Values{"action": {"register"}, "data": {data}, "csrfToken": {b.CSRF(a.app.auth)}})
		// The ceremony is bound to the session that asked for it (finish.go).
		resp.Body.Close()
		loc, _ := url.Parse(resp.Header.Get("Location"))
		if q := loc.Query(); resp.StatusCode != http.StatusSeeOther || loc.Path != "/auth/error" || q.Get("error") != "AccountLinkMismatch" || q.Get("code") != "session_mismatch" {
			t.Fatalf("answered %d to %q, want the error page with AccountLinkMismatch (session_mismatch)", resp.StatusCode, loc)
		}
		if setsSession(resp) {
			t.Fatal("a refused response set a session cookie")
		}
	})

	t.Run("bad action", func(t *testing.T) {
		b := newBrowser(t)
		if status, msg := b.options(a, "passkey", "action=delete"); status != http.StatusBadRequest || msg != "Invalid action" {
			t.Fatalf("options with a bad action = %d %q", status, msg)
		}
	})
}

// TestPasskeySignUpRefusesDangerousLinking: sign-up stores unverified
// addresses, so no OAuth provider may link by address next to it.
func TestPasskeySignUpRefusesDangerousLinking(t *testing.T) {
	_, err := gatehouse.New(gatehouse.Config{
		Secret:  []string{testSecret},
		Adapter: memory.New(),
		Providers: []providers.Provider{
			providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Dev", Type: providers.TypeOIDC, Issuer: "https://op.example", ClientID: "c", AllowDangerousEmailAccountLinking: true},
			passkey.New(passkey.WebAuthnConfig{SignUp: true}),
		},
	})
	if err == nil || !strings.Contains(err.Error(), "SignUp") {
		t.Fatalf("New = %v, want a SignUp configuration error", err)
	}
	_, err = gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{passkey.New(passkey.WebAuthnConfig{})}})
	if err == nil || !strings.Contains(err.Error(), "AuthenticatorAdapter") {
		t.Fatalf("New without an adapter = %v, want an Adapter configuration error", err)
	}
	for _, second := range []providers.Provider{
		passkey.New(passkey.WebAuthnConfig{}),
		providers.OAuthConfig[profile.Claims]{ID: "passkey", Name: "Dev", Type: providers.TypeOIDC, Issuer: "https://op.example", ClientID: "c"},
	} {
		_, err = gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Adapter: memory.New(),
			Providers: []providers.Provider{passkey.New(passkey.WebAuthnConfig{}), second}})
		if err == nil || !strings.Contains(err.Error(), "two providers") {
			t.Fatalf("New with two providers of id passkey = %v, want an id configuration error", err)
		}
	}
}

// TestPasskeyProvidersJSON: the passkey provider is listed with type
// webauthn.
func TestPasskeyProvidersJSON(t *testing.T) {
	a := newPasskeyApp(t, []providers.Provider{passkey.New(passkey.WebAuthnConfig{})}, nil)
	resp := newBrowser(t).Get(a.url + "/auth/providers")
	defer resp.Body.Close()
	var m map[string]providers.AppProvider
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	p := m["passkey"]
	if p.Type != providers.TypeWebAuthn || p.Name != "Passkey" || p.CallbackURL != a.url+"/auth/callback/passkey" {
		t.Fatalf("providers[passkey] = %+v", p)
	}
	// Its signinUrl, posted to as for other providers, leads to the
	// sign-in page, where the passkey script runs (Auth.js).
	b := newBrowser(t)
	r := b.Post(p.SigninURL, url.Values{"csrfToken": {b.CSRF(a.app.auth)}})
	r.Body.Close()
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != a.url+"/auth/signin" {
		t.Fatalf("POST %s answered %d to %q", p.SigninURL, r.StatusCode, r.Header.Get("Location"))
	}
}

// TestPasskeySignInPage: the built-in sign-in page offers the passkey
// with conditional UI, and its CSP allows exactly its one script and
// fetches to its own origin.
func TestPasskeySignInPage(t *testing.T) {
	a := newPasskeyApp(t, []providers.Provider{passkey.New(passkey.WebAuthnConfig{SignUp: true})}, nil)
	b := newBrowser(t)
	resp := b.Get(a.url + "/auth/signin?callbackUrl=%2Fprivate")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := string(body)
	for _, want := range []string{
		`data-webauthn data-options="/auth/webauthn-options/passkey" data-callback="/auth/callback/passkey" data-conditional="true"`,
		`autocomplete="username webauthn"`,
		`data-action="authenticate">Sign in with Passkey</button>`,
		`data-action="register">`,
		`Sign in with Development`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the sign-in page lacks %q", want)
		}
	}
	if strings.Contains(page, " onclick=") || strings.Contains(page, " onsubmit=") {
		t.Error("the sign-in page has inline event handlers")
	}
	start := strings.Index(page, "<script>")
	end := strings.Index(page, "</script>")
	if start < 0 || end < start || strings.Count(page, "<script") != 1 {
		t.Fatalf("want exactly one inline script")
	}
	js := page[start+len("<script>") : end]
	sum := sha256.Sum256([]byte(js))
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Fatalf("CSP %q does not allow the page's script by its hash", csp)
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Fatalf("CSP %q is not strict", csp)
	}

	// The same script, for the application's own pages.
	resp = b.Get(a.url + "/auth/webauthn.js")
	served, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(served) != js || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Fatalf("GET /auth/webauthn.js = %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(served))
	}
}

// TestPasskeySignInHelper: {{signIn "passkey"}} renders the form that
// {base}/webauthn.js runs, with the same routes as the built-in page's
// passkey form and the request's CSRF token.
func TestPasskeySignInHelper(t *testing.T) {
	a := newPasskeyApp(t, []providers.Provider{passkey.New(passkey.WebAuthnConfig{})}, nil)
	tmpl := template.Must(template.New("t").Funcs(a.h.FuncMap()).Parse(`{{signIn "passkey"}}|{{csrfToken}}`))
	req := httptest.NewRequest(http.MethodGet, a.url+"/account?tab=1", nil)
	var out strings.Builder
	a.h.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := a.h.Execute(w, r, tmpl, nil); err != nil {
			t.Fatal(err)
		}
	})).ServeHTTP(&recorderTo{w: &out, h: http.Header{}}, req)
	form, token, ok := strings.Cut(out.String(), "|")
	if !ok || token == "" {
		t.Fatalf("helper output %q has no CSRF token", out.String())
	}
	for _, want := range []string{
		`action="/auth/callback/passkey" data-webauthn data-options="/auth/webauthn-options/passkey" data-callback="/auth/callback/passkey"`,
		`name="csrfToken" value="` + token + `"`,
		`name="callbackUrl" value="/account?tab=1"`,
		`data-action="authenticate">Sign in with Passkey</button>`,
		`data-webauthn-message`,
	} {
		if !strings.Contains(form, want) {
			t.Errorf("signIn \"passkey\" lacks %s:\n%s", want, form)
		}
	}
	if err := template.Must(template.New("t").Funcs(a.h.FuncMap()).Parse(`{{signIn "nope"}}`)).Funcs(a.h.Funcs(req)).Execute(io.Discard, nil); err == nil {
		t.Error("signIn of an unknown provider rendered without an error")
	}
}

// recorderTo is a ResponseWriter writing its body to w.
type recorderTo struct {
	w io.Writer
	h http.Header
}

func (r *recorderTo) Header() http.Header         { return r.h }
func (r *recorderTo) Write(p []byte) (int, error) { return r.w.Write(p) }
func (r *recorderTo) WriteHeader(int)             {}

// enrol turns two-factor sign-in on for b's user, or fails the test.
func enrol(t *testing.T, a *app, b *browser) {
	t.Helper()
	post := func(action string, form url.Values) map[string]any {
		form.Set("csrfToken", b.CSRF(a.auth))
		resp := b.Post(a.url+"/auth/two-factor/"+action, form)
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("two-factor %s: %d %v", action, resp.StatusCode, err)
		}
		return out
	}
	secret, _ := post("enroll", url.Values{})["secret"].(string)
	code, err := twofactor.TOTP{}.Code(secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if c := post("confirm", url.Values{"code": {code}}); c["enabled"] != true {
		t.Fatalf("confirm: %v", c)
	}
}

// TestTwoFactorPasskey: a passkey whose authenticator verified the user
// (UV) is two factors and signs in without a code; one without UV (the
// webauthn provider only prefers it) stops at the code form.
func TestTwoFactorPasskey(t *testing.T) {
	a := newPasskeyApp(t, []providers.Provider{passkey.WebAuthn(passkey.WebAuthnConfig{})}, func(cfg *gatehouse.Config) {
		cfg.TwoFactor = twofactor.SignIn{}
	})
	key := newSoftKey(a, virtualwebauthn.AuthenticatorOptions{})
	owner := newBrowser(t)
	owner.SignIn(a.app.auth, "dev", "/")
	wantSignedIn(t, owner, a, owner.register(a, "webauthn", "", key), "register")
	enrol(t, a.app, owner)

	b := newBrowser(t)
	wantSignedIn(t, b, a, b.authenticate(a, "webauthn", key), "a passkey with UV")

	lax := *key
	lax.auth.Options.UserNotVerified = true
	c := newBrowser(t)
	resp := c.authenticate(a, "webauthn", &lax)
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != a.url+"/auth/two-factor" {
		t.Fatalf("a passkey without UV: %d to %q, want the code form", resp.StatusCode, loc)
	}
	if c.Session(a.app.auth) != nil {
		t.Fatal("a session from a passkey without UV and no code")
	}
}

// TestAttackPasskeyCeremonyOtherSession: a passkey authentication is
// finished only in the session that asked for its options. The attacker
// asks for the options in their own browser, makes the assertion with
// their own passkey, and plants the challenge cookie and a CSRF pair in
// the victim's browser, which posts the assertion. These POSTs carry no
// Sec-Fetch-Site or Origin, so they pass the same-origin check (which
// refuses such a POST from a sibling subdomain or another site) and test
// the binding under it. Failed without the binding's check in
// completePasskey: the signed-out victim was signed in as the attacker
// (into a signed-in victim, checkSameUser still refused, with
// signed_in_as_other_user).
func TestAttackPasskeyCeremonyOtherSession(t *testing.T) {
	a := newPasskeyApp(t, []providers.Provider{passkey.New(passkey.WebAuthnConfig{SignUp: true})}, nil)
	attacker := newBrowser(t)
	key := newSoftKey(a, virtualwebauthn.AuthenticatorOptions{})
	malloryID := wantSignedIn(t, attacker, a, attacker.register(a, "passkey", "email=mallory@example.com", key), "the attacker's sign-up")

	// finishIn runs the ceremony in the attacker's browser and finishes it
	// in the victim's.
	finishIn := func(t *testing.T, victim *browser) {
		t.Helper()
		data := attacker.assertion(a, "passkey", key)
		plantCookie(t, a.app, attacker, victim, "authjs.challenge")
		token := attacker.CSRF(a.app.auth)
		plantCookie(t, a.app, attacker, victim, "authjs.csrf-token")
		resp := victim.Post(a.url+"/auth/callback/passkey", url.Values{"action": {"authenticate"}, "data": {data}, "csrfToken": {token}, "callbackUrl": {"/private"}})
		if setsSession(resp) {
			t.Error("the refused ceremony set a session cookie")
		}
		resp = victim.Follow(resp)
		resp.Body.Close()
		if u := resp.Request.URL; u.Path != "/auth/error" || u.Query().Get("error") != string(gatehouse.AccountLinkMismatch) || u.Query().Get("code") != "session_mismatch" {
			t.Fatalf("ended on %s (status %d), want the error page with AccountLinkMismatch (session_mismatch)", u, resp.StatusCode)
		}
	}

	t.Run("options in a signed-in session, finished signed out", func(t *testing.T) {
		victim := newBrowser(t)
		victim.CSRF(a.app.auth) // the victim has visited the site
		finishIn(t, victim)
		if id := victim.userID(a.app); id != "" {
			t.Fatalf("the victim was signed in as %q (the attacker is %q)", id, malloryID)
		}
	})

	t.Run("options signed out, finished in a signed-in session", func(t *testing.T) {
		attacker.signOut(a.app)
		victim := newBrowser(t)
		victim.SignIn(a.app.auth, "dev", "/")
		before := victim.userID(a.app)
		finishIn(t, victim)
		if got := victim.userID(a.app); got != before || got == "" {
			t.Fatalf("the victim's session changed: %q, want %q", got, before)
		}
		if list, _ := a.store.ListAuthenticatorsByUserID(t.Context(), before); len(list) != 0 {
			t.Fatalf("the victim's user has passkeys: %v", list)
		}
	})

	// In the session that asked for the options, the same passkey signs in.
	if id := wantSignedIn(t, attacker, a, attacker.authenticate(a, "passkey", key), "the attacker's own ceremony"); id != malloryID {
		t.Fatalf("signed in as %q, want %q", id, malloryID)
	}
}

// The fuzzer and the benchmark call a Handler directly, as one client
// whose CSRF pair and challenge cookies they hold.

const site = "http://localhost:3000"

// passkeyHandler is a Handler for site with the passkey provider, the
// memory adapter, and no rate limit: one client sending thousands of
// requests would be answered 429 (the limit is tested elsewhere).
func passkeyHandler(tb testing.TB, pk passkey.WebAuthnConfig) *gatehouse.Handler {
	h, err := gatehouse.New(gatehouse.Config{
		Secret:    []string{testSecret},
		URL:       site + "/auth",
		Adapter:   memory.New(),
		Providers: []providers.Provider{passkey.New(pk)},
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		RateLimit: limit.None{},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

// handlerClient is a client of a Handler with its CSRF pair.
type handlerClient struct {
	tb    testing.TB
	h     http.Handler
	token string
	csrf  *http.Cookie
}

func newHandlerClient(tb testing.TB, h http.Handler) *handlerClient {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, site+"/auth/csrf", nil))
	c := &handlerClient{tb: tb, h: h}
	var v struct{ CSRFToken string }
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		tb.Fatalf("csrf: %d %s", rec.Code, rec.Body)
	}
	c.token = v.CSRFToken
	for _, k := range rec.Result().Cookies() {
		if k.Name == "authjs.csrf-token" {
			c.csrf = k
		}
	}
	if c.token == "" || c.csrf == nil {
		tb.Fatalf("csrf: no token or cookie: %d %s", rec.Code, rec.Body)
	}
	return c
}

// options asks for the passkey provider's options (query names the
// action) and returns the challenge cookie and the options JSON.
func (c *handlerClient) options(query string) (*http.Cookie, string) {
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, site+"/auth/webauthn-options/passkey?"+query, nil))
	var v struct{ Options json.RawMessage }
	_ = json.Unmarshal(rec.Body.Bytes(), &v)
	for _, k := range rec.Result().Cookies() {
		if k.Name == "authjs.challenge" && len(v.Options) > 0 {
			return k, string(v.Options)
		}
	}
	c.tb.Fatalf("options %s: %d %s", query, rec.Code, rec.Body)
	return nil, ""
}

// callback posts the passkey callback with the challenge cookie.
func (c *handlerClient) callback(challenge *http.Cookie, action, data string) *httptest.ResponseRecorder {
	form := url.Values{"action": {action}, "data": {data}, "csrfToken": {c.token}}
	req := httptest.NewRequest(http.MethodPost, site+"/auth/callback/passkey", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(challenge)
	req.AddCookie(c.csrf)
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	return rec
}

// FuzzPasskeyCallback: whatever credential JSON and action arrive with a
// valid challenge cookie and CSRF token, the callback answers with a
// redirect to an error, never a session, and never panics.
func FuzzPasskeyCallback(f *testing.F) {
	c := newHandlerClient(f, passkeyHandler(f, passkey.WebAuthnConfig{}))
	challenge, raw := c.options("action=authenticate")

	// Seeds: a well-formed assertion (for a credential nobody registered),
	// and shapes near it.
	opts, err := virtualwebauthn.ParseAssertionOptions(raw)
	if err != nil {
		f.Fatalf("options %s: %v", raw, err)
	}
	rp := virtualwebauthn.RelyingParty{Name: "localhost", ID: "localhost", Origin: site}
	k := virtualwebauthn.NewAuthenticatorWithOptions(virtualwebauthn.AuthenticatorOptions{UserHandle: []byte("someone")})
	good := virtualwebauthn.CreateAssertionResponse(rp, k, testCredential(), *opts)
	f.Add("authenticate", good)
	f.Add("register", good)
	f.Add("authenticate", `{}`)
	f.Add("authenticate", `{"id":"","rawId":"","type":"public-key","response":{}}`)
	f.Add("", "null")

	f.Fuzz(func(t *testing.T, action, data string) {
		rec := c.callback(challenge, action, data)
		loc := rec.Header().Get("Location")
		if rec.Code != http.StatusSeeOther || !strings.Contains(loc, "error=") {
			t.Fatalf("answered %d to %q", rec.Code, loc)
		}
		if setsSession(rec.Result()) {
			t.Fatalf("a fuzzed response got a session")
		}
	})
}

// BenchmarkPasskeySignIn measures the server side of one passkey sign-in:
// GET webauthn-options (challenge made and sealed) and POST callback
// (cookie opened, assertion verified, counter updated, session issued),
// with the memory adapter and the database session strategy. The
// authenticator's signing runs with the timer stopped.
func BenchmarkPasskeySignIn(b *testing.B) {
	c := newHandlerClient(b, passkeyHandler(b, passkey.WebAuthnConfig{SignUp: true}))
	rp := virtualwebauthn.RelyingParty{Name: "localhost", ID: "localhost", Origin: site}
	key := virtualwebauthn.NewAuthenticator()
	cred := testCredential()
	callback := func(challenge *http.Cookie, action, data string) {
		rec := c.callback(challenge, action, data)
		if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || strings.Contains(loc, "error") {
			b.Fatalf("%s: %d %s", action, rec.Code, loc)
		}
	}

	challenge, raw := c.options("action=register&email=bench@example.com")
	ao, err := virtualwebauthn.ParseAttestationOptions(raw)
	if err != nil {
		b.Fatal(err)
	}
	callback(challenge, "register", virtualwebauthn.CreateAttestationResponse(rp, key, cred, *ao))
	key.Options.UserHandle = []byte(ao.UserID)

	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		challenge, raw := c.options("action=authenticate")
		b.StopTimer()
		opts, err := virtualwebauthn.ParseAssertionOptions(raw)
		if err != nil {
			b.Fatal(err)
		}
		cred.Counter++
		data := virtualwebauthn.CreateAssertionResponse(rp, key, cred, *opts)
		b.StartTimer()
		callback(challenge, "authenticate", data)
	}
}
