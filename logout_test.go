package gatehouse_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

var twoUsers = authtest.Options{Users: []authtest.User{
	{Subject: "alice", Name: "Alice", Email: "alice@example.com", EmailVerified: true},
	{Subject: "bob", Name: "Bob", Email: "bob@example.com", EmailVerified: true},
}}

// signInUser signs in at dev as the provider user sub (login_hint).
func (b *browser) signInUser(a *app, sub string) {
	b.T.Helper()
	resp, body := b.signInAs(a, "dev", sub)
	if !strings.HasPrefix(body, "hello "+sub+"@") {
		b.T.Fatalf("sign-in as %s: %s %q", sub, resp.Request.URL, body)
	}
}

func postLogout(t *testing.T, a *app, token string) int {
	t.Helper()
	resp, err := http.PostForm(a.url+"/auth/backchannel-logout/dev", url.Values{"logout_token": {token}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
		t.Errorf("Cache-Control %q", cc)
	}
	return resp.StatusCode
}

// logOutAtProvider has the provider send a logout token for its user sub,
// with claims changed by claims (see authtest's LogoutToken), and fails
// the test unless the Handler answers 200. It returns the token sent.
func logOutAtProvider(t *testing.T, a *app, sub string, claims map[string]any) string {
	t.Helper()
	tok, err := a.op.LogoutToken(sub, claims)
	if err != nil {
		t.Fatal(err)
	}
	if st := postLogout(t, a, tok); st != http.StatusOK {
		t.Fatalf("logout answered %d", st)
	}
	return tok
}

// foreignToken signs claims with a key the provider never published,
// under kid.
func foreignToken(t *testing.T, kid string, claims map[string]any) string {
	t.Helper()
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: k}, (&jose.SignerOptions{}).WithType("logout+jwt").WithHeader("kid", kid))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(s).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestBackChannelLogout: a valid logout token ends every database session
// of its user and no one else's; the same token again is refused.
func TestBackChannelLogout(t *testing.T) {
	a := newApp(t, twoUsers, func(c *gatehouse.Config) { c.Adapter = memory.New() })
	alice1, alice2, bob := newBrowser(t), newBrowser(t), newBrowser(t)
	alice1.signInUser(a, "alice")
	alice2.signInUser(a, "alice")
	bob.signInUser(a, "bob")

	tok := logOutAtProvider(t, a, "alice", nil)
	for i, b := range []*browser{alice1, alice2} {
		if s := b.session(a); s != nil {
			t.Fatalf("alice's session %d survived: %v", i+1, s)
		}
	}
	if s := bob.session(a); s == nil {
		t.Fatal("bob's session ended too")
	}
	// jti replay (Back-Channel Logout §2.6 step 10).
	alice1.signInUser(a, "alice")
	if st := postLogout(t, a, tok); st != http.StatusBadRequest {
		t.Fatalf("replayed token answered %d", st)
	}
	if s := alice1.session(a); s == nil {
		t.Fatal("a replayed token ended a session")
	}
	// An unknown subject: nothing to do, 200.
	tok, _ = a.op.LogoutToken("nobody", nil)
	if st := postLogout(t, a, tok); st != http.StatusOK {
		t.Fatalf("unknown subject answered %d", st)
	}
}

// TestBackChannelLogoutRefusals: each broken logout token is refused with
// 400 and ends no session (Back-Channel Logout 1.0 §2.6).
func TestBackChannelLogoutRefusals(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.Adapter = memory.New() })
	b := newBrowser(t)
	b.signInUser(a, "alice")
	now := time.Now()
	mk := func(claims map[string]any) string {
		tok, err := a.op.LogoutToken("alice", claims)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	cases := map[string]string{
		"wrong iss":        mk(map[string]any{"iss": a.op.Issuer() + "/evil"}),
		"wrong aud":        mk(map[string]any{"aud": "other-client"}),
		"expired":          mk(map[string]any{"exp": now.Add(-time.Hour).Unix(), "iat": now.Add(-2 * time.Hour).Unix()}),
		"no exp":           mk(map[string]any{"exp": nil}),
		"no iat":           mk(map[string]any{"iat": nil}),
		"iat in future":    mk(map[string]any{"iat": now.Add(time.Hour).Unix()}),
		"iat too old":      mk(map[string]any{"iat": now.Add(-time.Hour).Unix()}),
		"no events":        mk(map[string]any{"events": nil}),
		"wrong event":      mk(map[string]any{"events": map[string]any{"http://schemas.openid.net/event/other": map[string]any{}}}),
		"nonce (ID token)": mk(map[string]any{"nonce": "n"}),
		"no sub, no sid":   mk(map[string]any{"sub": nil}),
		"no jti":           mk(map[string]any{"jti": nil}),
		"azp other":        mk(map[string]any{"azp": "other-client"}),
		"foreign key":      foreignToken(t, a.op.KeyID(), map[string]any{"iss": a.op.Issuer(), "aud": authtest.DefaultClientID, "sub": "alice", "iat": now.Unix(), "exp": now.Add(time.Minute).Unix(), "jti": "j", "events": map[string]any{authtest.BackChannelLogoutEvent: map[string]any{}}}),
		"alg none":         "eyJhbGciOiJub25lIn0." + strings.Split(mk(nil), ".")[1] + ".",
		"garbage":          "a.b.c",
		"empty":            "",
	}
	for name, tok := range cases {
		if st := postLogout(t, a, tok); st != http.StatusBadRequest {
			t.Errorf("%s: answered %d, want 400", name, st)
		}
	}
	if s := b.session(a); s == nil {
		t.Fatal("a refused logout token ended the session")
	}
}

