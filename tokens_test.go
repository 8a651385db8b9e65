package gatehouse_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"golang.org/x/oauth2"
)

// appRequest is a request to the app carrying the browser's cookies, as
// an application handler would receive it.
func (b *browser) appRequest(a *app) *http.Request { return b.Request(a.url, a.url+"/reports") }

// keep stores the cookies a response set in the browser, as a browser
// would.
func (b *browser) keep(a *app, w *httptest.ResponseRecorder) {
	u, _ := url.Parse(a.url)
	b.Client.Jar.SetCookies(u, w.Result().Cookies())
}

// refreshRequests returns the refresh_token values the provider received
// in refresh_token grant requests.
func refreshRequests(op *authtest.Server) []string {
	var out []string
	for _, r := range op.Requests() {
		if r.Endpoint == authtest.EndpointToken && r.Form.Get("grant_type") == "refresh_token" {
			out = append(out, r.Form.Get("refresh_token"))
		}
	}
	return out
}

// tokenEndpoint posts form to the provider's token endpoint as the client.
func tokenEndpoint(t *testing.T, op *authtest.Server, form url.Values) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, op.Issuer()+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(authtest.DefaultClientID, authtest.DefaultClientSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	json.NewDecoder(resp.Body).Decode(&v)
	return resp.StatusCode, v
}

// userinfoStatus calls the provider's userinfo endpoint with an access
// token, as an application would call a provider API.
func userinfoStatus(t *testing.T, op *authtest.Server, ts oauth2.TokenSource) int {
	t.Helper()
	c := oauth2.NewClient(context.Background(), ts)
	resp, err := c.Get(op.Issuer() + "/userinfo")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// expireStored makes the stored access token of dev/alice expired.
func expireStored(t *testing.T, st *store) {
	t.Helper()
	ctx := context.Background()
	acct, err := st.raw.GetAccount(ctx, "dev", "alice")
	if err != nil {
		t.Fatal(err)
	}
	acct.ExpiresAt = time.Now().Add(-time.Minute).Unix()
	if err := st.raw.UpdateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
}

func TestTokenSourceDatabase(t *testing.T) {
	eachStore(t, func(t *testing.T, st *store) {
		a, _ := newDBApp(t, st, authtest.Options{}, nil)
		b := newBrowser(t)
		b.signIn(a, "dev", "/")
		ctx := context.Background()
		stored, _ := st.raw.GetAccount(ctx, "dev", "alice")

		// Valid: the stored token, no request to the provider.
		ts, err := a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
		if err != nil {
			t.Fatal(err)
		}
		tok, err := ts.Token()
		if err != nil || tok.AccessToken != stored.AccessToken || !tok.Valid() {
			t.Fatalf("token %+v (%v), want the stored %q", tok, err, stored.AccessToken)
		}
		if n := len(refreshRequests(a.op)); n != 0 {
			t.Fatalf("%d refresh requests for a valid token", n)
		}
		if got := userinfoStatus(t, a.op, ts); got != http.StatusOK {
			t.Fatalf("userinfo with the token: %d", got)
		}

		// Expired: refreshed with the stored refresh token, the rotated
		// tokens saved.
		expireStored(t, st)
		ts, _ = a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
		tok, err = ts.Token()
		if err != nil {
			t.Fatal(err)
		}
		if rts := refreshRequests(a.op); len(rts) != 1 || rts[0] != stored.RefreshToken {
			t.Fatalf("refresh requests presented %q, want [%q]", rts, stored.RefreshToken)
		}
		saved, _ := st.raw.GetAccount(ctx, "dev", "alice")
		if tok.AccessToken == stored.AccessToken || saved.AccessToken != tok.AccessToken ||
			saved.RefreshToken == stored.RefreshToken || saved.RefreshToken == "" ||
			time.Until(saved.Expiry()) < 50*time.Minute || saved.IDToken == "" {
			t.Fatalf("after refresh: token %q, saved %+v", tok.AccessToken, saved.TokenSet)
		}
		if got := userinfoStatus(t, a.op, ts); got != http.StatusOK {
			t.Fatalf("userinfo with the refreshed token: %d", got)
		}
		// The provider rotated: the old refresh token is refused.
		if status, v := tokenEndpoint(t, a.op, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {stored.RefreshToken}}); status != http.StatusBadRequest || v["error"] != "invalid_grant" {
			t.Fatalf("old refresh token: %d %v", status, v)
		}
		// The next request finds the saved token valid.
		before := len(refreshRequests(a.op)) // 2: ours, and the test's own
		ts, _ = a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
		if tok2, err := ts.Token(); err != nil || tok2.AccessToken != tok.AccessToken || len(refreshRequests(a.op)) != before {
			t.Fatalf("second source: token changed %v (%v), %d more refreshes", tok2.AccessToken != tok.AccessToken, err, len(refreshRequests(a.op))-before)
		}
	})
}

