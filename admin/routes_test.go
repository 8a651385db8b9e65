package admin_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/admin"
)

// wantBanned fails the test unless a sign-in ended on the error page with
// ?error=Banned and status 403, without a session.
func wantBanned(t *testing.T, b *browser, s *site, resp *http.Response, kind string) {
	t.Helper()
	q := resp.Request.URL.Query()
	if resp.Request.URL.Path != "/auth/error" || q.Get("error") != "Banned" || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("%s: a banned user's sign-in ended at %s (%d); want /auth/error?error=Banned, 403", kind, resp.Request.URL, resp.StatusCode)
	}
	if got := b.sessionUser(s); got != "" {
		t.Fatalf("%s: a banned user's sign-in left a session of %s", kind, got)
	}
}

// TestBannedUserCannotSignIn: every sign-in kind (OpenID Connect, e-mail
// link, the application's credentials, password accounts) is refused with
// Banned for a banned user, with JWT and database sessions, and works
// again once the ban is lifted.
func TestBannedUserCannotSignIn(t *testing.T) {
	kinds := []struct{ kind, who, addr string }{
		{"oidc", "bob", "bob@example.com"},
		{"email", "erin@example.com", "erin@example.com"},
		{"credentials", "frank", "frank@creds.example"},
		{"password", "grace@example.com", "grace@example.com"},
	}
	for _, strategy := range []gatehouse.Strategy{gatehouse.StrategyDatabase, gatehouse.StrategyJWT} {
		t.Run(string(strategy), func(t *testing.T) {
			t.Parallel()
			s := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) { c.Session.Strategy = strategy })
			ad := signedInAdmin(t, s)
			for _, k := range kinds {
				if k.kind == "password" {
					passwordUser(t, s, k.addr)
				}
				first := newBrowser(t)
				first.mustSignIn(s, k.kind, k.who) // the user exists, and has a session
				id := s.userID(k.addr)
				if code, v := ad.adminPost(s, id, "ban", url.Values{"reason": {"spam"}}); code != http.StatusOK || v["banned"] != true {
					t.Fatalf("%s: ban answered %d %v", k.kind, code, v)
				}
				if first.private(s) {
					t.Errorf("%s: the banned user's session still works", k.kind)
				}
				b := newBrowser(t)
				resp, _ := b.signIn(s, k.kind, k.who)
				wantBanned(t, b, s, resp, k.kind)
				if code, v := ad.adminPost(s, id, "unban", nil); code != http.StatusOK || v["banned"] != false {
					t.Fatalf("%s: unban answered %d %v", k.kind, code, v)
				}
				b.mustSignIn(s, k.kind, k.who)
			}
		})
	}
}

// TestBanExpires: a ban with an expiry refuses sign-in until then, and
// lifts by itself.
func TestBanExpires(t *testing.T) {
	t.Parallel()
	s, ad := adminSite(t)
	signedInAs(t, s, "bob")
	if code, v := ad.adminPost(s, s.userID("bob@example.com"), "ban", url.Values{"expiresIn": {"2"}}); code != http.StatusOK || v["banned"] != true {
		t.Fatalf("ban answered %d %v", code, v)
	}
	b := newBrowser(t)
	resp, _ := b.signIn(s, "oidc", "bob")
	wantBanned(t, b, s, resp, "oidc")
	time.Sleep(2100 * time.Millisecond)
	b.mustSignIn(s, "oidc", "bob")
	for _, bad := range []string{"0", "-5", "soon", "999999999999999"} {
		if code, v := ad.adminPost(s, s.userID("bob@example.com"), "ban", url.Values{"expiresIn": {bad}}); code != http.StatusBadRequest || v["code"] != "invalid_expiry" {
			t.Errorf("expiresIn %q answered %d %v; want 400 invalid_expiry", bad, code, v)
		}
	}
}

// adminRoutes are every admin route, for the door tests.
var adminRoutes = []struct {
	method, path string
}{
	{"GET", "users"},
	{"GET", "users/{id}"},
	{"POST", "users/{id}/role"},
	{"POST", "users/{id}/ban"},
	{"POST", "users/{id}/unban"},
	{"POST", "users/{id}/revoke-sessions"},
	{"POST", "users/{id}/delete"},
	{"POST", "users"},
	{"POST", "users/{id}/set-password"},
	{"POST", "users/{id}/revoke-session"},
}

