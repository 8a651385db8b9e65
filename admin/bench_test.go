package admin_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
)

// BenchmarkSessionRead is GET {base}/session with a valid session, with
// bans off (Config.Admin nil) and on: the cost of the ban check on a
// session read, which is one admin.Store.UserStatus per read of a JWT
// session or a cookie-cache copy, and none for a database session read
// from its row (a ban deletes the rows).
func BenchmarkSessionRead(b *testing.B) {
	strategies := []struct {
		name   string
		mutate func(*gatehouse.Config)
	}{
		{"jwt", func(c *gatehouse.Config) { c.Session.Strategy = gatehouse.StrategyJWT }},
		{"database", func(c *gatehouse.Config) { c.Session.Strategy = gatehouse.StrategyDatabase }},
		{"database-cookiecache", func(c *gatehouse.Config) {
			c.Session.Strategy = gatehouse.StrategyDatabase
			c.Session.CookieCache.Enabled = true
		}},
	}
	for _, k := range builtinStores {
		for _, st := range strategies {
			for _, on := range []bool{false, true} {
				name := k.name + "/" + st.name + "/admin=off"
				if on {
					name = k.name + "/" + st.name + "/admin=on"
				}
				b.Run(name, func(b *testing.B) {
					s := newSite(b, newOP(b), k.open(b), func(c *gatehouse.Config) {
						st.mutate(c)
						if !on {
							c.Admin = nil
						}
					})
					br := newBrowser(b)
					br.mustSignIn(s, "credentials", "bench")
					u, _ := url.Parse(s.url)
					r := httptest.NewRequest(http.MethodGet, s.url+"/auth/session", nil)
					for _, c := range br.c.Jar.Cookies(u) {
						r.AddCookie(c)
					}
					b.ReportAllocs()
					for b.Loop() {
						w := httptest.NewRecorder()
						s.h.ServeHTTP(w, r)
						if w.Code != 200 || !strings.Contains(w.Body.String(), "bench@creds.example") {
							b.Fatalf("%d %s", w.Code, w.Body)
						}
					}
				})
			}
		}
	}
}