// Several requests that find one expired token refresh it once.
func TestTokenSourceSingleFlight(t *testing.T) {
	const n = 8
	t.Run("database", func(t *testing.T) {
		t.Parallel()
		st := openStore(t, "sqlite")
		a, _ := newDBApp(t, st, authtest.Options{}, nil)
		b := newBrowser(t)
		b.signIn(a, "dev", "/")
		expireStored(t, st)
		a.op.SetFaults(authtest.Faults{TokenDelay: 300 * time.Millisecond})
		got := concurrently(t, n, func() (string, error) {
			return accessToken(a.h.TokenSource(context.Background(), nil, b.appRequest(a), "dev"))
		})
		if rts := refreshRequests(a.op); len(rts) != 1 {
			t.Fatalf("%d refresh requests, want 1", len(rts))
		}
		saved, _ := st.raw.GetAccount(context.Background(), "dev", "alice")
		for _, at := range got {
			if at != saved.AccessToken {
				t.Fatalf("callers got %q, saved %q", got, saved.AccessToken)
			}
		}
	})
	t.Run("jwt", func(t *testing.T) {
		t.Parallel()
		a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) { cfg.Callbacks.JWT = gatehouse.KeepTokens(nil) })
		b := newBrowser(t)
		b.signIn(a, "dev", "/")
		a.op.SetFaults(authtest.Faults{TokenDelay: 300 * time.Millisecond})
		req := b.appRequest(a)
		got := concurrently(t, n, func() (string, error) {
			return accessToken(a.h.TokenSource(context.Background(), httptest.NewRecorder(), req.Clone(context.Background()), "dev", gatehouse.MinValidity(2*time.Hour)))
		})
		if rts := refreshRequests(a.op); len(rts) != 1 {
			t.Fatalf("%d refresh requests, want 1", len(rts))
		}
		for _, at := range got {
			if at != got[0] {
				t.Fatalf("callers got %q", got)
			}
		}
	})
}