// TestAdminRoutesRefuseOthers: nobody signed in gets 401, a user who is
// not an administrator 403, on every route; a POST without the CSRF token
// or from another origin is refused even for an administrator; and none
// of them changed anything.
func TestAdminRoutesRefuseOthers(t *testing.T) {
	t.Parallel()
	s, ad := adminSite(t)
	bob := signedInAs(t, s, "bob")
	carol := signedInAs(t, s, "carol")
	target := s.userID("carol@example.com")
	nobody := newBrowser(t)

	send := func(b *browser, method, path string, form url.Values, origin string) (int, map[string]any) {
		t.Helper()
		u := s.url + "/auth/admin/" + strings.ReplaceAll(path, "{id}", target)
		if method == "GET" {
			return decode(t, b.Get(u))
		}
		req, _ := http.NewRequest(method, u, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", origin)
		return decode(t, b.Do(req))
	}
	for _, rt := range adminRoutes {
		t.Run(rt.method+" "+rt.path, func(t *testing.T) {
			form := url.Values{"role": {"admin"}}
			form.Set("csrfToken", nobody.csrf(s))
			if code, v := send(nobody, rt.method, rt.path, form, s.url); code != http.StatusUnauthorized || v["error"] != "SessionRequired" {
				t.Errorf("nobody: %d %v; want 401 SessionRequired", code, v)
			}
			form.Set("csrfToken", bob.csrf(s))
			if code, v := send(bob, rt.method, rt.path, form, s.url); code != http.StatusForbidden || v["code"] != "not_admin" {
				t.Errorf("a user: %d %v; want 403 not_admin", code, v)
			}
			if rt.method != "POST" {
				return
			}
			if code, v := send(ad, rt.method, rt.path, url.Values{"role": {"admin"}}, s.url); code != http.StatusForbidden || v["error"] != "MissingCSRF" {
				t.Errorf("an administrator without the CSRF token: %d %v; want 403 MissingCSRF", code, v)
			}
			form.Set("csrfToken", ad.csrf(s))
			if code, _ := send(ad, rt.method, rt.path, form, "http://evil.example"); code != http.StatusForbidden {
				t.Errorf("an administrator's form from another site: %d; want 403", code)
			}
		})
	}
	st, err := s.store.UserStatus(context.Background(), target)
	if err != nil || st.Role != admin.RoleUser || st.Ban != nil || !st.RevokedBefore.IsZero() {
		t.Errorf("after the refused requests carol is %+v, %v; want untouched", st, err)
	}
	if !carol.private(s) {
		t.Error("carol's session ended by a refused request")
	}
	// The routes are not there when the feature is off.
	off := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) { c.Admin = nil })
	if resp := newBrowser(t).Get(off.url + "/auth/admin/users"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET admin/users with Config.Admin nil: %d; want 404", resp.StatusCode)
	}
}

