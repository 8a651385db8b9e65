package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/admin"
)

// createUser posts POST {base}/admin/users with form.
func (b *browser) createUser(s *site, form url.Values) (int, map[string]any) {
	b.t.Helper()
	form.Set("csrfToken", b.csrf(s))
	return decode(b.t, b.post(s.url+"/auth/admin/users", form))
}

// TestAdminCreateUser: an administrator creates a user with a role and a
// password hashed as the password-accounts provider hashes, unverified;
// a taken address, a bad role or a short password are refused and create
// nobody; the event names the new user.
func TestAdminCreateUser(t *testing.T) {
	t.Parallel()
	s, ad := adminSite(t)
	me := s.userID("admin@example.com")
	code, v := ad.createUser(s, url.Values{"email": {" New@Example.com "}, "name": {"Newt"}, "role": {"admin"}, "password": {"a long enough password"}})
	if code != http.StatusCreated || v["email"] != "new@example.com" || v["name"] != "Newt" || v["role"] != "admin" {
		t.Fatalf("create: %d %v", code, v)
	}
	id := v["id"].(string)
	ctx := context.Background()
	u, err := s.db.GetUser(ctx, id)
	if err != nil || u.EmailVerified != nil {
		t.Errorf("the created user is %+v, %v; want an unverified address", u, err)
	}
	hash, err := s.db.(adapter.PasswordStore).PasswordHash(ctx, id)
	if err != nil || hasher.Verify(ctx, "a long enough password", hash) != nil {
		t.Errorf("the stored password does not verify with the provider's hasher: %v", err)
	}
	if st, err := s.store.UserStatus(ctx, id); err != nil || st.Role != admin.RoleAdmin {
		t.Errorf("the created user's status: %+v, %v", st, err)
	}
	ev := s.ev.all()
	if len(ev) != 1 || ev[0].Action != admin.ActionCreateUser || ev[0].ActorID != me || ev[0].TargetID != id || ev[0].Role != admin.RoleAdmin {
		t.Errorf("events = %+v; want one create-user of %s", ev, id)
	}
	for _, c := range []struct {
		form   url.Values
		status int
		code   string
	}{
		{url.Values{"email": {"new@example.com"}}, http.StatusConflict, "email_taken"},
		{url.Values{"email": {"x@example.com"}, "role": {"root"}}, http.StatusBadRequest, "invalid_role"},
		{url.Values{"email": {"x@example.com"}, "password": {"short"}}, http.StatusBadRequest, "password_too_short"},
		{url.Values{"email": {"not an address"}}, http.StatusBadRequest, "invalid_email"},
	} {
		if code, v := ad.createUser(s, c.form); code != c.status || v["code"] != c.code {
			t.Errorf("create %v: %d %v; want %d %s", c.form, code, v, c.status, c.code)
		}
	}
	if _, err := s.db.GetUserByEmail(ctx, "x@example.com"); err == nil {
		t.Error("a refused creation stored a user")
	}
	if n := len(s.ev.all()); n != 1 {
		t.Errorf("refused creations were told: %d events", n)
	}
}

