package gatehouse_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/mounttest"
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
		t.Run(s.name, func(t *testing.T) {
			mounttest.Check(t, s.base, func(auth *gatehouse.Handler, private, page http.Handler) http.Handler {
				return auth.Middleware(s.site(auth, private, page))
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
