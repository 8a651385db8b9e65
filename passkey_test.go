package gatehouse_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

// pkApp is a site with the in-process OpenID provider "dev" and passkeys,
// served on loopback under the name localhost (WebAuthn needs a domain as
// its RP id, and http://localhost is a secure context).
type pkApp struct{ *app }

func newPasskeyApp(t *testing.T, pk []providers.Provider, mutate func(*gatehouse.Config)) *pkApp {
	t.Helper()
	op := newOP(t, authtest.Options{AutoApprove: true})
	ln := listenLocal(t)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	base := "http://localhost:" + port
	cfg := gatehouse.Config{
		Secret:     []string{testSecret},
		URL:        base + "/auth",
		Adapter:    memory.New(),
		Providers:  append([]providers.Provider{devProvider(op)}, pk...),
		HTTPClient: &http.Client{Timeout: 2 * time.Second},
	}
	if mutate != nil {
		mutate(&cfg)
	}
	h := newHandler(t, cfg)
	srv := serveOn(t, ln, h.Middleware(siteMux(h)), false)
	return &pkApp{&app{t: t, op: op, srv: srv, h: h, url: base}}
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
	resp := newBrowser(t).get(a.url + "/auth/providers")
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
	r := b.post(p.SigninURL, url.Values{"csrfToken": {b.csrf(a.app)}})
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
	resp := b.get(a.url + "/auth/signin?callbackUrl=%2Fprivate")
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
	resp = b.get(a.url + "/auth/webauthn.js")
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