// TestAdminRules: an administrator cannot ban, delete or revoke
// themselves, cannot ban or delete another administrator (demote first),
// cannot demote one the Config names; the changes that need a fresh
// sign-in are refused with an old one.
func TestAdminRules(t *testing.T) {
	t.Parallel()
	db := memory.New()
	const named = "named-admin"
	s := newSite(t, newOP(t), db, func(c *gatehouse.Config) {
		c.Admin = admin.Enable(admin.Config{UserIDs: []string{named}})
	})
	if _, err := db.CreateUser(context.Background(), adapter.User{ID: named, Email: "named@example.com"}); err != nil {
		t.Fatal(err)
	}
	ad := signedInAdmin(t, s)
	me := s.userID("admin@example.com")
	other := signedInAs(t, s, "bob")
	bob := s.userID("bob@example.com")
	if err := s.store.SetUserRole(context.Background(), bob, admin.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id, action, code string
		form             url.Values
	}{
		{me, "ban", "self", nil},
		{me, "delete", "self", nil},
		{me, "role", "self", url.Values{"role": {"user"}}},
		{me, "revoke-sessions", "self", nil},
		{bob, "ban", "protected", nil},
		{bob, "delete", "protected", nil},
		{bob, "revoke-sessions", "protected", nil},
		{named, "role", "protected", url.Values{"role": {"user"}}},
		{named, "ban", "protected", nil},
	} {
		if code, v := ad.adminPost(s, c.id, c.action, c.form); code != http.StatusForbidden || v["code"] != c.code {
			t.Errorf("%s %s: %d %v; want 403 %s", c.action, c.id, code, v, c.code)
		}
	}
	if code, v := ad.adminPost(s, "no-such-user", "ban", nil); code != http.StatusNotFound {
		t.Errorf("ban of an unknown user: %d %v; want 404", code, v)
	}
	if code, v := ad.adminPost(s, bob, "no-such-action", nil); code != http.StatusNotFound {
		t.Errorf("an unknown action: %d %v; want 404", code, v)
	}
	if code, v := ad.adminPost(s, bob, "role", url.Values{"role": {"root"}}); code != http.StatusBadRequest || v["code"] != "invalid_role" {
		t.Errorf("role root: %d %v; want 400 invalid_role", code, v)
	}
	// Demoted, bob can be banned.
	if code, v := ad.adminPost(s, bob, "role", url.Values{"role": {"user"}}); code != http.StatusOK || v["role"] != "user" {
		t.Fatalf("demote: %d %v", code, v)
	}
	if code, v := ad.adminPost(s, bob, "ban", nil); code != http.StatusOK || v["banned"] != true {
		t.Fatalf("ban after demotion: %d %v", code, v)
	}
	if other.private(s) {
		t.Error("the banned user's session still works")
	}

	// An administrator whose sign-in is older than FreshAge.
	stale := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) { c.Session.FreshAge = time.Millisecond })
	sad := signedInAdmin(t, stale)
	carol := newBrowser(t)
	carol.mustSignIn(stale, "oidc", "carol")
	time.Sleep(5 * time.Millisecond)
	cid := stale.userID("carol@example.com")
	for _, action := range []string{"ban", "delete", "role"} {
		if code, v := sad.adminPost(stale, cid, action, url.Values{"role": {"admin"}}); code != http.StatusForbidden || v["code"] != "fresh_sign_in" {
			t.Errorf("%s with an old sign-in: %d %v; want 403 fresh_sign_in", action, code, v)
		}
	}
	if code, v := sad.adminPost(stale, cid, "revoke-sessions", nil); code != http.StatusOK {
		t.Errorf("revoke-sessions with an old sign-in: %d %v; want 200", code, v)
	}
	if carol.private(stale) {
		t.Error("carol's session survived revoke-sessions")
	}
	carol.mustSignIn(stale, "oidc", "carol") // revoked, not banned
}

// TestAdminEvents: every action tells Events.Admin who did what to whom,
// when, from which address and browser.
func TestAdminEvents(t *testing.T) {
	t.Parallel()
	s, ad := adminSite(t)
	newBrowser(t).mustSignIn(s, "oidc", "bob")
	me, bob := s.userID("admin@example.com"), s.userID("bob@example.com")
	before := time.Now()
	steps := []struct {
		action string
		form   url.Values
		want   admin.Action
	}{
		{"role", url.Values{"role": {"admin"}}, admin.ActionSetRole},
		{"role", url.Values{"role": {"user"}}, admin.ActionSetRole},
		{"ban", url.Values{"reason": {"spam"}, "showReason": {"1"}}, admin.ActionBan},
		{"unban", nil, admin.ActionUnban},
		{"revoke-sessions", nil, admin.ActionRevokeSessions},
		{"delete", nil, admin.ActionDeleteUser},
	}
	for _, st := range steps {
		if code, v := ad.adminPost(s, bob, st.action, st.form); code != http.StatusOK {
			t.Fatalf("%s: %d %v", st.action, code, v)
		}
	}
	got := s.ev.all()
	if len(got) != len(steps) {
		t.Fatalf("%d events; want %d: %+v", len(got), len(steps), got)
	}
	for i, e := range got {
		if e.Action != steps[i].want || e.ActorID != me || e.TargetID != bob || e.IP != "127.0.0.1" ||
			e.UserAgent != "admin-test/1.0" || e.At.Before(before) || time.Since(e.At) > time.Minute {
			t.Errorf("event %d = %+v; want %s by %s on %s from 127.0.0.1", i, e, steps[i].want, me, bob)
		}
	}
	if got[0].Role != admin.RoleAdmin || got[1].Role != admin.RoleUser {
		t.Errorf("role events carry %q, %q", got[0].Role, got[1].Role)
	}
	if b := got[2].Ban; b == nil || b.Reason != "spam" || !b.ShowReason || b.By != me || got[2].Sessions != 1 {
		t.Errorf("ban event = %+v (ban %+v); want the ban and the one session it ended", got[2], got[2].Ban)
	}
	// A refused action tells nothing.
	ad.adminPost(s, me, "ban", nil)
	if n := len(s.ev.all()); n != len(steps) {
		t.Errorf("a refused action was told: %d events", n)
	}
}

