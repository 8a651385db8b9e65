package orgflow_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// activeOf answers GET {base}/session with ck as the request's cookies
// and returns its activeOrganizationId and the copy it set, if any.
func (s *site) activeOf(ck []*http.Cookie) (org string, copySet bool) {
	s.t.Helper()
	r := httptest.NewRequest("GET", s.srv.URL+"/auth/session", nil)
	for _, c := range ck {
		r.AddCookie(c)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	if w.Code != 200 {
		s.t.Fatalf("GET /session: %d %s", w.Code, w.Body)
	}
	var got struct{ ActiveOrganizationID string }
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		s.t.Fatal(err)
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == cookies.NewNames(false, false).SessionData && c.MaxAge >= 0 {
			copySet = true
		}
	}
	return got.ActiveOrganizationID, copySet
}

// TestCookieCacheActiveOrganization: with database sessions and the
// cookie cache, a read the copy answers names the active organization
// and reads nothing from the store; POST {base}/organizations/active
// re-seals the copy, so the next read on this browser names the new one
// (or none), still without a query; a read without the copy reads the
// session and its active organization once and writes a copy naming it.
func TestCookieCacheActiveOrganization(t *testing.T) {
	for name, open := range map[string]func(testing.TB) orgAdapter{
		"memory": func(testing.TB) orgAdapter { return memory.New() },
		"sqlite": func(t testing.TB) orgAdapter { return dbtest.SQLite(t, "") },
	} {
		t.Run(name, func(t *testing.T) {
			a := &counted{orgAdapter: open(t)}
			s := newSiteWith(t, a, true, &organization.Config{}, cookieCache)
			owner := s.user("owner@example.com", 0)
			acme, beta := owner.create("Acme"), owner.create("Beta")
			if org, set := s.activeOf(owner.sessionCookies()); org != "" || !set {
				t.Fatalf("first read: %q, copy written %v; want none, true", org, set)
			}
			owner.get("/auth/session", nil) // the copy into the jar
			for _, want := range []string{acme, beta, ""} {
				if st := owner.post("/auth/organizations/active", url.Values{"organizationId": {want}}, nil); st != 200 {
					t.Fatalf("activate %q: %d", want, st)
				}
				before := a.queries()
				for range 3 {
					if org, set := s.activeOf(owner.sessionCookies()); org != want || set {
						t.Errorf("after activating %q: read %q, copy rewritten %v", want, org, set)
					}
				}
				if n := a.queries() - before; n != 0 {
					t.Errorf("after activating %q: %d store queries in 3 cached reads, want 0", want, n)
				}
			}
			if st := owner.post("/auth/organizations/active", url.Values{"organizationId": {acme}}, nil); st != 200 {
				t.Fatalf("activate: %d", st)
			}
			// Without the copy: one read of each, and a new copy naming it.
			var sessionOnly []*http.Cookie
			for _, c := range owner.sessionCookies() {
				if c.Name == cookies.NewNames(false, false).Session {
					sessionOnly = append(sessionOnly, c)
				}
			}
			s0, a0 := a.sessions.Load(), a.active.Load()
			if org, set := s.activeOf(sessionOnly); org != acme || !set {
				t.Errorf("a miss: %q, copy written %v; want %q, true", org, set, acme)
			}
			if ds, da := a.sessions.Load()-s0, a.active.Load()-a0; ds != 1 || da != 1 {
				t.Errorf("a miss read the session %d and the active organization %d times, want 1 and 1", ds, da)
			}
		})
	}
}

// TestRemovedWhileCached: a member removed on another instance, whose
// cookie cache copy still names the organization (GET {base}/session
// shows it until the copy's age is up, as it shows a changed name), is
// refused at the next request by RequirePermission, Can and every
// organization route: they read membership and role from the store.
func TestRemovedWhileCached(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) (orgAdapter, orgAdapter){
		"memory":   func(*testing.T) (orgAdapter, orgAdapter) { m := memory.New(); return m, m },
		"postgres": func(t *testing.T) (orgAdapter, orgAdapter) { a1, a2 := pgAdapter(t); return a1, a2 },
	} {
		t.Run(name, func(t *testing.T) {
			a1, a2 := open(t)
			oc := func() *organization.Config {
				return &organization.Config{Roles: []organization.Role{{Name: "developer", Permissions: permission.MustSet("project:read", "project:delete")}}}
			}
			s := newSiteWith(t, a1, true, oc(), cookieCache)
			other := newSiteWith(t, a2, true, oc(), cookieCache)
			owner := s.user("owner@example.com", 0)
			org := owner.create("Acme")
			dev := owner.join(org, "dev@example.com", "developer")
			if st := dev.post("/auth/organizations/active", url.Values{"organizationId": {org}}, nil); st != 200 {
				t.Fatalf("activate: %d", st)
			}
			var sess struct{ ActiveOrganizationID string }
			if dev.get("/auth/session", &sess); sess.ActiveOrganizationID != org {
				t.Fatalf("GET /session: %q, want %q", sess.ActiveOrganizationID, org)
			}
			if st := dev.get("/app/delete", nil); st != 200 || !dev.can() {
				t.Fatalf("a developer before removal: %d, can %v", st, dev.can())
			}
			o2 := other.signIn(mustUser(t, a2, owner.id), 0)
			if st := o2.post("/auth/organizations/"+org+"/members/"+dev.id+"/remove", nil, nil); st != 200 {
				t.Fatalf("remove on the other instance: %d", st)
			}
			if got, _ := s.activeOf(dev.sessionCookies()); got != org {
				t.Fatalf("the copy should still name %q (the staleness this test is about), got %q", org, got)
			}
			var out errBody
			if st := dev.get("/app/delete", &out); st != http.StatusForbidden {
				t.Errorf("RequirePermission after removal: %d %+v", st, out)
			}
			if dev.can() {
				t.Error("Can after removal")
			}
			if st := dev.get("/auth/organizations/"+org, &out); st != http.StatusNotFound {
				t.Errorf("GET the organization after removal: %d %+v", st, out)
			}
			if st := dev.post("/auth/organizations/"+org+"/update", url.Values{"name": {"Mine"}}, &out); st != http.StatusNotFound {
				t.Errorf("update the organization after removal: %d %+v", st, out)
			}
			if st := dev.post("/auth/organizations/active", url.Values{"organizationId": {org}}, &out); st != http.StatusNotFound {
				t.Errorf("activate it again after removal: %d %+v", st, out)
			}
		})
	}
}