// TestBackChannelLogoutKidStorm: logout tokens are open to anyone; a
// stream of them with random kids does not make us hammer the JWKS.
func TestBackChannelLogoutKidStorm(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.Adapter = memory.New() })
	start := time.Now()
	for i := range 30 {
		tok := foreignToken(t, "kid-"+string(rune('a'+i)), map[string]any{"iss": a.op.Issuer(), "aud": authtest.DefaultClientID, "sub": "alice"})
		if st := postLogout(t, a, tok); st != http.StatusBadRequest {
			t.Fatalf("forged token answered %d", st)
		}
	}
	if n, most := count(a.op, authtest.EndpointJWKS), budgetFetches(start); n > most {
		t.Fatalf("30 random-kid tokens made %d JWKS fetches, want at most %d", n, most)
	}
}

// TestBackChannelLogoutJWTStrategy: stateless sessions cannot be ended
// from the back channel: 501, said plainly.
func TestBackChannelLogoutJWTStrategy(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	tok, _ := a.op.LogoutToken("alice", nil)
	if st := postLogout(t, a, tok); st != http.StatusNotImplemented {
		t.Fatalf("answered %d, want 501", st)
	}
}

// TestRPInitiatedLogout: with ProviderSignOut, sign-out goes on to the
// provider's end_session_endpoint with id_token_hint, client_id,
// post_logout_redirect_uri and state, and comes back through a state
// check to the callback URL.
func TestRPInitiatedLogout(t *testing.T) {
	for _, strategy := range []string{"database", "jwt"} {
		t.Run(strategy, func(t *testing.T) {
			a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
				c.ProviderSignOut = true
				if strategy == "database" {
					c.Adapter = memory.New()
				}
			})
			b := newBrowser(t)
			b.signIn(a, "dev", "/private")
			resp := b.Post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/bye"}})
			loc, _ := url.Parse(resp.Header.Get("Location"))
			q := loc.Query()
			if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc.String(), a.op.Issuer()+"/end_session?") ||
				q.Get("client_id") != authtest.DefaultClientID || q.Get("post_logout_redirect_uri") != a.url+"/auth/signout/callback/dev" || len(q.Get("state")) < 40 {
				t.Fatalf("sign-out went to %d %s", resp.StatusCode, loc)
			}
			if (q.Get("id_token_hint") != "") != (strategy == "database") {
				t.Fatalf("id_token_hint = %q with the %s strategy", q.Get("id_token_hint"), strategy)
			}
			if s := b.session(a); s != nil {
				t.Fatal("the local session survived")
			}
			// The provider sends the browser back with a tampered state: refused.
			bad := *loc
			bq := bad.Query()
			bq.Set("state", q.Get("state")+"x")
			bad.RawQuery = bq.Encode()
			// A copy of the browser's cookies for the bad attempt.
			evil := b.Follow(b.Get(a.op.Issuer() + "/end_session?" + bq.Encode()))
			if evil.Request.URL.Query().Get("error") != "InvalidCheck" {
				t.Fatalf("tampered state ended on %s", evil.Request.URL)
			}
			// The genuine round trip, again from a fresh sign-out.
			b.signIn(a, "dev", "/private")
			resp = b.Post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/bye"}})
			final := b.Follow(resp)
			if final.Request.URL.String() != a.url+"/bye" {
				t.Fatalf("RP-initiated logout ended on %s (hops %v)", final.Request.URL, b.Hops)
			}
		})
	}
}

