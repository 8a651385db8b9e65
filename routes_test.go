package gatehouse_test

import (
	"context"
	"encoding/json"
	"errors"
	"html"
	"html/template"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/mounttest"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
	"github.com/go-chi/chi/v5"
)

// TestWrongRequests: a path under the base path that is no route answers
// 404, a route asked with the wrong method 405 with Allow; a browser
// (Accept: text/html) gets a small page in the built-in look, anything
// else JSON. Failed before: both were 400 "Bad request." JSON, to a
// browser too, and without Allow.
func TestWrongRequests(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, c := range []struct {
		method, path, allow string
		status              int
	}{
		{"GET", "/auth/nope", "", 404},
		{"GET", "/auth/", "", 404},
		{"GET", "/auth", "", 404},
		{"GET", "/auth/signin/dev/more", "", 404},
		{"GET", "/auth/nobody/signup", "", 404},    // no password-accounts provider "nobody"
		{"GET", "/auth/two-factor/setup", "", 404}, // two-factor sign-in is off
		{"POST", "/auth/two-factor/bogus", "", 404},
		{"PUT", "/auth/session", "GET, POST", 405},
		{"POST", "/auth/csrf", "GET", 405},
		{"DELETE", "/auth/signin/dev", "GET, POST", 405},
		{"GET", "/auth/backchannel-logout/dev", "POST", 405},
	} {
		for _, html := range []bool{false, true} {
			req := httptest.NewRequest(c.method, a.url+c.path, nil)
			if html {
				req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
			}
			rec := httptest.NewRecorder()
			a.h.ServeHTTP(rec, req)
			if rec.Code != c.status || rec.Header().Get("Allow") != c.allow {
				t.Errorf("%s %s (html %v): %d Allow %q, want %d Allow %q", c.method, c.path, html, rec.Code, rec.Header().Get("Allow"), c.status, c.allow)
			}
			ct := rec.Header().Get("Content-Type")
			if html {
				if !strings.HasPrefix(ct, "text/html") || rec.Header().Get("Content-Security-Policy") == "" ||
					!strings.Contains(rec.Body.String(), "<title>") || !strings.Contains(rec.Body.String(), "/auth/signin") {
					t.Errorf("%s %s to a browser: %s %q", c.method, c.path, ct, rec.Body)
				}
				continue
			}
			var v struct{ Message string }
			if ct != "application/json" || json.Unmarshal(rec.Body.Bytes(), &v) != nil || v.Message == "" {
				t.Errorf("%s %s: %s %q, want a JSON message", c.method, c.path, ct, rec.Body)
			}
		}
	}
}