// TestAdminListAndUser: the list searches, filters and pages; the user's
// page shows accounts and sessions without tokens.
func TestAdminListAndUser(t *testing.T) {
	t.Parallel()
	s := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) { c.Admin = admin.Enable(admin.Config{PageSize: 2, MaxPageSize: 2}) })
	ad := signedInAdmin(t, s)
	for _, who := range []string{"bob", "carol"} {
		newBrowser(t).mustSignIn(s, "oidc", who)
	}
	bob := s.userID("bob@example.com")
	ad.adminPost(s, bob, "ban", url.Values{"reason": {"spam"}})

	code, v := ad.adminGet(s, "users?search=CAROL")
	if users, _ := v["users"].([]any); code != http.StatusOK || len(users) != 1 || users[0].(map[string]any)["email"] != "carol@example.com" {
		t.Errorf("search CAROL: %d %v", code, v)
	}
	code, v = ad.adminGet(s, "users?banned=1")
	if users, _ := v["users"].([]any); code != http.StatusOK || len(users) != 1 || users[0].(map[string]any)["id"] != bob {
		t.Errorf("banned: %d %v", code, v)
	}
	code, v = ad.adminGet(s, "users?role=admin")
	if users, _ := v["users"].([]any); code != http.StatusOK || len(users) != 1 || users[0].(map[string]any)["email"] != "admin@example.com" {
		t.Errorf("role=admin: %d %v", code, v)
	}
	seen := map[string]bool{}
	after := ""
	for range 5 {
		_, v := ad.adminGet(s, "users?limit=50&after="+url.QueryEscape(after))
		users, _ := v["users"].([]any)
		if len(users) > 2 {
			t.Fatalf("a page of %d users over MaxPageSize 2", len(users))
		}
		for _, u := range users {
			seen[u.(map[string]any)["id"].(string)] = true
		}
		if after, _ = v["next"].(string); after == "" {
			break
		}
	}
	if len(seen) != 3 {
		t.Errorf("paging saw %d users; want 3", len(seen))
	}
	code, v = ad.adminGet(s, "users/"+s.userID("carol@example.com"))
	accts, _ := v["accounts"].([]any)
	sessions, _ := v["sessions"].([]any)
	if code != http.StatusOK || len(accts) != 1 || len(sessions) != 1 {
		t.Fatalf("carol's page: %d %v", code, v)
	}
	for _, part := range []any{accts[0], sessions[0]} {
		for k := range part.(map[string]any) {
			if strings.Contains(strings.ToLower(k), "token") {
				t.Errorf("carol's page shows %q", k)
			}
		}
	}
	if code, _ := ad.adminGet(s, "users?role=root"); code != http.StatusBadRequest {
		t.Errorf("role=root: %d; want 400", code)
	}
}

// TestAdminConcurrentChanges: 50 concurrent role changes, bans and unbans
// of one user through the routes all succeed, and leave the user as the
// store says and the routes show.
func TestAdminConcurrentChanges(t *testing.T) {
	t.Parallel()
	s, ad := adminSite(t)
	newBrowser(t).mustSignIn(s, "oidc", "bob")
	bob := s.userID("bob@example.com")
	token := ad.csrf(s)
	var wg sync.WaitGroup
	codes := make(chan int, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			action, form := "ban", url.Values{"csrfToken": {token}}
			switch i % 3 {
			case 1:
				action = "unban"
			case 2:
				action = "role"
				form.Set("role", []string{"user", "admin"}[i%2])
			}
			resp := ad.post(s.url+"/auth/admin/users/"+bob+"/"+action, form)
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		// 403 protected: a ban that came after a role change to admin.
		if c != http.StatusOK && c != http.StatusForbidden {
			t.Errorf("a concurrent change answered %d", c)
		}
	}
	st, err := s.store.UserStatus(context.Background(), bob)
	if err != nil {
		t.Fatal(err)
	}
	_, v := ad.adminGet(s, "users/"+bob)
	if v["role"] != string(st.Role) || v["banned"] != st.Ban.Active(time.Now()) {
		t.Errorf("the route shows %v %v, the store %+v", v["role"], v["banned"], st)
	}
}

