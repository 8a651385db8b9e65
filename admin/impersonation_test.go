package admin_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/selfservice"
)

// sessionJSON returns GET {base}/session's answer, nil for no session.
func (b *browser) sessionJSON(s *site) map[string]any {
	b.t.Helper()
	resp := b.Get(s.url + "/auth/session")
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		b.t.Fatalf("session: %q", body)
	}
	return v
}

// body returns what the path of s says to b.
func (b *browser) body(s *site, path string) string {
	b.t.Helper()
	resp := b.Get(s.url + path)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

// privateBody returns what /private says to b.
func (b *browser) privateBody(s *site) string {
	b.t.Helper()
	resp := b.Get(s.url + "/private")
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

// TestImpersonation: an administrator sees the application as a user
// (GET {base}/session shows impersonatedBy), never as another
// administrator or a banned user; stopping returns to their own session;
// the impersonation ends by itself on time, with a ban, and when its
// cookie is carried to another browser; both ends are told as events;
// Gatehouse's own routes keep acting for the administrator.
func TestImpersonation(t *testing.T) {
	for _, strategy := range []gatehouse.Strategy{gatehouse.StrategyDatabase, gatehouse.StrategyJWT} {
		t.Run(string(strategy), func(t *testing.T) {
			t.Parallel()
			s := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) {
				c.Session.Strategy = strategy
				c.Admin = admin.Enable(admin.Config{ImpersonationMaxAge: 2 * time.Second})
			})
			ad := signedInAdmin(t, s)
			bob := signedInAs(t, s, "bob")
			carol := signedInAs(t, s, "carol")
			me, bobID, carolID := s.userID("admin@example.com"), s.userID("bob@example.com"), s.userID("carol@example.com")

			if code, v := ad.adminPost(s, bobID, "impersonate", nil); code != http.StatusOK {
				t.Fatalf("impersonate: %d %v", code, v)
			}
			if got := ad.privateBody(s); got != "hello bob@example.com" {
				t.Fatalf("impersonating, /private says %q", got)
			}
			v := ad.sessionJSON(s)
			if v["impersonatedBy"] != me || v["user"].(map[string]any)["email"] != "bob@example.com" {
				t.Fatalf("impersonating, the session is %v", v)
			}
			// Gatehouse's own routes act for the administrator, not for bob.
			if code, _ := ad.adminGet(s, "users"); code != http.StatusOK {
				t.Errorf("impersonating, the admin list answered %d", code)
			}
			// A user's own session has no impersonatedBy.
			if v := bob.sessionJSON(s); v["impersonatedBy"] != nil {
				t.Errorf("bob's own session shows impersonatedBy: %v", v)
			}
			// The cookie carried to another browser (bob's) does nothing there.
			u, _ := url.Parse(s.url)
			imp := impersonationCookie(t, ad, u)
			carol.c.Jar.SetCookies(u, []*http.Cookie{imp})
			if got := carol.privateBody(s); got != "hello carol@example.com" {
				t.Errorf("the impersonation cookie in carol's browser made /private say %q", got)
			}

			// Stop: the administrator's own session is back.
			code, v := decode(t, ad.post(s.url+"/auth/admin/stop-impersonating", url.Values{"csrfToken": {ad.csrf(s)}}))
			if code != http.StatusOK || v["stopped"] != bobID {
				t.Fatalf("stop: %d %v", code, v)
			}
			if got := ad.privateBody(s); got != "hello admin@example.com" {
				t.Fatalf("after stopping, /private says %q", got)
			}
			if code, _ := decode(t, ad.post(s.url+"/auth/admin/stop-impersonating", url.Values{"csrfToken": {ad.csrf(s)}})); code != http.StatusConflict {
				t.Errorf("stopping twice: %d; want 409", code)
			}

			// Never another administrator, nor oneself, nor a banned user.
			if err := s.store.SetUserRole(context.Background(), carolID, admin.RoleAdmin); err != nil {
				t.Fatal(err)
			}
			if code, v := ad.adminPost(s, carolID, "impersonate", nil); code != http.StatusForbidden || v["code"] != "protected" {
				t.Errorf("impersonating an administrator: %d %v; want 403 protected", code, v)
			}
			if code, v := ad.adminPost(s, me, "impersonate", nil); code != http.StatusForbidden || v["code"] != "self" {
				t.Errorf("impersonating oneself: %d %v; want 403 self", code, v)
			}

			// It ends on time, by itself.
			if code, v := ad.adminPost(s, bobID, "impersonate", nil); code != http.StatusOK {
				t.Fatalf("impersonate again: %d %v", code, v)
			}
			if got := ad.privateBody(s); got != "hello bob@example.com" {
				t.Fatalf("impersonating again, /private says %q", got)
			}
			imp = impersonationCookie(t, ad, u)
			time.Sleep(2100 * time.Millisecond)
			if got := ad.privateBody(s); got != "hello admin@example.com" {
				t.Fatalf("after the impersonation's end, /private says %q", got)
			}
			// The server ends it, not the browser: the cookie kept past
			// its end does nothing.
			imp.Expires, imp.MaxAge = time.Now().Add(time.Hour), 0
			ad.c.Jar.SetCookies(u, []*http.Cookie{imp})
			if got := ad.privateBody(s); got != "hello admin@example.com" {
				t.Fatalf("with the impersonation cookie kept past its end, /private says %q", got)
			}

			// A ban of the user ends it at once.
			if code, v := ad.adminPost(s, bobID, "impersonate", nil); code != http.StatusOK {
				t.Fatalf("impersonate a third time: %d %v", code, v)
			}
			if err := s.store.BanUser(context.Background(), bobID, admin.Ban{At: time.Now()}); err != nil {
				t.Fatal(err)
			}
			if got := ad.privateBody(s); got != "hello admin@example.com" {
				t.Fatalf("after bob's ban, /private says %q", got)
			}
			if code, v := ad.adminPost(s, bobID, "impersonate", nil); code != http.StatusBadRequest || v["code"] != "banned" {
				t.Errorf("impersonating a banned user: %d %v; want 400 banned", code, v)
			}

			var started, stopped int
			for _, e := range s.ev.all() {
				switch e.Action {
				case admin.ActionImpersonate:
					started++
					if e.ActorID != me || e.TargetID != bobID {
						t.Errorf("impersonate event %+v", e)
					}
				case admin.ActionStopImpersonating:
					stopped++
					if e.ActorID != me || e.TargetID != bobID {
						t.Errorf("stop event %+v", e)
					}
				}
			}
			if started != 3 || stopped != 1 {
				t.Errorf("%d impersonate and %d stop events; want 3 and 1", started, stopped)
			}
		})
	}
}