// TestTwoFactorOff: with two-factor sign-in off, its step sends the
// browser to sign in (GET and POST, whatever the cookies say) and makes
// no session; its settings are not there.
func TestTwoFactorOff(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, method := range []string{"GET", "POST"} {
		req := httptest.NewRequest(method, a.url+"/auth/two-factor", strings.NewReader("code=123456"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: "authjs.two-factor", Value: "sealed"})
		rec := httptest.NewRecorder()
		a.h.ServeHTTP(rec, req)
		if loc := rec.Header().Get("Location"); rec.Code/100 != 3 || loc != a.url+"/auth/signin" || len(rec.Result().Cookies()) != 0 {
			t.Errorf("%s /auth/two-factor: %d Location %q, cookies %v", method, rec.Code, loc, rec.Result().Cookies())
		}
	}
	rec := httptest.NewRecorder()
	a.h.ServeHTTP(rec, httptest.NewRequest("POST", a.url+"/auth/two-factor/enroll", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("POST /auth/two-factor/enroll: %d, want 404", rec.Code)
	}
}

// TestSignInPageOfProvider: GET {base}/signin/{provider} is the sign-in
// page with that provider alone; an id of no provider gets the whole page.
// Failed before: 400 "Bad request.".
func TestSignInPageOfProvider(t *testing.T) {
	a := newApp(t, authtest.Options{}, moreProviders(2))
	page := func(path string) string {
		t.Helper()
		resp := newBrowser(t).Get(a.url + path)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		return string(body)
	}
	if p := page("/auth/signin/dev"); !strings.Contains(p, "/auth/signin/dev") || strings.Contains(p, "/auth/signin/p001") {
		t.Errorf("the page of dev does not show dev alone:\n%s", p)
	}
	if p := page("/auth/signin/p001"); strings.Contains(p, "/auth/signin/dev") || !strings.Contains(p, "/auth/signin/p001") {
		t.Errorf("the page of p001 does not show p001 alone:\n%s", p)
	}
	if p := page("/auth/signin/nobody"); !strings.Contains(p, "/auth/signin/dev") || !strings.Contains(p, "/auth/signin/p001") {
		t.Errorf("the page of an unknown id does not show every provider:\n%s", p)
	}
}

// mountStyle is one way an application mounts the Handler: mux (on an
// http.ServeMux) or chi (on a chi router) mounts auth (the Handler) at
// base; the test adds the application's pages private (behind Require)
// and page (a template with {{ signIn }}) at /private and /page, the
// patterns starting with method when it is set.
type mountStyle struct {
	name, base, method string
	mux                func(mux *http.ServeMux, auth http.Handler)
	chi                func(r chi.Router, auth http.Handler)
}

// TestMount: the Handler mounted in each way a Go application mounts a
// handler (http.ServeMux with "/auth/" and "/auth/{rest...}",
// http.StripPrefix, chi's Mount at the root and inside Route) serves a
// whole sign-in through the in-process provider, the session JSON, a page
// behind Require and a template's {{ signIn }} form, with every link it
// makes on Config.URL's base path. Failed before: with StripPrefix and
// chi's Mount, /auth/providers, /auth/session and /auth/csrf answered
// 400 "Bad request.": the Handler's router read the outer chi router's
// route context, or expected the base path in the path.
func TestMount(t *testing.T) {
	for _, s := range []mountStyle{
		{name: "ServeMux", base: "/auth", mux: func(mux *http.ServeMux, auth http.Handler) { mux.Handle("/auth/", auth) }},
		{name: "ServeMux-wildcard", base: "/auth", method: "GET ", mux: func(mux *http.ServeMux, auth http.Handler) { mux.Handle("/auth/{rest...}", auth) }},
		{name: "StripPrefix", base: "/auth", mux: func(mux *http.ServeMux, auth http.Handler) { mux.Handle("/auth/", http.StripPrefix("/auth", auth)) }},
		{name: "chi-Mount", base: "/auth", chi: func(r chi.Router, auth http.Handler) { r.Mount("/auth", auth) }},
		{name: "chi-Handle", base: "/auth", chi: func(r chi.Router, auth http.Handler) { r.Handle("/auth/*", auth) }},
		{name: "chi-Route-Mount", base: "/api/auth", chi: func(r chi.Router, auth http.Handler) {
			r.Route("/api", func(r chi.Router) {
				r.Get("/health", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
				r.Mount("/auth", auth)
			})
		}},
		{name: "chi-Route-StripPrefix", base: "/api/auth", chi: func(r chi.Router, auth http.Handler) {
			r.Route("/api", func(r chi.Router) { r.Handle("/auth/*", http.StripPrefix("/api/auth", auth)) })
		}},
	} {
		t.Run(s.name, func(t *testing.T) {
			mounttest.Check(t, s.base, func(auth *gatehouse.Handler, private, page http.Handler) http.Handler {
				var r interface {
					http.Handler
					Handle(pattern string, h http.Handler)
				}
				if s.mux != nil {
					mux := http.NewServeMux()
					s.mux(mux, auth)
					r = mux
				} else {
					cr := chi.NewRouter()
					s.chi(cr, auth)
					r = cr
				}
				r.Handle(s.method+"/private", private)
				r.Handle(s.method+"/page", page)
				return auth.Middleware(r)
			})
		})
	}
}

// TestMountedPathRule: a path that still starts with the base path has it
// removed, any other is taken as already below it, and New refuses a base
// path that a stripped path could be taken for (one a route's path is or
// starts with, a password-accounts provider's id among them).
func TestMountedPathRule(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for path, status := range map[string]int{
		"/auth/providers":      200, // whole
		"/providers":           200, // stripped
		"/auth/auth/providers": 404, // the base path is removed once
		"/elsewhere/providers": 404,
	} {
		rec := httptest.NewRecorder()
		a.h.ServeHTTP(rec, httptest.NewRequest("GET", a.url+path, nil))
		if rec.Code != status {
			t.Errorf("GET %s: %d %s, want %d", path, rec.Code, rec.Body, status)
		}
	}
	for _, c := range []struct {
		base  string
		provs []providers.Provider
	}{
		{"/session", nil},
		{"/signin/x", nil},
		{"/two-factor", nil},
		{"/members", []providers.Provider{passwordaccount.Config{ID: "members",
			Send: func(context.Context, passwordaccount.Message) error { return nil }}}},
	} {
		cfg := gatehouse.Config{Secret: []string{testSecret}, URL: "http://localhost" + c.base, Adapter: memory.New(),
			Providers: append([]providers.Provider{devProvider(a.op)}, c.provs...)}
		_, err := gatehouse.New(cfg)
		var ce *gatehouse.ConfigError
		if !errors.As(err, &ce) || ce.Field != "BasePath" {
			t.Errorf("New with BasePath %s: %v, want a BasePath ConfigError", c.base, err)
		}
	}
	// No route's path is, or starts with, these.
	for _, base := range []string{"/accounts/auth", "/session/auth", "/members/auth", "/api/auth"} {
		if _, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, URL: "http://localhost" + base, Adapter: memory.New(),
			Providers: []providers.Provider{devProvider(a.op), passwordaccount.Config{ID: "members",
				Send: func(context.Context, passwordaccount.Message) error { return nil }}}}); err != nil {
			t.Errorf("New with BasePath %s: %v", base, err)
		}
	}
}