// errLastOwner is what a BeforeDelete of another feature might answer.
var errLastOwner = errors.New("the last owner of an organization")

// TestDeleteSelf: with SelfDelete, a signed-in user deletes their own
// account (fresh sign-in, CSRF, BeforeDelete's consent) and is signed
// out; an administrator's delete asks BeforeDelete too.
func TestDeleteSelf(t *testing.T) {
	t.Parallel()
	refuse := map[string]bool{}
	var mu sync.Mutex
	s := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) {
		c.Admin = admin.Enable(admin.Config{SelfDelete: true, BeforeDelete: func(_ context.Context, id string) error {
			mu.Lock()
			defer mu.Unlock()
			if refuse[id] {
				return errLastOwner
			}
			return nil
		}})
	})
	ad := signedInAdmin(t, s)
	bob, carol := newBrowser(t), newBrowser(t)
	bob.mustSignIn(s, "oidc", "bob")
	carol.mustSignIn(s, "oidc", "carol")
	bobID, carolID := s.userID("bob@example.com"), s.userID("carol@example.com")
	del := func(b *browser, csrf bool) (int, map[string]any) {
		form := url.Values{}
		if csrf {
			form.Set("csrfToken", b.csrf(s))
		}
		return decode(t, b.post(s.url+"/auth/account/delete", form))
	}
	if code, v := del(newBrowser(t), true); code != http.StatusUnauthorized {
		t.Errorf("nobody: %d %v; want 401", code, v)
	}
	if code, v := del(bob, false); code != http.StatusForbidden || v["error"] != "MissingCSRF" {
		t.Errorf("without the CSRF token: %d %v; want 403 MissingCSRF", code, v)
	}
	mu.Lock()
	refuse[carolID] = true
	mu.Unlock()
	if code, v := del(carol, true); code != http.StatusForbidden || v["code"] != "refused" {
		t.Errorf("refused by BeforeDelete: %d %v; want 403 refused", code, v)
	}
	if code, v := ad.adminPost(s, carolID, "delete", nil); code != http.StatusForbidden || v["code"] != "refused" {
		t.Errorf("an administrator's delete refused by BeforeDelete: %d %v; want 403 refused", code, v)
	}
	if !carol.private(s) {
		t.Error("a refused deletion ended carol's session")
	}
	if code, v := del(bob, true); code != http.StatusOK || v["deleted"] != bobID {
		t.Fatalf("delete: %d %v", code, v)
	}
	if bob.private(s) || bob.sessionUser(s) != "" {
		t.Error("the deleted user is still signed in")
	}
	if _, err := s.db.GetUser(context.Background(), bobID); err == nil {
		t.Error("the deleted user is still stored")
	}
	evs := s.ev.all()
	if last := evs[len(evs)-1]; last.Action != admin.ActionDeleteSelf || last.ActorID != bobID || last.TargetID != bobID {
		t.Errorf("last event %+v; want delete-self by bob", last)
	}

	// An old sign-in is not enough; without SelfDelete the route is not there.
	stale := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) {
		c.Admin = admin.Enable(admin.Config{SelfDelete: true})
		c.Session.FreshAge = time.Millisecond
	})
	old := newBrowser(t)
	old.mustSignIn(stale, "oidc", "bob")
	time.Sleep(5 * time.Millisecond)
	if code, v := decode(t, old.post(stale.url+"/auth/account/delete", url.Values{"csrfToken": {old.csrf(stale)}})); code != http.StatusForbidden || v["code"] != "fresh_sign_in" {
		t.Errorf("an old sign-in: %d %v; want 403 fresh_sign_in", code, v)
	}
	off := newSite(t, newOP(t), memory.New(), nil)
	other := newBrowser(t)
	other.mustSignIn(off, "oidc", "bob")
	if resp := other.post(off.url+"/auth/account/delete", url.Values{"csrfToken": {other.csrf(off)}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("without SelfDelete: %d; want 404", resp.StatusCode)
	}
}