// impersonationCookie returns b's impersonation cookie, or fails the test.
func impersonationCookie(t *testing.T, b *browser, u *url.URL) *http.Cookie {
	t.Helper()
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == "gatehouse.impersonation" {
			return &http.Cookie{Name: c.Name, Value: c.Value, Path: "/"}
		}
	}
	t.Fatal("no impersonation cookie")
	return nil
}

// TestImpersonationBanner: while an administrator sees the site as a
// user, every built-in page says so, with a form that ends it; the form
// works from the page, and the banner is gone afterwards. A user's own
// pages have none.
func TestImpersonationBanner(t *testing.T) {
	s := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) {
		c.Admin = admin.Enable(admin.Config{})
		c.SelfService = selfservice.Routes{} // the accounts and sessions pages
	})
	ad := signedInAdmin(t, s)
	bob := signedInAs(t, s, "bob")
	page := func(b *browser, path string) string {
		req, _ := http.NewRequest(http.MethodGet, s.url+path, nil)
		req.Header.Set("Accept", "text/html")
		resp := b.Do(req)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return string(body)
	}
	const banner = `class="banner" role="status"`
	for _, path := range []string{"/auth/accounts", "/auth/sessions", "/auth/signout"} {
		if strings.Contains(page(ad, path), banner) || strings.Contains(page(bob, path), banner) {
			t.Fatalf("%s shows the banner without an impersonation", path)
		}
	}
	if code, v := ad.adminPost(s, s.userID("bob@example.com"), "impersonate", nil); code != http.StatusOK {
		t.Fatalf("impersonate: %d %v", code, v)
	}
	var stop string
	for _, path := range []string{"/auth/accounts", "/auth/sessions", "/auth/signout", "/auth/error?error=AccessDenied"} {
		body := page(ad, path)
		if !strings.Contains(body, banner) || !strings.Contains(body, "You are seeing the site as") ||
			!strings.Contains(body, `action="`+s.url+`/auth/admin/stop-impersonating"`) {
			t.Fatalf("impersonating, %s shows no banner with its stop form:\n%s", path, body)
		}
		stop = body
	}
	if strings.Contains(page(bob, "/auth/accounts"), banner) {
		t.Error("bob's own page shows the banner")
	}
	// The banner's form, as the browser sends it.
	token := regexp.MustCompile(`name="csrfToken" value="([^"]+)"`).FindStringSubmatch(stop)
	if token == nil {
		t.Fatal("no CSRF token in the banner's form")
	}
	req, _ := http.NewRequest(http.MethodPost, s.url+"/auth/admin/stop-impersonating", strings.NewReader(url.Values{"csrfToken": {token[1]}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", s.url)
	req.Header.Set("Accept", "text/html")
	resp := ad.Do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("stopping from the banner: %d, want 303", resp.StatusCode)
	}
	if strings.Contains(page(ad, "/auth/accounts"), banner) {
		t.Error("the banner stays after stopping")
	}
	if v := ad.sessionJSON(s); v["impersonatedBy"] != nil {
		t.Errorf("after stopping, the session is %v", v)
	}
}

// whoami returns what /whoami says to b: the session the application
// sees (email, org: its active organization) and Handler.Can's answer.
func (b *browser) whoami(s *site) map[string]any {
	b.t.Helper()
	_, v := decode(b.t, b.Get(s.url+"/whoami"))
	return v
}

// sessionKinds are the session setups an impersonation is tested with:
// database sessions, with and without the cookie cache, and JWT ones.
var sessionKinds = []struct {
	name     string
	strategy gatehouse.Strategy
	cache    bool
}{
	{"database", gatehouse.StrategyDatabase, false},
	{"database+cache", gatehouse.StrategyDatabase, true},
	{"jwt", gatehouse.StrategyJWT, false},
}

// TestImpersonationActiveOrganization: the administrator's active
// organization never carries into an impersonation: the application sees
// the user's session with no active organization, Handler.Can says no and
// RequirePermission refuses (whatever the administrator may do there),
// and GET {base}/session shows none. Stopping brings the administrator's
// session back with its active organization. For database sessions
// (with and without the cookie cache) and JWT sessions.
func TestImpersonationActiveOrganization(t *testing.T) {
	for _, tc := range sessionKinds {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := memory.New()
			s := newSite(t, newOP(t), db, func(c *gatehouse.Config) {
				c.Session.Strategy = tc.strategy
				c.Session.CookieCache.Enabled = tc.cache
				c.Organizations = organization.Enable(organization.Config{})
			})
			ad := signedInAdmin(t, s)
			signedInAs(t, s, "bob")
			me, bobID := s.userID("admin@example.com"), s.userID("bob@example.com")
			// The administrator owns acme and works in it; bob is a member of
			// it too, with no right to update it.
			orgs := db
			if err := orgs.CreateOrganization(context.Background(), organization.Organization{ID: "acme", Name: "Acme", Slug: "acme", CreatedAt: time.Now()},
				organization.Membership{OrganizationID: "acme", UserID: me, Role: organization.Owner, CreatedAt: time.Now()}, organization.DefaultMaxOrganizations); err != nil {
				t.Fatal(err)
			}
			joinOrg(t, orgs, "acme", bobID, "bob@example.com", organization.Member)
			if code, v := decode(t, ad.post(s.url+"/auth/organizations/active", url.Values{"csrfToken": {ad.csrf(s)}, "organizationId": {"acme"}})); code != http.StatusOK {
				t.Fatalf("set active: %d %v", code, v)
			}
			mine := func(when string) {
				t.Helper()
				if v := ad.whoami(s); v["email"] != "admin@example.com" || v["org"] != "acme" || v["can"] != true {
					t.Errorf("%s, the application sees %v; want the administrator in acme, allowed", when, v)
				}
				if v := ad.sessionJSON(s); v["activeOrganizationId"] != "acme" {
					t.Errorf("%s, GET session shows %v; want acme active", when, v)
				}
				if got := ad.body(s, "/can-update"); got != "allowed admin@example.com" {
					t.Errorf("%s, RequirePermission answered %q", when, got)
				}
			}
			mine("before impersonating")

			if code, v := ad.adminPost(s, bobID, "impersonate", nil); code != http.StatusOK {
				t.Fatalf("impersonate: %d %v", code, v)
			}
			for range 2 { // the second read is the one a cookie-cache copy answers
				if v := ad.whoami(s); v["email"] != "bob@example.com" || v["org"] != "" || v["can"] != false {
					t.Errorf("impersonating bob, the application sees %v; want bob, no active organization, not allowed", v)
				}
				if v := ad.sessionJSON(s); v["impersonatedBy"] != me || v["activeOrganizationId"] != nil {
					t.Errorf("impersonating bob, GET session shows %v; want no active organization", v)
				}
				if got := ad.body(s, "/can-update"); strings.HasPrefix(got, "allowed") || !strings.Contains(got, "no_active_organization") {
					t.Errorf("impersonating bob, RequirePermission answered %q; want 403 no_active_organization", got)
				}
			}

			if code, v := decode(t, ad.post(s.url+"/auth/admin/stop-impersonating", url.Values{"csrfToken": {ad.csrf(s)}})); code != http.StatusOK {
				t.Fatalf("stop: %d %v", code, v)
			}
			mine("after stopping")
		})
	}
}