// TestProviderSignOutOff: without the option, sign-out stays local.
func TestProviderSignOutOff(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.Adapter = memory.New() })
	b := newBrowser(t)
	b.signIn(a, "dev", "/private")
	resp := b.Post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/bye"}})
	if loc := resp.Header.Get("Location"); loc != a.url+"/bye" {
		t.Fatalf("sign-out went to %q", loc)
	}
}

// TestBackChannelLogoutBySID: one user signed in in two browsers; a logout
// token with the sid of the first ends that session only (Back-Channel
// Logout 1.0 §2.4), with or without sub; a sid-only token is accepted; a
// sub-only token ends that user's sessions from the provider. Failed
// before: sid was ignored and every session of the user ended (or, for a
// sid-only token, 400).
func TestBackChannelLogoutBySID(t *testing.T) {
	for _, withSub := range []bool{true, false} {
		t.Run(map[bool]string{true: "sub and sid", false: "sid only"}[withSub], func(t *testing.T) {
			opts := twoUsers
			opts.SessionIDs = true
			a := newApp(t, opts, func(c *gatehouse.Config) { c.Adapter = memory.New() })
			first, second, bob := newBrowser(t), newBrowser(t), newBrowser(t)
			first.signInUser(a, "alice")
			second.signInUser(a, "alice")
			bob.signInUser(a, "bob")
			sids := a.op.SIDs("alice")
			if len(sids) != 2 {
				t.Fatalf("sids issued to alice: %q", sids)
			}
			claims := map[string]any{"sid": sids[0]}
			if !withSub {
				claims["sub"] = nil
			}
			logOutAtProvider(t, a, "alice", claims)
			if s := first.session(a); s != nil {
				t.Fatal("the session of the logged-out sid survived")
			}
			if s := second.session(a); s == nil {
				t.Fatal("alice's other session (another sid) ended too")
			}
			if s := bob.session(a); s == nil {
				t.Fatal("bob's session ended")
			}
			// sub only: every session of alice from this provider.
			tok, _ := a.op.LogoutToken("alice", nil)
			if st := postLogout(t, a, tok); st != http.StatusOK {
				t.Fatalf("sub-only logout answered %d", st)
			}
			if s := second.session(a); s != nil {
				t.Fatal("a sub-only logout token left a session of the user")
			}
			if s := bob.session(a); s == nil {
				t.Fatal("bob's session ended")
			}
		})
	}
}

// preMigrationAdapter stores sessions as an adapter did before sessions
// recorded their provider and sid (PostgreSQL migration 0003, SQLite
// 0004: the new columns default to ""), while legacy is set.
type preMigrationAdapter struct {
	*memory.Adapter
	legacy bool
}

func (p *preMigrationAdapter) CreateSession(ctx context.Context, s adapter.Session) (adapter.Session, error) {
	if p.legacy {
		s.Provider, s.SID = "", ""
	}
	return p.Adapter.CreateSession(ctx, s)
}

// TestBackChannelLogoutPreMigrationSessions: a session created before the
// upgrade (no provider, no sid recorded) still ends when the provider
// logs its user out, as it did before sessions were scoped by sid, and
// another user's does not.
func TestBackChannelLogoutPreMigrationSessions(t *testing.T) {
	for _, withSID := range []bool{false, true} {
		t.Run(map[bool]string{false: "sub only", true: "sub and sid"}[withSID], func(t *testing.T) {
			opts := twoUsers
			opts.SessionIDs = true
			store := &preMigrationAdapter{Adapter: memory.New(), legacy: true}
			a := newApp(t, opts, func(c *gatehouse.Config) { c.Adapter = store })
			old, bob, current := newBrowser(t), newBrowser(t), newBrowser(t)
			old.signInUser(a, "alice")
			bob.signInUser(a, "bob")
			store.legacy = false
			current.signInUser(a, "alice")
			claims := map[string]any{}
			if withSID {
				claims["sid"] = a.op.SIDs("alice")[1]
			}
			logOutAtProvider(t, a, "alice", claims)
			if s := old.session(a); s != nil {
				t.Error("alice's session from before the upgrade survived her logout at the provider")
			}
			if s := current.session(a); s != nil {
				t.Error("alice's current session survived")
			}
			if s := bob.session(a); s == nil {
				t.Error("bob's session from before the upgrade ended")
			}
		})
	}
}

func TestSignOutNeedsCSRF(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	resp := b.Post(a.url+"/auth/signout", url.Values{"csrfToken": {"forged"}})
	if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=MissingCSRF") {
		t.Fatalf("sign-out with a forged token went to %q", loc)
	}
	if s := b.session(a); s == nil {
		t.Fatal("a forged sign-out ended the session")
	}
}
