package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// TestBanAndTheTwoFactorStep: a user banned between the first factor and
// the code is refused at the code (the session is not made), and a user
// banned before is refused before being asked for a code.
func TestBanAndTheTwoFactorStep(t *testing.T) {
	t.Parallel()
	db := memory.New()
	s := newSite(t, newOP(t), db, func(c *gatehouse.Config) {
		c.TwoFactor = twofactor.SignIn{Issuer: "Test"}
	})
	ad := signedInAdmin(t, s)
	first := newBrowser(t)
	first.mustSignIn(s, "oidc", "bob") // bob exists, without two-factor yet
	bob := s.userID("bob@example.com")
	backup := enrollTwoFactor(t, db, bob, "bob@example.com")

	// The first factor: the browser is asked for a code.
	b := newBrowser(t)
	resp, _ := b.signIn(s, "oidc", "bob")
	if resp.Request.URL.Path != "/auth/two-factor" {
		t.Fatalf("the first factor ended at %s; want the code form", resp.Request.URL)
	}
	// Banned meanwhile.
	if code, v := ad.adminPost(s, bob, "ban", nil); code != http.StatusOK {
		t.Fatalf("ban: %d %v", code, v)
	}
	resp, _ = b.FollowBody(b.post(s.url+"/auth/two-factor", url.Values{"csrfToken": {b.csrf(s)}, "code": {backup[0]}}))
	wantBanned(t, b, s, resp, "two-factor step")

	// Banned before: no code is asked.
	again := newBrowser(t)
	resp, _ = again.signIn(s, "oidc", "bob")
	wantBanned(t, again, s, resp, "first factor of a two-factor user")

	// Unbanned, the second backup code finishes a sign-in.
	if code, v := ad.adminPost(s, bob, "unban", nil); code != http.StatusOK {
		t.Fatalf("unban: %d %v", code, v)
	}
	ok := newBrowser(t)
	if resp, _ := ok.signIn(s, "oidc", "bob"); resp.Request.URL.Path != "/auth/two-factor" {
		t.Fatalf("after the unban the first factor ended at %s", resp.Request.URL)
	}
	resp, body := ok.FollowBody(ok.post(s.url+"/auth/two-factor", url.Values{"csrfToken": {ok.csrf(s)}, "code": {backup[1]}, "callbackUrl": {"/private"}}))
	if !ok.private(s) {
		t.Fatalf("after the unban the code ended at %s (%d) %.200q", resp.Request.URL, resp.StatusCode, body)
	}
}

// TestRevokeAndTheTwoFactorStep: a sign-in that passed its first factor
// before an administrator ended the user's sessions (revoke-sessions) is
// ended with them: the code makes no session, with either strategy, and
// a sign-in begun afterwards finishes.
func TestRevokeAndTheTwoFactorStep(t *testing.T) {
	for _, strategy := range []gatehouse.Strategy{gatehouse.StrategyDatabase, gatehouse.StrategyJWT} {
		t.Run(string(strategy), func(t *testing.T) {
			t.Parallel()
			db := memory.New()
			s := newSite(t, newOP(t), db, func(c *gatehouse.Config) {
				c.TwoFactor = twofactor.SignIn{Issuer: "Test"}
				c.Session.Strategy = strategy
			})
			ad := signedInAdmin(t, s)
			newBrowser(t).mustSignIn(s, "oidc", "bob") // bob exists, without two-factor yet
			bob := s.userID("bob@example.com")
			backup := enrollTwoFactor(t, db, bob, "bob@example.com")

			// The first factor, then the revocation, then the code.
			b := newBrowser(t)
			if resp, _ := b.signIn(s, "oidc", "bob"); resp.Request.URL.Path != "/auth/two-factor" {
				t.Fatalf("the first factor ended at %s; want the code form", resp.Request.URL)
			}
			if code, v := ad.adminPost(s, bob, "revoke-sessions", nil); code != http.StatusOK {
				t.Fatalf("revoke-sessions: %d %v", code, v)
			}
			resp, _ := b.FollowBody(b.post(s.url+"/auth/two-factor", url.Values{"csrfToken": {b.csrf(s)}, "code": {backup[0]}, "callbackUrl": {"/private"}}))
			if q := resp.Request.URL.Query(); resp.Request.URL.Path != "/auth/error" || q.Get("error") != "AccessDenied" || resp.StatusCode != http.StatusForbidden {
				t.Fatalf("the code of a sign-in begun before revoke-sessions ended at %s (%d); want /auth/error?error=AccessDenied, 403", resp.Request.URL, resp.StatusCode)
			}
			if c := resp.Request.URL.Query().Get("code"); c != "revoked" {
				t.Errorf("the refusal's code is %q; want revoked", c)
			}
			if got := b.sessionUser(s); got != "" || b.private(s) {
				t.Fatalf("the code of a sign-in begun before revoke-sessions left a session of %q", got)
			}
			if list, err := db.ListSessions(context.Background(), bob); err != nil || len(list) != 0 {
				t.Fatalf("database sessions after the refused code: %d, %v", len(list), err)
			}

			// A sign-in begun after the revocation finishes, and lives.
			ok := newBrowser(t)
			if resp, _ := ok.signIn(s, "oidc", "bob"); resp.Request.URL.Path != "/auth/two-factor" {
				t.Fatalf("after the revocation the first factor ended at %s", resp.Request.URL)
			}
			resp, body := ok.FollowBody(ok.post(s.url+"/auth/two-factor", url.Values{"csrfToken": {ok.csrf(s)}, "code": {backup[1]}, "callbackUrl": {"/private"}}))
			if resp.Request.URL.Path != "/private" || !ok.private(s) {
				t.Fatalf("after the revocation the code ended at %s (%d) %.200q", resp.Request.URL, resp.StatusCode, body)
			}
		})
	}
}

// enrollTwoFactor turns two-factor sign-in on for the user in store, as
// the settings would, and returns their backup codes (at least two).
func enrollTwoFactor(t *testing.T, store twofactor.Store, userID, email string) []string {
	t.Helper()
	ctx := context.Background()
	svc, err := twofactor.New(twofactor.Config{TOTP: twofactor.TOTP{Issuer: "Test"}, Secret: []string{secret}, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	e, err := svc.Enroll(ctx, userID, email)
	if err != nil {
		t.Fatal(err)
	}
	code, err := (twofactor.TOTP{Issuer: "Test"}).Code(e.Secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	backup, err := svc.Confirm(ctx, userID, code)
	if err != nil || len(backup) < 2 {
		t.Fatalf("Confirm: %v, %d backup codes", err, len(backup))
	}
	return backup
}