// TestAdminSetPassword: an administrator sets a user's password, which
// then signs in while the old one does not; another administrator's and
// their own are refused; without the password-accounts provider the
// route is not there and a created user gets no password.
func TestAdminSetPassword(t *testing.T) {
	t.Parallel()
	s, ad := adminSite(t)
	me := s.userID("admin@example.com")
	pat := passwordUser(t, s, "pat@example.com")
	if code, v := ad.adminPost(s, pat, "set-password", url.Values{"password": {"a new long password"}}); code != http.StatusOK || v["id"] != pat {
		t.Fatalf("set-password: %d %v", code, v)
	}
	if resp, _ := newBrowser(t).signIn(s, "password", "pat@example.com"); resp.Request.URL.Path == "/private" {
		t.Error("the old password still signs in")
	}
	b := newBrowser(t)
	resp, _ := b.FollowBody(b.post(s.url+"/auth/callback/password", url.Values{"csrfToken": {b.csrf(s)}, "callbackUrl": {"/private"},
		"email": {"pat@example.com"}, "password": {"a new long password"}}))

	if resp.Request.URL.Path != "/private" {
		t.Errorf("the new password ended at %s", resp.Request.URL)
	}
	ev := s.ev.all()
	if len(ev) != 1 || ev[0].Action != admin.ActionSetPassword || ev[0].ActorID != me || ev[0].TargetID != pat {
		t.Errorf("events = %+v; want one set-password of %s", ev, pat)
	}
	if code, v := ad.adminPost(s, pat, "set-password", url.Values{"password": {"short"}}); code != http.StatusBadRequest || v["code"] != "password_too_short" {
		t.Errorf("a short password: %d %v", code, v)
	}
	other := passwordUser(t, s, "ops@example.com")
	if err := s.store.SetUserRole(context.Background(), other, admin.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{other: "protected", me: "self"} {
		if code, v := ad.adminPost(s, id, "set-password", url.Values{"password": {"a new long password"}}); code != http.StatusForbidden || v["code"] != want {
			t.Errorf("set-password of %s: %d %v; want 403 %s", id, code, v, want)
		}
	}
	if n := len(s.ev.all()); n != 1 {
		t.Errorf("refused changes were told: %d events", n)
	}

	// A site without password accounts.
	plain := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) { c.Providers = c.Providers[:1] })
	pad := signedInAdmin(t, plain)
	bob := newBrowser(t)
	bob.mustSignIn(plain, "oidc", "bob")
	if resp := pad.post(plain.url+"/auth/admin/users/"+plain.userID("bob@example.com")+"/set-password",
		url.Values{"csrfToken": {pad.csrf(plain)}, "password": {"a new long password"}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("set-password without password accounts: %d; want 404", resp.StatusCode)
	}
	if code, v := pad.createUser(plain, url.Values{"email": {"y@example.com"}, "password": {"a new long password"}}); code != http.StatusBadRequest || v["code"] != "password_not_supported" {
		t.Errorf("create with a password without password accounts: %d %v", code, v)
	}
	if code, v := pad.createUser(plain, url.Values{"email": {"y@example.com"}}); code != http.StatusCreated || v["role"] != "user" {
		t.Errorf("create without a password: %d %v", code, v)
	}
}

