package gatehouse_test

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/selfservice"
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