// TestImpersonationEndsWithTheRoles: an impersonation holds only while
// its administrator is one and its user is not. Demoting the
// administrator, or making the user one, ends it at the next request, as
// a ban does: the session the application sees (Read), Handler.Can and
// RequirePermission (Viewer), GET {base}/session and the built-in pages'
// banner all show the administrator's own session again, in their active
// organization, and the cookie is cleared, so the impersonation does not
// come back with the role. Each is checked with the impersonation cookie
// in the request, as the browser had it before the cookie was cleared.
// For database sessions (with and without the cookie cache) and JWT
// sessions.
func TestImpersonationEndsWithTheRoles(t *testing.T) {
	for _, tc := range sessionKinds {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) {
				c.Session.Strategy = tc.strategy
				c.Session.CookieCache.Enabled = tc.cache
				c.Organizations = organization.Enable(organization.Config{})
			})
			ad := signedInAdmin(t, s)
			signedInAs(t, s, "bob")
			me, bobID := s.userID("admin@example.com"), s.userID("bob@example.com")
			// The administrator owns acme and works in it, so that Handler.Can
			// tells them (allowed) from bob (no active organization).
			code, v := decode(t, ad.post(s.url+"/auth/organizations", url.Values{"csrfToken": {ad.csrf(s)}, "name": {"Acme"}}))
			acme, _ := v["id"].(string)
			if code != http.StatusCreated || acme == "" {
				t.Fatalf("create acme: %d %v", code, v)
			}
			if code, v := decode(t, ad.post(s.url+"/auth/organizations/active", url.Values{"csrfToken": {ad.csrf(s)}, "organizationId": {acme}})); code != http.StatusOK {
				t.Fatalf("set active: %d %v", code, v)
			}
			u, _ := url.Parse(s.url)
			var imp *http.Cookie
			// with puts the impersonation cookie back in the administrator's
			// browser: every check below reads it anew, not after the previous
			// check's answer cleared it.
			with := func() *browser {
				ad.c.Jar.SetCookies(u, []*http.Cookie{imp})
				return ad
			}
			impersonate := func() {
				t.Helper()
				if code, v := ad.adminPost(s, bobID, "impersonate", nil); code != http.StatusOK {
					t.Fatalf("impersonate: %d %v", code, v)
				}
				imp = impersonationCookie(t, ad, u)
				if v := with().whoami(s); v["email"] != "bob@example.com" || v["can"] != false {
					t.Fatalf("impersonating bob, the application sees %v", v)
				}
				if !strings.Contains(with().htmlPage(s, "/auth/signout"), impersonationBanner) {
					t.Fatal("impersonating bob, no banner")
				}
			}
			ended := func(when string) {
				t.Helper()
				if v := with().whoami(s); v["email"] != "admin@example.com" || v["org"] != acme || v["can"] != true {
					t.Errorf("%s, the application sees %v; want the administrator in acme, allowed", when, v)
				}
				if got := with().body(s, "/can-update"); got != "allowed admin@example.com" {
					t.Errorf("%s, RequirePermission answered %q", when, got)
				}
				if got := with().privateBody(s); got != "hello admin@example.com" {
					t.Errorf("%s, /private says %q", when, got)
				}
				if v := with().sessionJSON(s); v["impersonatedBy"] != nil || v["activeOrganizationId"] != acme {
					t.Errorf("%s, GET session shows %v", when, v)
				}
				if strings.Contains(with().htmlPage(s, "/auth/signout"), impersonationBanner) {
					t.Errorf("%s, the banner still shows the impersonation", when)
				}
				with().privateBody(s)
				for _, c := range ad.c.Jar.Cookies(u) {
					if c.Name == imp.Name {
						t.Errorf("%s, the impersonation cookie is kept", when)
					}
				}
			}

			// The administrator demoted: refused by the admin routes, and no
			// longer seeing the application as bob.
			impersonate()
			if err := s.store.SetUserRole(context.Background(), me, admin.RoleUser); err != nil {
				t.Fatal(err)
			}
			if code, _ := ad.adminGet(s, "users"); code != http.StatusForbidden {
				t.Errorf("demoted, the admin list answered %d; want 403", code)
			}
			ended("the administrator demoted")
			// It ended: made an administrator again, they see their own session.
			if err := s.store.SetUserRole(context.Background(), me, admin.RoleAdmin); err != nil {
				t.Fatal(err)
			}
			if got := ad.privateBody(s); got != "hello admin@example.com" {
				t.Errorf("promoted again, /private says %q", got)
			}

			// Bob made an administrator: an administrator is never
			// impersonated.
			impersonate()
			if err := s.store.SetUserRole(context.Background(), bobID, admin.RoleAdmin); err != nil {
				t.Fatal(err)
			}
			ended("bob made an administrator")
		})
	}
}

