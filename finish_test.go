package gatehouse_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/selfservice"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// selfServiceRoutes are the routes Config.SelfService turns on.
var selfServiceRoutes = []struct{ method, path string }{
	{http.MethodGet, "/auth/accounts"},
	{http.MethodPost, "/auth/accounts/unlink/dev"},
	{http.MethodGet, "/auth/sessions"},
	{http.MethodPost, "/auth/sessions/revoke"},
	{http.MethodPost, "/auth/sessions/revoke-others"},
	{http.MethodPost, "/auth/sessions/revoke-all"},
}

// TestSelfServiceOff: without Config.SelfService, a signed-in user of a
// site with an adapter gets from every account and sessions route, as
// JSON and as a page, with a good CSRF token, what a path that is no
// route gets: 404 and the same answer. With it, the same requests are
// served.
func TestSelfServiceOff(t *testing.T) {
	for _, on := range []bool{false, true} {
		a, _ := newDBApp(t, openStore(t, "memory"), authtest.Options{}, func(c *gatehouse.Config) {
			c.Session.Strategy = gatehouse.StrategyDatabase
			if !on {
				c.SelfService = nil
			}
		})
		b := newBrowser(t)
		signedIn(t, a, b)
		ask := func(method, path, accept string) (int, string) {
			var body io.Reader
			if method == http.MethodPost {
				body = strings.NewReader(url.Values{"csrfToken": {b.csrf(a)}, "id": {"none"}}.Encode())
			}
			req, _ := http.NewRequest(method, a.url+path, body)
			req.Header.Set("Accept", accept)
			if body != nil {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			resp := b.Do(req)
			defer resp.Body.Close()
			page, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(page)
		}
		for _, rt := range selfServiceRoutes {
			for _, accept := range []string{"application/json", "text/html"} {
				code, body := ask(rt.method, rt.path, accept)
				noCode, noBody := ask(rt.method, "/auth/no-such-route", accept)
				if noCode != http.StatusNotFound {
					t.Fatalf("%s /auth/no-such-route: %d", rt.method, noCode)
				}
				if off := code == noCode && body == noBody; off == on {
					t.Errorf("SelfService on %v: %s %s (%s): %d %.200s", on, rt.method, rt.path, accept, code, body)
				}
			}
		}
	}
}

// TestSelfServiceNeedsAdapter: Config.SelfService without an Adapter is
// a configuration error on the field.
func TestSelfServiceNeedsAdapter(t *testing.T) {
	op := newOP(t, authtest.Options{})
	cfg := gatehouse.Config{Secret: []string{testSecret}, URL: "http://localhost/auth",
		Providers: []providers.Provider{devProvider(op)}, SelfService: selfservice.Routes{}}
	_, err := gatehouse.New(cfg)
	var ce *gatehouse.ConfigError
	if !errors.As(err, &ce) || ce.Field != "SelfService" || !errors.Is(err, gatehouse.Configuration) {
		t.Fatalf("SelfService without an Adapter: %v, want a ConfigError on SelfService", err)
	}
	cfg.Adapter = memory.New()
	if _, err := gatehouse.New(cfg); err != nil {
		t.Fatalf("SelfService with an Adapter: %v", err)
	}
}

// TestFeaturesAddMessagesWhileServing: Handlers made in one process at
// once, each turning features on, add the features' messages to the
// pages' catalogue while another Handler serves a page in German: under
// -race it fails if the catalogue is written while read. Afterwards the
// features' messages are there, in German too.
func TestFeaturesAddMessagesWhileServing(t *testing.T) {
	op := newOP(t, authtest.Options{})
	serving := newHandler(t, gatehouse.Config{Secret: []string{testSecret}, URL: "http://localhost/auth",
		Providers: []providers.Provider{devProvider(op)}})
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			r := httptest.NewRequest(http.MethodGet, "http://localhost/auth/signin", nil)
			r.Header.Set("Accept-Language", "de")
			w := httptest.NewRecorder()
			serving.ServeHTTP(w, r)
			if !strings.Contains(w.Body.String(), "<title>"+pages.Text("de", "signin.title")) {
				t.Errorf("the German sign-in page: %d %.300s", w.Code, w.Body.String())
				return
			}
		}
	})
	var made sync.WaitGroup
	for range 2 {
		made.Go(func() {
			_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, URL: "http://localhost/auth",
				Providers: []providers.Provider{devProvider(op)}, Adapter: memory.New(),
				SelfService: selfservice.Routes{}, TwoFactor: twofactor.SignIn{},
				Organizations: organization.Enable(organization.Config{}), Admin: admin.Enable(admin.Config{}),
				MachineAccess: apikey.Enable(apikey.Config{})})
			if err != nil {
				t.Error(err)
			}
		})
	}
	made.Wait()
	close(done)
	wg.Wait()
	for _, k := range []string{"accounts.title", "tfsetup.turnOn", "org.create", "admin.ban", "keys.create"} {
		if de := pages.Text("de", k); de == k || de == pages.Text("en", k) {
			t.Errorf("%s in German: %q", k, de)
		}
	}
}