// TestAdminRevokeSession: an administrator ends one session of a user,
// named by the id the user's page lists; the user's other session stays,
// an unknown id is 404, another administrator's sessions are refused.
func TestAdminRevokeSession(t *testing.T) {
	t.Parallel()
	s, ad := adminSite(t)
	one, two := newBrowser(t), newBrowser(t)
	one.mustSignIn(s, "oidc", "bob")
	two.mustSignIn(s, "oidc", "bob")
	bob := s.userID("bob@example.com")
	_, v := ad.adminGet(s, "users/"+bob)
	list, _ := v["sessions"].([]any)
	if len(list) != 2 {
		t.Fatalf("bob's page lists %v; want 2 sessions", v["sessions"])
	}
	if code, v := ad.adminPost(s, bob, "revoke-session", url.Values{"id": {"nope"}}); code != http.StatusNotFound || v["code"] != "no_such_session" {
		t.Errorf("an unknown id: %d %v", code, v)
	}
	id := list[0].(map[string]any)["id"].(string)
	if code, v := ad.adminPost(s, bob, "revoke-session", url.Values{"id": {id}}); code != http.StatusOK {
		t.Fatalf("revoke-session: %d %v", code, v)
	}
	if one.private(s) == two.private(s) {
		t.Errorf("after one revocation: first %v, second %v; want exactly one ended", one.private(s), two.private(s))
	}
	ev := s.ev.all()
	if len(ev) != 1 || ev[0].Action != admin.ActionRevokeSession || ev[0].TargetID != bob || ev[0].Sessions != 1 {
		t.Errorf("events = %+v; want one revoke-session of %s", ev, bob)
	}
	if err := s.store.SetUserRole(context.Background(), bob, admin.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if code, v := ad.adminPost(s, bob, "revoke-session", url.Values{"id": {id}}); code != http.StatusForbidden || v["code"] != "protected" {
		t.Errorf("revoke-session of an administrator: %d %v; want 403 protected", code, v)
	}
}

// TestBanReasonShown: a banned user's sign-in ends on the error page with
// the ban's reason when the administrator chose to show it, and its
// expiry when it has one; a hidden reason stays hidden, and the page's
// ?ban= value cannot be forged.
func TestBanReasonShown(t *testing.T) {
	t.Parallel()
	s, ad := adminSite(t)
	newBrowser(t).mustSignIn(s, "oidc", "bob")
	newBrowser(t).mustSignIn(s, "oidc", "carol")
	bob, carol := s.userID("bob@example.com"), s.userID("carol@example.com")
	ad.adminPost(s, bob, "ban", url.Values{"reason": {"spam <b>links</b>"}, "showReason": {"1"}, "expiresIn": {"86400"}})
	ad.adminPost(s, carol, "ban", url.Values{"reason": {"internal note"}})
	b := newBrowser(t)
	resp, body := b.signIn(s, "oidc", "bob")
	wantBanned(t, b, s, resp, "oidc")
	if !strings.Contains(body, "Reason: spam &lt;b&gt;links&lt;/b&gt;") || !strings.Contains(body, "The suspension ends on") {
		t.Errorf("bob's error page shows no reason or expiry:\n%s", body)
	}
	if resp.Request.URL.Query().Get("ban") == "" || strings.Contains(resp.Request.URL.RawQuery, "spam") {
		t.Errorf("the error page's URL: %s; want the reason sealed", resp.Request.URL)
	}
	c := newBrowser(t)
	resp, body = c.signIn(s, "oidc", "carol")
	wantBanned(t, c, s, resp, "oidc")
	if strings.Contains(body, "internal note") || strings.Contains(body, "Reason:") || strings.Contains(body, "ends on") {
		t.Errorf("carol's error page shows the hidden reason:\n%s", body)
	}
	_, forged := newBrowser(t).FollowBody(newBrowser(t).Get(s.url + "/auth/error?error=Banned&ban=" + url.QueryEscape("r=visit evil.example")))
	if strings.Contains(forged, "evil.example") {
		t.Error("a forged ?ban= is shown")
	}
}

// TestAdminSetPasswordEndsSessions: setting a user's password ends every
// session of theirs, database and JWT, signed in with any kind (the
// event counts the database ones); the user signs in again with the new
// password. keepSessions=1 keeps them.
func TestAdminSetPasswordEndsSessions(t *testing.T) {
	for _, strategy := range []gatehouse.Strategy{gatehouse.StrategyDatabase, gatehouse.StrategyJWT} {
		t.Run(string(strategy), func(t *testing.T) {
			t.Parallel()
			s := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) { c.Session.Strategy = strategy })
			ad := signedInAdmin(t, s)
			pat := passwordUser(t, s, "pat@example.com")
			phone, laptop := newBrowser(t), newBrowser(t)
			phone.mustSignIn(s, "password", "pat@example.com")
			laptop.mustSignIn(s, "password", "pat@example.com")
			bob := signedInAs(t, s, "bob")

			if code, v := ad.adminPost(s, pat, "set-password", url.Values{"password": {"a new long password"}}); code != http.StatusOK {
				t.Fatalf("set-password: %d %v", code, v)
			}
			if phone.private(s) || laptop.private(s) {
				t.Error("a session of the user outlived the password set by an administrator")
			}
			if !bob.private(s) || !ad.private(s) {
				t.Error("setting pat's password ended another user's session")
			}
			ev := s.ev.all()
			wantSessions := 0
			if strategy == gatehouse.StrategyDatabase {
				wantSessions = 2
			}
			if last := ev[len(ev)-1]; last.Action != admin.ActionSetPassword || last.Sessions != wantSessions {
				t.Errorf("event %+v; want set-password with %d sessions", last, wantSessions)
			}
			// The new password signs in, and that session lives.
			b := newBrowser(t)
			resp, _ := b.FollowBody(b.post(s.url+"/auth/callback/password", url.Values{"csrfToken": {b.csrf(s)}, "callbackUrl": {"/private"},
				"email": {"pat@example.com"}, "password": {"a new long password"}}))

			if resp.Request.URL.Path != "/private" || !b.private(s) {
				t.Fatalf("the new password ended at %s", resp.Request.URL)
			}
			// keepSessions=1 keeps them.
			if code, v := ad.adminPost(s, pat, "set-password", url.Values{"password": {"another long password"}, "keepSessions": {"1"}}); code != http.StatusOK {
				t.Fatalf("set-password keeping sessions: %d %v", code, v)
			}
			if !b.private(s) {
				t.Error("keepSessions=1 ended the user's session")
			}
		})
	}
}
