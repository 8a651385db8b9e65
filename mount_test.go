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
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// mountStyle is one way an application mounts the Handler: site returns
// the application's router with auth (the Handler) at base, and the
// application's pages private (behind Require) and page (a template with
// {{ signIn }}) at /private and /page.
type mountStyle struct {
	name, base string
	site       func(auth, private, page http.Handler) http.Handler
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
		{"ServeMux", "/auth", func(auth, private, page http.Handler) http.Handler {
			mux := http.NewServeMux()
			mux.Handle("/auth/", auth)
			mux.Handle("/private", private)
			mux.Handle("/page", page)
			return mux
		}},
		{"ServeMux-wildcard", "/auth", func(auth, private, page http.Handler) http.Handler {
			mux := http.NewServeMux()
			mux.Handle("/auth/{rest...}", auth)
			mux.Handle("GET /private", private)
			mux.Handle("GET /page", page)
			return mux
		}},
		{"StripPrefix", "/auth", func(auth, private, page http.Handler) http.Handler {
			mux := http.NewServeMux()
			mux.Handle("/auth/", http.StripPrefix("/auth", auth))
			mux.Handle("/private", private)
			mux.Handle("/page", page)
			return mux
		}},
		{"chi-Mount", "/auth", func(auth, private, page http.Handler) http.Handler {
			r := chi.NewRouter()
			r.Mount("/auth", auth)
			r.Handle("/private", private)
			r.Handle("/page", page)
			return r
		}},
		{"chi-Handle", "/auth", func(auth, private, page http.Handler) http.Handler {
			r := chi.NewRouter()
			r.Handle("/auth/*", auth)
			r.Handle("/private", private)
			r.Handle("/page", page)
			return r
		}},
		{"chi-Route-Mount", "/api/auth", func(auth, private, page http.Handler) http.Handler {
			r := chi.NewRouter()
			r.Route("/api", func(r chi.Router) {
				r.Get("/health", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
				r.Mount("/auth", auth)
			})
			r.Handle("/private", private)
			r.Handle("/page", page)
			return r
		}},
		{"chi-Route-StripPrefix", "/api/auth", func(auth, private, page http.Handler) http.Handler {
			r := chi.NewRouter()
			r.Route("/api", func(r chi.Router) {
				r.Handle("/auth/*", http.StripPrefix("/api/auth", auth))
			})
			r.Handle("/private", private)
			r.Handle("/page", page)
			return r
		}},
	} {
		t.Run(s.name, func(t *testing.T) { checkMounted(t, s) })
	}
}

// checkMounted serves the site of s, signs in with the {{ signIn }} form
// of /page, and checks the session, /private and the links the Handler
// made.
func checkMounted(t *testing.T, s mountStyle) {
	ln := listenLocal(t)
	site := "http://" + ln.Addr().String()
	callback := site + s.base + "/callback/dev"
	// The provider knows one redirect URI: the callback on Config.URL.
	op := newOP(t, authtest.Options{AutoApprove: true, RedirectURIs: []string{callback}})
	h := newHandler(t, gatehouse.Config{Secret: []string{testSecret}, URL: site + s.base,
		Providers: []providers.Provider{devProvider(op)}, HTTPClient: &http.Client{Timeout: 2 * time.Second}})
	private := h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello "+gatehouse.SessionFrom(r.Context()).User.Email)
	}))
	tmpl := template.Must(template.New("page").Funcs(h.FuncMap()).Parse(`<html><body>{{ signIn "dev" }}</body></html>`))
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h.Execute(w, r, tmpl, nil); err != nil {
			t.Error(err)
		}
	})
	serveOn(t, ln, h.Middleware(s.site(h, private, page)), false)

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, u string, form url.Values) (*http.Response, string) {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, u, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}

	// The routes answer under the base path, JSON with the base's links.
	resp, body := do("GET", site+s.base+"/providers", nil)
	var ps map[string]providers.AppProvider
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &ps) != nil ||
		ps["dev"].SigninURL != site+s.base+"/signin/dev" || ps["dev"].CallbackURL != callback {
		t.Fatalf("GET %s/providers: %d %s", s.base, resp.StatusCode, body)
	}
	if resp, body := do("GET", site+s.base+"/csrf", nil); resp.StatusCode != 200 || !strings.Contains(body, "csrfToken") {
		t.Fatalf("GET %s/csrf: %d %s", s.base, resp.StatusCode, body)
	}
	if resp, body := do("GET", site+s.base+"/session", nil); resp.StatusCode != 200 || strings.TrimSpace(body) != "null" {
		t.Fatalf("GET %s/session signed out: %d %s", s.base, resp.StatusCode, body)
	}
	if resp, _ := do("GET", site+s.base+"/nope", nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET %s/nope: %d, want 404", s.base, resp.StatusCode)
	}

	// Require sends to the sign-in page on the base path.
	resp, _ = do("GET", site+"/private", nil)
	signIn, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(signIn.String(), site+s.base+"/signin?") {
		t.Fatalf("GET /private signed out: %d to %q, want the sign-in page under %s", resp.StatusCode, signIn, s.base)
	}
	if resp, body := do("GET", signIn.String(), nil); resp.StatusCode != 200 || !strings.Contains(body, s.base+"/signin/dev") {
		t.Fatalf("the sign-in page: %d\n%s", resp.StatusCode, body)
	}

	// The template's form posts to the base path, and signs in.
	_, body = do("GET", site+"/page", nil)
	m := regexp.MustCompile(`<form method="post" action="([^"]*)">(.*?)</form>`).FindStringSubmatch(body)
	if m == nil || html.UnescapeString(m[1]) != s.base+"/signin/dev" {
		t.Fatalf("the {{ signIn }} form does not post to %s/signin/dev:\n%s", s.base, body)
	}
	form := url.Values{}
	for _, f := range regexp.MustCompile(`name="([^"]+)" value="([^"]*)"`).FindAllStringSubmatch(m[2], -1) {
		form.Set(html.UnescapeString(f[1]), html.UnescapeString(f[2]))
	}
	resp, _ = do("POST", site+html.UnescapeString(m[1]), form)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the form's POST: %d, want 303", resp.StatusCode)
	}
	for i := 0; resp.StatusCode >= 300 && resp.StatusCode < 400; i++ {
		loc, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
		if err != nil || i == 10 {
			t.Fatalf("redirect %d: %v", i, err)
		}
		if strings.HasPrefix(loc.String(), op.Issuer()) && loc.Query().Get("redirect_uri") != "" && loc.Query().Get("redirect_uri") != callback {
			t.Fatalf("redirect_uri %q, want %q", loc.Query().Get("redirect_uri"), callback)
		}
		resp, _ = do("GET", loc.String(), nil)
	}
	if resp.Request.URL.String() != site+"/page" || resp.StatusCode != 200 {
		t.Fatalf("the sign-in ended at %s with %d, want /page", resp.Request.URL, resp.StatusCode)
	}

	// Signed in: the session JSON and the page behind Require.
	_, body = do("GET", site+s.base+"/session", nil)
	var sess struct{ User struct{ Email string } }
	if json.Unmarshal([]byte(body), &sess) != nil || sess.User.Email != "alice@example.com" {
		t.Fatalf("GET %s/session signed in: %s", s.base, body)
	}
	if resp, body := do("GET", site+"/private", nil); resp.StatusCode != 200 || body != "hello alice@example.com" {
		t.Fatalf("GET /private signed in: %d %q", resp.StatusCode, body)
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
