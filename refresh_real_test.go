package gatehouse_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// oidcProviderLike is authtest configured as node oidc-provider behaves:
// refresh tokens rotated, the sign-in's nonce repeated in refreshed ID
// tokens, and the whole grant revoked when a used refresh token comes
// back (RFC 9700 §4.14.2).
var oidcProviderLike = authtest.Options{RepeatNonceOnRefresh: true, RevokeOnRefreshReuse: true}

// TestRefreshAgainstRotatingProvider: two successive refreshes succeed in
// both session strategies; each sends the refresh token the previous one
// received, and the grant is never revoked. Failed before: with JWT
// sessions the first refresh was refused (nonce_unexpected), its rotated
// refresh token dropped, and the next refresh revoked the grant.
func TestRefreshAgainstRotatingProvider(t *testing.T) {
	for _, strategy := range []string{"jwt", "database"} {
		t.Run(strategy, func(t *testing.T) {
			var a *app
			var st *store
			if strategy == "jwt" {
				a = newApp(t, oidcProviderLike, func(c *gatehouse.Config) { c.Callbacks.JWT = gatehouse.KeepTokens(nil) })
			} else {
				st = openStore(t, "sqlite")
				a, _ = newDBApp(t, st, oidcProviderLike, nil)
			}
			b := newBrowser(t)
			b.signIn(a, "dev", "/")
			var tokens []string
			for round := range 2 {
				w := httptest.NewRecorder()
				// MinValidity longer than the token's life: every Token call refreshes.
				ts, err := a.h.TokenSource(context.Background(), w, b.appRequest(a), "dev", gatehouse.MinValidity(24*time.Hour))
				if err != nil {
					t.Fatal(err)
				}
				tok, err := ts.Token()
				if err != nil {
					t.Fatalf("refresh %d: %v", round+1, err)
				}
				tokens = append(tokens, tok.AccessToken)
				b.keep(a, w) // the re-issued session cookie, with the rotated refresh token
			}
			sent := refreshRequests(a.op)
			if len(sent) != 2 || sent[0] == sent[1] {
				t.Fatalf("refresh tokens sent: %q, want two different ones (the second the rotated one)", sent)
			}
			if tokens[0] == tokens[1] {
				t.Fatal("the second refresh gave the same access token")
			}
			if n := a.op.RevokedGrants(); n != 0 {
				t.Fatalf("the provider revoked %d grants (a refresh token was sent twice)", n)
			}
			if got := userinfoStatus(t, a.op, staticToken(tokens[1])); got != 200 {
				t.Fatalf("the last access token is refused by the provider: %d", got)
			}
		})
	}
}

// staticToken is an oauth2.TokenSource of one access token.
func staticToken(access string) oauth2.TokenSource {
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: access, TokenType: "Bearer"})
}

// TestRefreshIDTokenRulesJWT: with JWT sessions, where the ID token is
// not kept, the sign-in's claims kept beside the tokens still let OIDC
// Core §12.2 be checked: a changed sub, auth_time, aud or iss, or a nonce
// other than the sign-in's, refuses the refresh; the sign-in's nonce
// repeated, or none, is accepted. Failed before: sub and auth_time were
// not compared at all with JWT sessions.
func TestRefreshIDTokenRulesJWT(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   authtest.Options
		faults authtest.Faults
		code   string // "" for a refresh that is taken
	}{
		{"nonce absent", authtest.Options{}, authtest.Faults{}, ""},
		{"nonce repeated", authtest.Options{RepeatNonceOnRefresh: true}, authtest.Faults{}, ""},
		{"nonce other", authtest.Options{RepeatNonceOnRefresh: true}, authtest.Faults{IDTokenWrongNonce: true}, "nonce_unexpected"},
		{"sub changed", authtest.Options{}, authtest.Faults{IDTokenWrongSubject: true}, "refresh_sub"},
		{"auth_time changed", authtest.Options{}, authtest.Faults{IDTokenWrongAuthTime: true}, "refresh_auth_time"},
		{"aud changed", authtest.Options{}, authtest.Faults{IDTokenWrongAudience: true}, "audience"},
		{"iss changed", authtest.Options{}, authtest.Faults{IDTokenWrongIssuer: true}, "issuer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newApp(t, tc.opts, func(c *gatehouse.Config) { c.Callbacks.JWT = gatehouse.KeepTokens(nil) })
			b := newBrowser(t)
			b.signIn(a, "dev", "/")
			a.op.SetFaults(tc.faults)
			ts, err := a.h.TokenSource(context.Background(), httptest.NewRecorder(), b.appRequest(a), "dev", gatehouse.MinValidity(24*time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			_, err = ts.Token()
			var ge *gatehouse.Error
			switch {
			case tc.code == "" && err != nil:
				t.Fatalf("refresh refused: %v", err)
			case tc.code != "" && (!errors.As(err, &ge) || ge.Type != gatehouse.InvalidIDToken || ge.Code != tc.code):
				t.Fatalf("refresh: %v, want InvalidIDToken (%s)", err, tc.code)
			}
		})
	}
}

// TestRefreshAcrossInstancesPostgres: two handler instances, each with its
// own pool on one PostgreSQL database, refresh one user's expired token
// concurrently, round after round: exactly one token request per round,
// and the provider (rotating, revoking on reuse) never revokes the grant.
// Failed before: single-flight was per process, so both instances sent
// the same refresh token and the grant was revoked.
func TestRefreshAcrossInstancesPostgres(t *testing.T) {
	requirePostgres(t)
	schema, _ := pgSchema(t)
	op := newOP(t, authtest.Options{AutoApprove: true, RepeatNonceOnRefresh: true, RevokeOnRefreshReuse: true})
	var handlers [2]*gatehouse.Handler
	var pgs [2]*postgres.Adapter
	for i := range handlers {
		pgs[i] = pgAdapter(t, schema)
		if err := pgs[i].Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	a := startApp(t, op, func(c *gatehouse.Config) { c.Adapter = pgs[0] })
	handlers[0] = a.h
	h2, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, URL: a.url + "/auth", Adapter: pgs[1],
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Development", Type: providers.TypeOIDC,
			Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret}},
		HTTPClient: &http.Client{Timeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	handlers[1] = h2
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	ctx := context.Background()

	const rounds, perInstance = 20, 4
	for round := range rounds {
		acct, err := pgs[0].GetAccount(ctx, "dev", "alice")
		if err != nil {
			t.Fatal(err)
		}
		acct.ExpiresAt = time.Now().Add(-time.Minute).Unix()
		if err := pgs[0].UpdateAccount(ctx, acct); err != nil {
			t.Fatal(err)
		}
		before := len(refreshRequests(op))
		var wg sync.WaitGroup
		errs := make(chan error, 2*perInstance)
		for _, h := range handlers {
			for range perInstance {
				wg.Go(func() {
					ts, err := h.TokenSource(ctx, nil, b.appRequest(a), "dev")
					if err == nil {
						_, err = ts.Token()
					}
					if err != nil {
						errs <- err
					}
				})
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round+1, err)
		}
		if n := len(refreshRequests(op)) - before; n != 1 {
			t.Fatalf("round %d: %d refresh requests, want 1", round+1, n)
		}
	}
	if n := op.RevokedGrants(); n != 0 {
		t.Fatalf("the provider revoked %d grants", n)
	}
}