// TestImpersonationByNamedAdmin: an administrator Config names, with no
// stored role, impersonates and keeps impersonating as one with the
// stored role does.
func TestImpersonationByNamedAdmin(t *testing.T) {
	s := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) {
		c.Admin = admin.Enable(admin.Config{Emails: []string{"admin@example.com"}})
	})
	ad := signedInAs(t, s, "admin")
	signedInAs(t, s, "bob")
	if code, v := ad.adminPost(s, s.userID("bob@example.com"), "impersonate", nil); code != http.StatusOK {
		t.Fatalf("impersonate: %d %v", code, v)
	}
	for range 2 {
		if got := ad.privateBody(s); got != "hello bob@example.com" {
			t.Fatalf("impersonating, /private says %q", got)
		}
	}
	if v := ad.whoami(s); v["email"] != "bob@example.com" {
		t.Errorf("impersonating, the application sees %v", v)
	}
	if !strings.Contains(ad.htmlPage(s, "/auth/signout"), impersonationBanner) {
		t.Error("impersonating, no banner")
	}
}

// impersonationBanner marks the banner of the built-in pages.
const impersonationBanner = `class="banner" role="status"`

// htmlPage returns the built-in page at path as b's browser gets it.
func (b *browser) htmlPage(s *site, path string) string {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.url+path, nil)
	req.Header.Set("Accept", "text/html")
	resp := b.Do(req)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