// concurrently runs f n times at once and returns the results.
func concurrently(t *testing.T, n int, f func() (string, error)) []string {
	t.Helper()
	out := make([]string, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			out[i], errs[i] = f()
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestTokenSourceInvalidGrant(t *testing.T) {
	st := openStore(t, "memory")
	a, _ := newDBApp(t, st, authtest.Options{}, nil)
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	ctx := context.Background()

	// A refresh token the provider no longer knows (revoked, or used).
	acct, _ := st.raw.GetAccount(ctx, "dev", "alice")
	acct.RefreshToken = "revoked-" + acct.RefreshToken
	acct.ExpiresAt = time.Now().Add(-time.Minute).Unix()
	if err := st.raw.UpdateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	ts, err := a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ts.Token()
	var ge *gatehouse.Error
	var re *oauth2.RetrieveError
	if !errors.Is(err, gatehouse.ErrSignInAgain) || !errors.Is(err, gatehouse.SessionRequired) ||
		!errors.As(err, &ge) || ge.Code != "invalid_grant" || ge.Step != "refresh" ||
		!errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Fatalf("err = %v, want ErrSignInAgain with the provider's invalid_grant", err)
	}
	// Through an HTTP client the error is still recognisable.
	_, err = oauth2.NewClient(ctx, ts).Get(a.op.Issuer() + "/userinfo")
	if !errors.Is(err, gatehouse.ErrSignInAgain) {
		t.Fatalf("client error = %v", err)
	}

	// The provider refusing every grant (authtest fault).
	expireStored(t, st)
	acct, _ = st.raw.GetAccount(ctx, "dev", "alice")
	acct.RefreshToken = "anything"
	st.raw.UpdateAccount(ctx, acct)
	a.op.SetFaults(authtest.Faults{TokenInvalidGrant: true})
	ts, _ = a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
	if _, err := ts.Token(); !errors.Is(err, gatehouse.ErrSignInAgain) {
		t.Fatalf("TokenInvalidGrant: err = %v", err)
	}

	// A provider failure is not a reason to sign in again.
	a.op.SetFaults(authtest.Faults{TokenServerError: true})
	ts, _ = a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
	_, err = ts.Token()
	if errors.Is(err, gatehouse.ErrSignInAgain) || !errors.Is(err, gatehouse.TokenExchangeFailed) || !errors.As(err, &ge) || ge.Code != "http_500" {
		t.Fatalf("server error: err = %v, want TokenExchangeFailed http_500", err)
	}

	// No refresh token at all.
	acct.RefreshToken = ""
	st.raw.UpdateAccount(ctx, acct)
	ts, _ = a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
	if _, err := ts.Token(); !errors.Is(err, gatehouse.ErrSignInAgain) || !errors.As(err, &ge) || ge.Code != "no_refresh_token" {
		t.Fatalf("no refresh token: err = %v", err)
	}
}

func TestTokenSourceErrors(t *testing.T) {
	st := openStore(t, "memory")
	a, _ := newDBApp(t, st, authtest.Options{}, secondProvider(t, "other", nil, false))
	b := newBrowser(t)
	ctx := context.Background()
	code := func(err error) string {
		var ge *gatehouse.Error
		if errors.As(err, &ge) {
			return string(ge.Type) + "/" + ge.Code
		}
		return fmt.Sprint(err)
	}
	if _, err := a.h.TokenSource(ctx, nil, b.appRequest(a), "dev"); !errors.Is(err, gatehouse.ErrSignInAgain) || code(err) != "SessionRequired/no_session" {
		t.Fatalf("not signed in: %v", err)
	}
	b.signIn(a, "dev", "/")
	if _, err := a.h.TokenSource(ctx, nil, b.appRequest(a), "other"); !errors.Is(err, gatehouse.ErrSignInAgain) || code(err) != "SessionRequired/no_account" {
		t.Fatalf("no account at other: %v", err)
	}
	if _, err := a.h.TokenSource(ctx, nil, b.appRequest(a), "nope"); code(err) != "UnknownProvider/unknown_provider" {
		t.Fatalf("unknown provider: %v", err)
	}
	st.spy.down.Store(true)
	if _, err := a.h.TokenSource(ctx, nil, b.appRequest(a), "dev"); code(err) != "AdapterError/adapter" {
		t.Fatalf("database down: %v", err)
	}
}

// With the JWT strategy and no adapter, KeepTokens keeps the tokens in
// the session cookie, and a refresh writes the rotated ones back.
func TestTokenSourceJWT(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Callbacks.JWT = gatehouse.KeepTokens(func(_ context.Context, p gatehouse.JWTParams) (*gatehouse.Token, error) {
			t := p.Token
			t.Name = strings.ToUpper(t.Name) // the application's own callback still runs
			return &t, nil
		})
	})
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	ctx := context.Background()
	if s := b.session(a); s["user"].(map[string]any)["name"] != "ALICE" || strings.Contains(fmt.Sprint(s), "token") {
		t.Fatalf("session = %v", s)
	}

	// Valid: from the cookie, nothing written.
	w := httptest.NewRecorder()
	ts, err := a.h.TokenSource(ctx, w, b.appRequest(a), "dev")
	if err != nil {
		t.Fatal(err)
	}
	first, err := ts.Token()
	if err != nil || userinfoStatus(t, a.op, ts) != http.StatusOK || len(w.Result().Cookies()) != 0 || len(refreshRequests(a.op)) != 0 {
		t.Fatalf("token %v (%v), cookies %v", first, err, w.Result().Cookies())
	}

	// Refreshed (MinValidity beyond the token's hour): the new cookie
	// carries the rotated refresh token, which the next refresh presents.
	for i := range 2 {
		w := httptest.NewRecorder()
		ts, err := a.h.TokenSource(ctx, w, b.appRequest(a), "dev", gatehouse.MinValidity(2*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		tok, err := ts.Token()
		if err != nil || tok.AccessToken == first.AccessToken {
			t.Fatalf("refresh %d: %v %v", i, tok, err)
		}
		// Fresh from the provider, it is used again without a refresh.
		if again, _ := ts.Token(); again.AccessToken != tok.AccessToken {
			t.Fatal("a fresh token was refreshed again")
		}
		if userinfoStatus(t, a.op, ts) != http.StatusOK {
			t.Fatalf("refresh %d: userinfo refused the token", i)
		}
		var set bool
		for _, c := range w.Result().Cookies() {
			set = set || strings.HasPrefix(c.Name, sessionCookie)
		}
		if !set {
			t.Fatalf("refresh %d wrote no session cookie", i)
		}
		b.keep(a, w)
		first = tok
	}
	rts := refreshRequests(a.op)
	if len(rts) != 2 || rts[0] == rts[1] {
		t.Fatalf("refresh requests presented %q, want two different refresh tokens", rts)
	}
	if id := b.userID(a); id != "dev:alice" {
		t.Fatalf("after refreshes the session is %q", id)
	}

	// Errors.
	if _, err := a.h.TokenSource(ctx, nil, b.appRequest(a), "dev"); !errors.Is(err, gatehouse.Configuration) {
		t.Fatalf("nil ResponseWriter: %v", err)
	}
	if _, err := a.h.TokenSource(ctx, w, newBrowser(t).appRequest(a), "dev"); !errors.Is(err, gatehouse.ErrSignInAgain) {
		t.Fatalf("not signed in: %v", err)
	}
	plain := newApp(t, authtest.Options{}, nil)
	pb := newBrowser(t)
	pb.signIn(plain, "dev", "/")
	var ge *gatehouse.Error
	if _, err := plain.h.TokenSource(ctx, w, pb.appRequest(plain), "dev"); !errors.As(err, &ge) || ge.Code != "tokens_not_kept" {
		t.Fatalf("without KeepTokens: %v", err)
	}
}

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
	schema, _ := dbtest.PostgresSchema(t, "gatehouse_scaleout")
	op := newOP(t, authtest.Options{AutoApprove: true, RepeatNonceOnRefresh: true, RevokeOnRefreshReuse: true})
	var handlers [2]*gatehouse.Handler
	var pgs [2]*postgres.Adapter
	for i := range handlers {
		pgs[i] = dbtest.Postgres(t, schema)
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