// TestSignInHelperMatchesPage: the {{signIn "dev"}} form on the
// application's own page and the built-in sign-in page's button post the
// same fields (the CSRF token and the callback URL) to the same route,
// and the route accepts either with the same answer: a redirect to the
// provider.
func TestSignInHelperMatchesPage(t *testing.T) {
	op := newOP(t, authtest.Options{})
	var h *gatehouse.Handler
	mux := http.NewServeMux()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.Middleware(mux).ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	var err error
	h, err = gatehouse.New(gatehouse.Config{
		Secret: []string{testSecret}, URL: srv.URL + "/auth",
		Providers:  []providers.Provider{devProvider(op)},
		HTTPClient: &http.Client{Timeout: 2 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	tmpl := template.Must(template.New("p").Funcs(h.FuncMap()).Parse(`<html><body>{{signIn "dev"}}</body></html>`))
	mux.Handle("/auth/", h)
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		if err := h.Execute(w, r, tmpl, nil); err != nil {
			t.Error(err)
		}
	})

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(u string) string {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	type form struct {
		action string
		fields url.Values
	}
	formRe := regexp.MustCompile(`(?s)<form[^>]*action="([^"]*/signin/dev)"[^>]*>(.*?)</form>`)
	hiddenRe := regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)
	parse := func(page, what string) form {
		m := formRe.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("%s: no form posting to /signin/dev:\n%s", what, page)
		}
		f := form{action: html.UnescapeString(m[1]), fields: url.Values{}}
		for _, h := range hiddenRe.FindAllStringSubmatch(m[2], -1) {
			f.fields.Add(html.UnescapeString(h[1]), html.UnescapeString(h[2]))
		}
		return f
	}
	get(srv.URL + "/page") // the CSRF cookie
	helper := parse(get(srv.URL+"/page"), "helper")
	page := parse(get(srv.URL+"/auth/signin?callbackUrl="+url.QueryEscape(srv.URL+"/page")), "sign-in page")

	abs := func(s string) string {
		u, _ := url.Parse(srv.URL + "/")
		r, _ := u.Parse(s)
		return r.String()
	}
	if abs(helper.action) != abs(page.action) {
		t.Errorf("actions differ: helper %q, page %q", helper.action, page.action)
	}
	names := func(v url.Values) []string {
		var n []string
		for k := range v {
			n = append(n, k)
		}
		slices.Sort(n)
		return n
	}
	if hn, pn := names(helper.fields), names(page.fields); !slices.Equal(hn, pn) || !slices.Equal(hn, []string{"callbackUrl", "csrfToken"}) {
		t.Errorf("fields differ: helper %v, page %v", hn, pn)
	}
	if helper.fields.Get("csrfToken") != page.fields.Get("csrfToken") {
		t.Errorf("CSRF tokens differ")
	}
	if abs(helper.fields.Get("callbackUrl")) != abs(page.fields.Get("callbackUrl")) {
		t.Errorf("callback URLs differ: helper %q, page %q", helper.fields.Get("callbackUrl"), page.fields.Get("callbackUrl"))
	}
	for _, f := range []form{helper, page} {
		resp, err := c.PostForm(abs(f.action), f.fields)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc, _ := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusSeeOther || loc == nil || loc.Host != mustHost(op.Issuer()) {
			t.Errorf("posting %v: %d to %q, want 303 to the provider", f.fields, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
}

func mustHost(s string) string {
	u, _ := url.Parse(s)
	return u.Host
}

func TestRoutes(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	resp := b.Get(a.url + "/auth/providers")
	var ps map[string]providers.AppProvider
	json.NewDecoder(resp.Body).Decode(&ps)
	resp.Body.Close()
	if p := ps["dev"]; p.Name != "Development" || p.Type != "oidc" || p.SigninURL != a.url+"/auth/signin/dev" || p.CallbackURL != a.url+"/auth/callback/dev" {
		t.Fatalf("providers = %+v", ps)
	}
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/auth/signin", 200},
		{"GET", "/auth/signout", 200},
		{"GET", "/auth/error?error=Configuration", 500},
		{"GET", "/auth/error?error=AccessDenied", 403},
		{"GET", "/auth/verify-request", 404}, // the e-mail provider's page
		{"GET", "/auth/nonsense", 404},
		{"POST", "/auth/csrf", 405},
		{"GET", "/auth/signin/dev", 200},
	} {
		req, _ := http.NewRequest(tc.method, a.url+tc.path, nil)
		r := b.Do(req)
		r.Body.Close()
		if r.StatusCode != tc.status {
			t.Errorf("%s %s = %d, want %d", tc.method, tc.path, r.StatusCode, tc.status)
		}
	}
	// Unknown provider: a specific error, not Configuration.
	resp = b.Post(a.url+"/auth/signin/nope", url.Values{"csrfToken": {b.csrf(a)}})
	if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=UnknownProvider") {
		t.Fatalf("unknown provider went to %q", loc)
	}
	// X-Auth-Return-Redirect: JSON {url} instead of a redirect.
	req, _ := http.NewRequest("POST", a.url+"/auth/signin/dev", strings.NewReader(url.Values{"csrfToken": {b.csrf(a)}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Auth-Return-Redirect", "1")
	r := b.Do(req)
	var v struct{ URL string }
	json.NewDecoder(r.Body).Decode(&v)
	if r.StatusCode != 200 || !strings.HasPrefix(v.URL, a.op.Issuer()+"/authorize?") {
		t.Fatalf("X-Auth-Return-Redirect: %d %q", r.StatusCode, v.URL)
	}
}

// TestRoutesFlat: the routes registered on one router (no mounted
// subrouter) answer as before: an unknown action is 404, a wrong method
// 405 with Allow (JSON to anything but a browser), a known one its own
// answer.
func TestRoutesFlat(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/auth/nope", 404},
		{"PUT", "/auth/session", 405},
		{"GET", "/auth/signin/dev", 200},
		{"GET", "/auth/session", 200},
		{"GET", "/auth/csrf", 200},
		{"GET", "/auth/providers", 200},
		// Near the routes answered without the router (Handler.direct).
		{"HEAD", "/auth/session", 405},
		{"GET", "/auth/session/", 404},
		{"GET", "/auth/providers/", 404},
		{"GET", "/auth//session", 404},
		{"POST", "/auth/providers", 405},
		{"POST", "/auth/signin/", 404},
		{"POST", "/auth/signin/dev/x", 404},
		{"POST", "/auth/signin", 405},
	} {
		req := httptest.NewRequest(c.method, a.url+c.path, nil)
		rec := httptest.NewRecorder()
		a.h.ServeHTTP(rec, req)
		if rec.Code != c.status || c.status >= 400 && rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %d %q, want %d", c.method, c.path, rec.Code, rec.Body, c.status)
		}
	}
}

// TestHelperOptions: signIn and signOut take label, class and
// callbackUrl as key/value pairs; the values are escaped, the
// callbackUrl is kept same-origin, and an unknown key, a key given twice
// or a key without a value fail the template. The one-argument forms
// stay, worded in the request's language.
func TestHelperOptions(t *testing.T) {
	h, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, URL: "https://app.example.com/auth",
		Providers: []providers.Provider{yandex.New(providers.OAuthUserConfig[yandex.Profile]{ClientID: "id", ClientSecret: "secret"})}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(src, lang string) (string, error) {
		t.Helper()
		tmpl := template.Must(template.New("t").Funcs(h.FuncMap()).Parse(src))
		r := httptest.NewRequest(http.MethodGet, "https://app.example.com/page", nil)
		r.Header.Set("Accept-Language", lang)
		w := httptest.NewRecorder()
		err := h.Execute(w, r, tmpl, nil)
		return w.Body.String(), err
	}
	for _, tc := range []struct {
		src, lang string
		want      []string
	}{
		{`{{signIn "yandex" "label" "Go <on> & in" "class" "btn \"big\"" "callbackUrl" "/dashboard?tab=1"}}`, "en", []string{
			`action="/auth/signin/yandex"`, `name="callbackUrl" value="https://app.example.com/dashboard?tab=1"`,
			`<button type="submit" class="btn &#34;big&#34;">Go &lt;on&gt; &amp; in</button>`}},
		{`{{signIn "yandex" "callbackUrl" "https://evil.example/steal"}}`, "en", []string{
			`name="callbackUrl" value="https://app.example.com/"`, `<button type="submit">Sign in with Yandex</button>`}},
		{`{{signIn "yandex" "callbackUrl" "//evil.example/steal"}}`, "en", []string{`name="callbackUrl" value="https://app.example.com/"`}},
		{`{{signIn "yandex"}}`, "de", []string{`name="callbackUrl" value="/page"`, `<button type="submit">Mit Yandex anmelden</button>`}},
		{`{{signOut "label" "Log out" "class" "link"}}`, "en", []string{`action="/auth/signout"`, `<button type="submit" class="link">Log out</button>`}},
		{`{{signOut}}`, "de", []string{`<button type="submit">Abmelden</button>`}},
	} {
		out, err := run(tc.src, tc.lang)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
		}
		for _, want := range tc.want {
			if !strings.Contains(out, want) {
				t.Errorf("%s: output lacks %s:\n%s", tc.src, want, out)
			}
		}
	}
	for src, want := range map[string]string{
		`{{signIn "yandex" "lable" "x"}}`:     `unknown option "lable"`,
		`{{signIn "yandex" "label"}}`:         `"label" has no value`,
		`{{signOut "class" "a" "class" "b"}}`: `option "class" given twice`,
		`{{signIn "nope" "label" "x"}}`:       `no provider "nope"`,
	} {
		if out, err := run(src, "en"); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(out, "<form") {
			t.Errorf("%s: err = %v, output %q; want an error with %s and no form", src, err, out, want)
		}
	}
}

// TestTokenEndpointAuthMethods: the metadata's
// token_endpoint_auth_methods_supported is true of the token endpoint. An
// API key as a bearer token gets a token; the same key sent as a
// registered method would send it (client_secret_basic, the default when
// the field is left out, or client_secret_post) is refused.
func TestTokenEndpointAuthMethods(t *testing.T) {
	store := memory.New()
	ctx := context.Background()
	u, err := store.CreateUser(ctx, adapter.User{Email: "ada@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	full, id, hash := apikey.New(apikey.DefaultPrefix)
	if err := store.CreateAPIKey(ctx, apikey.Key{ID: id, Hash: hash, Name: "ci", UserID: u.ID, CreatedAt: time.Now()}, 0); err != nil {
		t.Fatal(err)
	}
	_, secret, err := apikey.Parse(apikey.DefaultPrefix, full)
	if err != nil {
		t.Fatal(err)
	}
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Adapter = store
		c.MachineAccess = apikey.Enable(apikey.Config{Tokens: &servicetoken.Config{Audiences: []string{"https://api.example.test"}}})
	})

	resp, err := http.Get(a.url + "/auth/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Methods []string `json:"token_endpoint_auth_methods_supported"`
	}
	err = json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if err != nil || len(m.Methods) != 1 || m.Methods[0] != servicetoken.AuthMethodAPIKey {
		t.Fatalf("token_endpoint_auth_methods_supported = %v (%v); want [%s]", m.Methods, err, servicetoken.AuthMethodAPIKey)
	}

	token := func(form url.Values, auth func(*http.Request)) int {
		form.Set("grant_type", servicetoken.GrantType)
		req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/token", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		auth(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := token(url.Values{}, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+full) }); code != http.StatusOK {
		t.Fatalf("the key as a bearer token: %d; want 200", code)
	}
	for name, tc := range map[string]struct {
		form url.Values
		auth func(*http.Request)
	}{
		"client_secret_basic, the key":    {url.Values{}, func(r *http.Request) { r.SetBasicAuth(id, full) }},
		"client_secret_basic, the secret": {url.Values{}, func(r *http.Request) { r.SetBasicAuth(id, secret) }},
		"client_secret_post, the key":     {url.Values{"client_id": {id}, "client_secret": {full}}, func(*http.Request) {}},
		"client_secret_post, the secret":  {url.Values{"client_id": {id}, "client_secret": {secret}}, func(*http.Request) {}},
	} {
		if code := token(tc.form, tc.auth); code != http.StatusUnauthorized {
			t.Errorf("%s: %d; want 401", name, code)
		}
	}
}