// statusDown is a memory store whose UserStatus fails for one user.
type statusDown struct {
	*memory.Adapter
	mu   sync.Mutex
	down string
}

func (s *statusDown) UserStatus(ctx context.Context, userID string) (admin.Status, error) {
	s.mu.Lock()
	down := s.down
	s.mu.Unlock()
	if down != "" && userID == down {
		return admin.Status{}, errors.New("store down")
	}
	return s.Adapter.UserStatus(ctx, userID)
}

// TestImpersonationStoreDown: when the store cannot say whether the
// administrator is still one, the impersonated session is not shown: the
// session is unknown (503), and the impersonation is back once the store
// answers. Database sessions, whose read alone does not ask for the
// administrator's status.
func TestImpersonationStoreDown(t *testing.T) {
	db := &statusDown{Adapter: memory.New()}
	s := newSite(t, newOP(t), db, func(c *gatehouse.Config) { c.Session.Strategy = gatehouse.StrategyDatabase })
	ad := signedInAdmin(t, s)
	signedInAs(t, s, "bob")
	me, bobID := s.userID("admin@example.com"), s.userID("bob@example.com")
	if code, v := ad.adminPost(s, bobID, "impersonate", nil); code != http.StatusOK {
		t.Fatalf("impersonate: %d %v", code, v)
	}
	db.mu.Lock()
	db.down = me
	db.mu.Unlock()
	resp := ad.Get(s.url + "/private")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("the administrator's status unreadable, /private answered %d %q; want 503", resp.StatusCode, body)
	}
	db.mu.Lock()
	db.down = ""
	db.mu.Unlock()
	if got := ad.privateBody(s); got != "hello bob@example.com" {
		t.Errorf("the store back, /private says %q", got)
	}
}
